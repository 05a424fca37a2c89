// What the passes that fuse chains of nodes (recognize-batch-norm, fuse-conv-epilogue,
// fuse-matmul-epilogue) share: the single reader of each value a region reads once, and putting a
// fused node in place of a chain of nodes.
#pragma once

#include <map>
#include <set>
#include <vector>

#include "sdk/graph/Graph.h"

namespace pyasc::codegen {

// The index in `r` of the single reader of each value read once in the whole graph (`uses`).
inline std::map<graph::ValueId, size_t> singleReaders(const graph::Region& r, const std::map<graph::ValueId, int>& uses) {
  std::map<graph::ValueId, size_t> reader;
  for (size_t i = 0; i < r.nodes.size(); ++i)
    for (graph::ValueId v : r.nodes[i].inputs)
      if (auto u = uses.find(v); u != uses.end() && u->second == 1) reader[v] = i;
  return reader;
}

// `fused` takes the place of the chain's last node (after every operand it reads), with the
// chain's hints it does not have (what earlier passes noted); the head node `head` and the chain's
// other nodes join `dropped`.
inline void replaceChain(graph::Region& r, std::set<size_t>& dropped, size_t head, const std::vector<size_t>& chain,
                         graph::Node fused) {
  for (size_t k : chain)
    for (const graph::NamedAttr& h : r.nodes[k].hints) {
      bool present = false;
      for (const graph::NamedAttr& own : fused.hints) present = present || own.name == h.name;
      if (!present) fused.hints.push_back(h);
    }
  dropped.insert(head);
  for (size_t k = 0; k + 1 < chain.size(); ++k) dropped.insert(chain[k]);
  r.nodes[chain.back()] = std::move(fused);
}

// Removes the nodes of `r` whose indices are in `dropped`.
inline void dropNodes(graph::Region& r, const std::set<size_t>& dropped) {
  std::vector<graph::Node> kept;
  for (size_t i = 0; i < r.nodes.size(); ++i)
    if (!dropped.count(i)) kept.push_back(std::move(r.nodes[i]));
  r.nodes = std::move(kept);
}

}  // namespace pyasc::codegen
