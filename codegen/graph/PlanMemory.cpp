// plan-memory: live ranges over the plan's launches, then interval first-fit in GM.
#include "codegen/graph/PlanMemory.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <set>

namespace pyasc::codegen {

namespace {

int64_t alignUp(int64_t v) { return (v + kGmAlignment - 1) / kGmAlignment * kGmAlignment; }

// Flattened launch positions (from 1) at which each storage is first and last named; a storage
// named in a loop (or carried by it) is live through the whole loop.
class LiveRanges {
 public:
  explicit LiveRanges(Program& p) : p_(p) {}

  // Returns the position of the last launch.
  int walk(const std::vector<Step>& steps) {
    for (const Step& s : steps) {
      if (!s.isLoop) {
        ++position_;
        for (int storage : s.launch.storages) touch(storage);
        continue;
      }
      int loopStart = position_ + 1;
      loops_.emplace_back();
      for (int c : s.carried) touch(c);
      walk(s.body);
      std::set<int> touched = std::move(loops_.back());
      loops_.pop_back();
      for (int storage : touched) {
        Storage& st = p_.storages[storage];
        st.firstUse = std::min(st.firstUse < 0 ? loopStart : st.firstUse, loopStart);
        st.lastUse = std::max(st.lastUse, position_);
        for (auto& outer : loops_) outer.insert(storage);
      }
    }
    return position_;
  }

 private:
  void touch(int storage) {
    Storage& s = p_.storages[storage];
    if (s.firstUse < 0) s.firstUse = position_;
    s.lastUse = std::max(s.lastUse, position_);
    for (auto& loop : loops_) loop.insert(storage);
  }

  Program& p_;
  int position_ = 0;
  std::vector<std::set<int>> loops_;
};

struct GmBuffer {
  int64_t bytes = 0;
  bool reusable = false;  // intermediates only
  int64_t offset = -1;
};

// Interval first-fit, largest buffers first; returns the peak. Without reuse every buffer is live
// with every other, so first-fit packs them end to end: each goes where the previous ones end.
int64_t placeBuffers(std::vector<GmBuffer>& buffers, const std::vector<Storage>& storages, bool reuse) {
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  // big buffers first packs tighter; the index keeps the result deterministic
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return buffers[a].bytes > buffers[b].bytes; });
  auto sizeOf = [](const GmBuffer& b) { return alignUp(std::max<int64_t>(b.bytes, 1)); };
  int64_t peak = 0;
  if (!reuse) {
    for (size_t i : order) {
      buffers[i].offset = peak;
      peak += sizeOf(buffers[i]);
    }
    return peak;
  }
  struct Placed {
    int64_t begin, end;
    int firstUse, lastUse;
    bool reusable;
    bool operator<(const Placed& o) const { return begin < o.begin; }
  };
  std::vector<Placed> placed;  // by offset
  for (size_t i : order) {
    GmBuffer& buf = buffers[i];
    const int64_t size = sizeOf(buf);
    const Storage& s = storages[i];
    // the lowest offset where the buffer fits between the placed buffers live at the same time
    int64_t offset = 0;
    for (const Placed& other : placed) {
      const bool overlapInTime =
          !(buf.reusable && other.reusable && (s.lastUse < other.firstUse || other.lastUse < s.firstUse));
      if (!overlapInTime) continue;
      if (offset + size <= other.begin) break;
      offset = std::max(offset, other.end);
    }
    buf.offset = offset;
    peak = std::max(peak, offset + size);
    const Placed p{offset, offset + size, s.firstUse, s.lastUse, buf.reusable};
    placed.insert(std::upper_bound(placed.begin(), placed.end(), p), p);
  }
  return peak;
}

[[noreturn]] void memoryError(const Program& p, int64_t peak, bool reuse, int64_t deviceMemory) {
  Diagnostic d;
  d.range.begin = SourceLocation{p.sourceFile, 0, 0};
  const Storage* biggest = nullptr;
  for (const auto& s : p.storages)
    if (!biggest || s.bytes() > biggest->bytes()) biggest = &s;
  if (biggest && biggest->loc.valid()) d.range.begin = biggest->loc;
  d.message = "MemoryError: Device memory exceeded (requested " + humanBytes(static_cast<double>(peak)) + ", available " +
              humanBytes(static_cast<double>(deviceMemory)) + ")";
  std::vector<const Storage*> largest;
  for (const auto& s : p.storages) largest.push_back(&s);
  std::stable_sort(largest.begin(), largest.end(), [](const Storage* a, const Storage* b) { return a->bytes() > b->bytes(); });
  std::string names;
  for (size_t i = 0; i < largest.size() && i < 3; ++i)
    names += (i ? ", " : "") + ("'" + largest[i]->name + "' (" + humanBytes(static_cast<double>(largest[i]->bytes())) + ")");
  Diagnostic note;
  note.severity = Severity::Note;
  note.message = "largest tensors: " + names +
                 (reuse ? "; process the data in chunks (for i in range(0, n, chunk_size): ...)"
                        : "; try --enable-memory-reuse, or process the data in chunks");
  d.notes.push_back(note);
  throw CompileError(d);
}

}  // namespace

void planMemory(Program& p, const Target& target, bool reuse) {
  int last = LiveRanges(p).walk(p.steps);
  for (const auto& [name, storage] : p.outputs) p.storages[storage].lastUse = last + 1;
  int end = 0;
  for (const auto& s : p.storages) end = std::max(end, s.lastUse);
  std::vector<GmBuffer> buffers;
  for (auto& s : p.storages) {
    // inputs, constants and outputs live throughout
    bool external = s.role != model::TensorRole::Intermediate;
    s.firstUse = external ? 0 : std::max(0, s.firstUse);
    s.lastUse = external ? end + 1 : std::max(s.firstUse, s.lastUse);
    buffers.push_back(GmBuffer{s.bytes(), !external});
  }
  p.gmPeakBytes = placeBuffers(buffers, p.storages, reuse);
  if (p.gmPeakBytes > target.deviceMemory) memoryError(p, p.gmPeakBytes, reuse, target.deviceMemory);
  for (size_t i = 0; i < buffers.size(); ++i) p.storages[i].gmOffset = buffers[i].offset;
}

std::string gmRangeText(int64_t offset, int64_t bytes) {
  char range[64];
  std::snprintf(range, sizeof range, "gm[0x%llx..0x%llx)", static_cast<unsigned long long>(offset),
                static_cast<unsigned long long>(offset + bytes));
  return range;
}

std::string printMemoryPlan(const Program& p) {
  std::string out = "memory plan: " + std::to_string(p.gmPeakBytes) + " bytes of device memory at the peak\n";
  for (const auto& s : p.storages) {
    std::string shape;
    for (int64_t d : s.shape) shape += (shape.empty() ? "" : ",") + std::to_string(d);
    out += "  " + gmRangeText(s.gmOffset, std::max<int64_t>(s.bytes(), 1)) + " %" + s.name + " " + dtypeShortName(s.dtype) +
           "[" + shape + "] " + model::tensorRoleName(s.role) + ", live " + std::to_string(s.firstUse) + ".." +
           std::to_string(s.lastUse) + "\n";
  }
  return out;
}

}  // namespace pyasc::codegen
