// The event loop: repeatedly runs whichever of the scalar unit and the pipe heads can start
// earliest (ties go to the lower pipe number), so data effects happen in timing order.
#include "sim/AiCore.h"

#include <algorithm>
#include <cmath>

#include "sdk/isa/Encoding.h"
#include "sim/CubeUnit.h"
#include "sim/Energy.h"
#include "sim/InstructionChecks.h"
#include "sim/InstructionTable.h"
#include "sim/Mte.h"
#include "sim/Timing.h"
#include "sim/VectorUnit.h"
#include "sim/Violation.h"

namespace pyasc::sim {

using isa::Opcode;
using isa::Pipe;

namespace {
constexpr int kS = static_cast<int>(Pipe::S);

std::string flagName(Pipe src, Pipe dst, int event) {
  return std::string("(") + isa::pipeName(src) + ", " + isa::pipeName(dst) + ", " + std::to_string(event) + ")";
}
}  // namespace

AiCore::AiCore(const Target& target, const Kernel& kernel, const LaunchOptions& options, int blockIdx,
               CoreMemory& memory, MemorySystem& gm, RaceDetector* races, TraceRecorder* trace, uint64_t start)
    : target_(target), kernel_(kernel), options_(options), core_(blockIdx), mem_(memory), gm_(gm), races_(races),
      trace_(trace), scalarTime_(start), flagVisible_(isa::kPipeCount * isa::kPipeCount * isa::kFlagEvents, kNever),
      flagSync_(flagVisible_.size()) {
  pipeFree_.fill(start);
  pipeDone_.fill(start);
  scalar_.blockIdx = blockIdx;
  scalar_.blockDim = options.blockDim;
  for (size_t i = 0; i < options.args.size(); ++i) scalar_.regs[i + 1] = options.args[i];
  plan();
}

std::string AiCore::text(int instruction) const { return instructionText(kernel_.program[instruction]); }

void AiCore::fail(int instruction, const std::string& what) const {
  SimError error(core_, instruction, instruction >= 0 ? text(instruction) : "", what);
  if (instruction >= 0 && static_cast<size_t>(instruction) < kernel_.sourceLines.size()) {
    error.setSourceLine(kernel_.sourceLines[instruction]);
  }
  throw error;
}

int AiCore::flagIndex(Pipe src, Pipe dst, int event) {
  return (static_cast<int>(src) * isa::kPipeCount + static_cast<int>(dst)) * isa::kFlagEvents + event;
}

uint64_t AiCore::scalarStart() const {
  if (scalar_.pc >= kernel_.program.size()) return scalarTime_;
  const isa::Instruction& inst = kernel_.program[scalar_.pc];
  if (inst.op == Opcode::WaitFlag && inst.dstPipe == Pipe::S && inst.event < isa::kFlagEvents &&
      static_cast<int>(inst.srcPipe) < isa::kPipeCount) {
    uint64_t visible = flagVisible_[flagIndex(inst.srcPipe, Pipe::S, inst.event)];
    return visible == kNever ? kNever : std::max(scalarTime_, visible);
  }
  if (inst.op == Opcode::Barrier && barrierPipe(inst) == Pipe::All) {
    uint64_t t = scalarTime_;
    for (int p = 1; p < isa::kPipeCount; ++p) {
      if (!queues_[p].empty()) return kNever;
      t = std::max({t, pipeFree_[p], pipeDone_[p]});
    }
    return t;
  }
  int pipe = static_cast<int>(queuePipe(inst));
  if (pipe != kS && pipe < isa::kPipeCount && queues_[pipe].size() >= kQueueDepth) return kNever;
  return scalarTime_;
}

uint64_t AiCore::pipeStart(int pipe) const {
  const Queued& q = queues_[pipe].front();
  uint64_t t = std::max(pipeFree_[pipe], q.ready);
  const isa::Instruction& inst = *q.issued.inst;
  if (inst.op == Opcode::WaitFlag) {
    uint64_t visible = flagVisible_[flagIndex(inst.srcPipe, inst.dstPipe, inst.event)];
    if (visible == kNever) return kNever;
    t = std::max(t, visible);
  }
  return t;
}

void AiCore::plan() {
  uint64_t best = kNever;
  int who = -1;
  if (!ended_) {
    best = scalarStart();
    if (best != kNever) who = kS;
  }
  for (int p = 1; p < isa::kPipeCount; ++p) {
    if (queues_[p].empty()) continue;
    uint64_t t = pipeStart(p);
    if (t < best) {
      best = t;
      who = p;
    }
  }
  if (who < 0) {
    bool drained = ended_;
    for (int p = 1; p < isa::kPipeCount; ++p) drained = drained && queues_[p].empty();
    if (!drained) reportDeadlock();
  }
  next_ = best;
  who_ = who;
  nextShared_ = false;
  if (who > 0) {
    Opcode op = queues_[who].front().issued.inst->op;
    nextShared_ = op == Opcode::CopyGmToUb || op == Opcode::CopyGmToL1 || op == Opcode::CopyUbToGm ||
                  op == Opcode::FixL0CToGm;
  }
}

void AiCore::step() {
  if (who_ == kS) {
    stepScalar(next_);
  } else if (who_ > 0) {
    stepPipe(who_, next_);
  }
  plan();
}

LaunchStats AiCore::stats() const {
  LaunchStats s = stats_;
  uint64_t cycles = scalarTime_;
  for (int p = 1; p < isa::kPipeCount; ++p) cycles = std::max({cycles, pipeFree_[p], pipeDone_[p]});
  s.cycles = cycles;
  s.energyPJ += trafficEnergy(mem_.trafficBytes(), target_);
  return s;
}

void AiCore::stepScalar(uint64_t now) {
  scalarTime_ = now;
  if (scalar_.pc >= kernel_.program.size()) {
    if (scalar_.fieldCount > 0) {  // running off the end is an `end`: nothing takes the fields
      fail(static_cast<int>(kernel_.program.size()) - 1,
           std::string("set_field ") + isa::fieldName(isa::registerField(scalar_.fields[0].field)) +
               " is pending when the program ends");
    }
    ended_ = true;
    return;
  }
  int index = static_cast<int>(scalar_.pc);
  if (++scalarSteps_ > kMaxScalarSteps) {
    fail(index, "instruction limit of " + std::to_string(kMaxScalarSteps) + " scalar steps exceeded");
  }
  const isa::Instruction& programInst = kernel_.program[index];
  uint64_t cost = static_cast<uint64_t>(target_.scalarCycles);
  VectorClock& sClock = clocks_[kS];
  ++sClock[kS];
  try {
    Pipe pipe = queuePipe(programInst);
    const bool consumes = scalar_.fieldCount > 0 && (pipe != Pipe::S || programInst.op == Opcode::End ||
                                                     programInst.op == Opcode::SetFlag ||
                                                     programInst.op == Opcode::WaitFlag || programInst.op == Opcode::Barrier);
    const isa::Instruction& inst = consumes ? withFields(programInst) : programInst;
    checkFields(inst, scalar_.mask, options_.sanitize);
    if (inst.op == Opcode::End) {
      ended_ = true;
    } else if (inst.op == Opcode::WaitFlag && pipe == Pipe::S) {
      int f = flagIndex(inst.srcPipe, Pipe::S, inst.event);
      flagVisible_[f] = kNever;
      joinClock(sClock, flagSync_[f].clock);
      ++scalar_.pc;
    } else if (inst.op == Opcode::SetFlag && pipe == Pipe::S) {
      setFlag(Pipe::S, inst.dstPipe, inst.event, now, index);
      ++scalar_.pc;
    } else if (inst.op == Opcode::Barrier && pipe == Pipe::S) {
      if (barrierPipe(inst) == Pipe::All) {
        for (int p = 1; p < isa::kPipeCount; ++p) joinClock(sClock, clocks_[p]);
      }
      ++scalar_.pc;
    } else if (pipe == Pipe::S) {
      runScalar(inst, scalar_, mem_);
      // a scalar load or store of GM waits for its round trip through the L2
      if ((inst.op == Opcode::Ld && inst.src0.space == isa::Space::GM) ||
          (inst.op == Opcode::St && inst.dst.space == isa::Space::GM)) {
        cost += static_cast<uint64_t>(target_.scalarGmLatency);
      }
      checkRaces(Pipe::S, index);
    } else {
      Queued& q = queues_[static_cast<int>(pipe)].push_back();  // every field set below
      q.issued.inst = &inst;
      q.issued.index = index;
      q.issued.capture(scalar_.regs);
      q.issued.mask = scalar_.mask;
      q.ready = now + cost;
      q.issuerClock = sClock;
      ++scalar_.pc;
    }
  } catch (const Violation& v) {
    fail(index, v.what());
  }
  scalarTime_ = now + cost;
  stats_.pipes[kS].busyCycles += cost;
  ++stats_.pipes[kS].instructions;
  if (trace_) trace_->add(core_, kS, now, cost, text(index), index);
}

const isa::Instruction& AiCore::withFields(const isa::Instruction& inst) {
  const isa::Format format = opcodeEntry(inst.op).format;
  if (patched_.empty()) patched_.resize(kQueueDepth * isa::kPipeCount + 1);
  isa::Instruction& out = patched_[nextPatched_];
  nextPatched_ = (nextPatched_ + 1) % patched_.size();
  out = inst;
  const int count = scalar_.fieldCount;
  scalar_.fieldCount = 0;
  for (int i = 0; i < count; ++i) {
    const FieldOverride& f = scalar_.fields[static_cast<size_t>(i)];
    const isa::Field field = isa::registerField(f.field);
    const isa::FieldSpec* spec = isa::findField(format, field);
    const std::string name = std::string("set_field ") + isa::fieldName(field);
    if (!spec) throw Violation(name + ": " + opcodeEntry(inst.op).mnemonic + " has no field " + isa::fieldName(field));
    const auto value = static_cast<int64_t>(f.value);
    if (value < spec->min || value > spec->max) {
      throw Violation(name + " = " + std::to_string(value) + " is out of range " + std::to_string(spec->min) + ".." +
                      std::to_string(spec->max));
    }
    isa::setField(out, field, value);
  }
  return out;
}

void AiCore::stepPipe(int pipe, uint64_t now) {
  const Queued& q = queues_[pipe].front();  // stays in its slot: only the scalar unit pushes
  try {
    execute(pipe, q, now);
  } catch (const Violation& v) {
    fail(q.issued.index, v.what());
  }
  queues_[pipe].pop_front();
}

void AiCore::execute(int pipe, const Queued& q, uint64_t now) {
  const isa::Instruction& inst = *q.issued.inst;
  VectorClock& clock = clocks_[pipe];
  ++clock[pipe];
  joinClock(clock, q.issuerClock);
  uint64_t duration = 0;  // until the instruction's effects are complete
  uint64_t latency = 0;   // the part of it the pipe overlaps with its next instruction (DMA round trips, cube fill)
  switch (inst.op) {
    case Opcode::WaitFlag: {
      int f = flagIndex(inst.srcPipe, inst.dstPipe, inst.event);
      flagVisible_[f] = kNever;
      joinClock(clock, flagSync_[f].clock);
      break;
    }
    case Opcode::SetFlag: setFlag(static_cast<Pipe>(pipe), inst.dstPipe, inst.event, now, q.issued.index); break;
    case Opcode::Barrier:
      duration = (pipeDone_[pipe] > now ? pipeDone_[pipe] - now : 0) + static_cast<uint64_t>(target_.barrierCycles);
      break;
    default: {
      mem_.clearAccesses();
      Work work;
      isa::Format format = opcodeEntry(inst.op).format;
      if (inst.op == Opcode::Mmad) {
        work = runMmad(q.issued, mem_);
      } else if (format == isa::Format::Fixpipe) {
        work = runFixpipe(q.issued, mem_);
      } else if (format == isa::Format::Dma || format == isa::Format::LoadFractal || format == isa::Format::Img2Col) {
        work = runTransfer(q.issued, mem_);
      } else {
        work = runVector(q.issued, mem_);
        work.cost = isa::vectorCost(inst.op);
      }
      checkRaces(static_cast<Pipe>(pipe), q.issued.index);
      if (work.kind == Work::Kind::Transfer && work.bursts > 0) {
        // a GM transfer holds its pipe until its lines have moved through the shared L2 and
        // device-memory channels; its round trip overlaps the pipe's next instruction
        bool write = work.path == DmaPath::UbToGm || work.path == DmaPath::L0CToGm;
        MemorySystem::Transfer t = gm_.transfer(work.gmAddr, work.bursts, work.burstBytes, work.gmPitch, write,
                                                static_cast<double>(now), target_.bw(work.path));
        latency = static_cast<uint64_t>(target_.dmaLatency[static_cast<int>(work.path)]);
        duration = static_cast<uint64_t>(std::ceil(t.end - 1e-9)) - now + latency;
        stats_.hbmBytes += t.hbmBytes;
        stats_.l2HitBytes += t.hitBytes;
        stats_.gmCycles += duration;
      } else {
        duration = workCycles(work, target_);
        if (work.kind == Work::Kind::Transfer && work.bytes > 0) {
          latency = std::min<uint64_t>(duration - 1, static_cast<uint64_t>(target_.dmaLatency[static_cast<int>(work.path)]));
        }
      }
      // the cube is a pipelined MAC array: its startup is the pipeline's fill, which the next mmad
      // queued on M overlaps, so back-to-back mmads pay it once
      if (work.kind == Work::Kind::Cube) latency = std::min<uint64_t>(duration - 1, static_cast<uint64_t>(target_.cubeStartup));
      if (work.kind == Work::Kind::Transfer) stats_.bytes[static_cast<int>(work.path)] += work.bytes;
      if (work.kind == Work::Kind::Vector) stats_.vectorOps += work.lanes;
      if (work.kind == Work::Kind::Cube) stats_.macs += work.m * work.n * work.k;
      stats_.energyPJ += computeEnergy(work, target_);
      break;
    }
  }
  uint64_t occupancy = duration - latency;
  pipeFree_[pipe] = now + occupancy;
  pipeDone_[pipe] = std::max(pipeDone_[pipe], now + duration);
  stats_.pipes[pipe].busyCycles += occupancy;
  ++stats_.pipes[pipe].instructions;
  if (trace_) trace_->add(core_, pipe, now, duration, text(q.issued.index), q.issued.index);
}

void AiCore::setFlag(Pipe src, Pipe dst, int event, uint64_t now, int instruction) {
  int f = flagIndex(src, dst, event);
  if (flagVisible_[f] != kNever && options_.sanitize) {
    throw Violation("double set of flag " + flagName(src, dst, event) + ": already set by instruction " +
                    std::to_string(flagSync_[f].setter) + " and not yet waited for");
  }
  // a flag fires once every earlier instruction of its pipe has completed, DMA latency included
  uint64_t done = src == Pipe::S ? now : std::max(now, pipeDone_[static_cast<int>(src)]);
  flagVisible_[f] = done + static_cast<uint64_t>(target_.flagLatency);
  flagSync_[f].clock = clocks_[static_cast<int>(src)];
  flagSync_[f].setter = instruction;
}

void AiCore::checkRaces(Pipe pipe, int instruction) {
  if (races_) races_->record(pipe, clocks_[static_cast<int>(pipe)], instruction, mem_.accesses());
  mem_.clearAccesses();
}

void AiCore::reportDeadlock() const {
  std::vector<std::pair<int, std::string>> waiters;  // (instruction, description)
  if (!ended_ && scalar_.pc < kernel_.program.size()) {
    const isa::Instruction& inst = kernel_.program[scalar_.pc];
    int index = static_cast<int>(scalar_.pc);
    if (inst.op == Opcode::WaitFlag) {
      waiters.push_back({index, "S waits for flag " + flagName(inst.srcPipe, Pipe::S, inst.event)});
    } else if (inst.op == Opcode::Barrier) {
      waiters.push_back({index, "S waits at pipe_barrier ALL"});
    } else {
      waiters.push_back({index, std::string("S waits for room in the ") + isa::pipeName(queuePipe(inst)) + " queue"});
    }
  }
  for (int p = 1; p < isa::kPipeCount; ++p) {
    if (queues_[p].empty()) continue;
    const Queued& q = queues_[p].front();
    const isa::Instruction& inst = *q.issued.inst;
    waiters.push_back({q.issued.index, std::string(isa::pipeName(static_cast<Pipe>(p))) + " waits for flag " +
                                           flagName(inst.srcPipe, inst.dstPipe, inst.event)});
  }
  std::sort(waiters.begin(), waiters.end());
  std::string what = "deadlock: ";
  for (size_t i = 0; i < waiters.size(); ++i) {
    if (i) what += "; ";
    what += waiters[i].second + " (instruction " + std::to_string(waiters[i].first) + ")";
  }
  what += "; nothing left can set them";
  fail(waiters.empty() ? -1 : waiters.front().first, what);
}

}  // namespace pyasc::sim
