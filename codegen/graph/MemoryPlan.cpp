// GM memory planning: interval first-fit over plan steps.
#include "codegen/graph/MemoryPlan.h"

#include <algorithm>
#include <numeric>

namespace pyasc::codegen {

static int64_t alignUp(int64_t v) { return (v + kGmAlignment - 1) / kGmAlignment * kGmAlignment; }

MemoryPlanResult planMemory(std::vector<GmBuffer>& buffers, bool reuse, int64_t deviceMemory, const SourceLocation& loc) {
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  // big buffers first packs tighter; the index keeps the result deterministic
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return buffers[a].bytes > buffers[b].bytes; });
  std::vector<size_t> placed;
  MemoryPlanResult result;
  for (size_t i : order) {
    GmBuffer& buf = buffers[i];
    int64_t size = alignUp(std::max<int64_t>(buf.bytes, 1));
    std::vector<std::pair<int64_t, int64_t>> busy;  // [begin, end) of conflicting buffers
    for (size_t j : placed) {
      const GmBuffer& other = buffers[j];
      bool overlapInTime = !(reuse && buf.reusable && other.reusable &&
                             (buf.lastUse < other.firstUse || other.lastUse < buf.firstUse));
      if (overlapInTime) busy.emplace_back(other.offset, other.offset + alignUp(std::max<int64_t>(other.bytes, 1)));
    }
    std::sort(busy.begin(), busy.end());
    int64_t offset = 0;
    for (const auto& [begin, end] : busy) {
      if (offset + size <= begin) break;
      offset = std::max(offset, end);
    }
    buf.offset = offset;
    result.peakBytes = std::max(result.peakBytes, offset + size);
    placed.push_back(i);
  }
  if (result.peakBytes > deviceMemory) {
    Diagnostic d;
    d.range.begin = loc;
    const GmBuffer* biggest = nullptr;
    for (const auto& b : buffers)
      if (!biggest || b.bytes > biggest->bytes) biggest = &b;
    if (biggest && biggest->loc.valid()) d.range.begin = biggest->loc;
    d.message = "MemoryError: Device memory exceeded (requested " + humanBytes(static_cast<double>(result.peakBytes)) +
                ", available " + humanBytes(static_cast<double>(deviceMemory)) + ")";
    std::vector<const GmBuffer*> largest;
    for (const auto& b : buffers) largest.push_back(&b);
    std::stable_sort(largest.begin(), largest.end(), [](const GmBuffer* a, const GmBuffer* b) { return a->bytes > b->bytes; });
    std::string names;
    for (size_t i = 0; i < largest.size() && i < 3; ++i)
      names += (i ? ", " : "") + ("'" + largest[i]->name + "' (" + humanBytes(static_cast<double>(largest[i]->bytes)) + ")");
    Diagnostic note;
    note.severity = Severity::Note;
    note.message = "largest tensors: " + names +
                   (reuse ? "; process the data in chunks (for i in range(0, n, chunk_size): ...)"
                          : "; try --enable-memory-reuse, or process the data in chunks");
    d.notes.push_back(note);
    throw CompileError(d);
  }
  return result;
}

}  // namespace pyasc::codegen
