// Scalar semantics: 64-bit registers with x0 hard-wired to zero, signed div/rem that trap on zero,
// arithmetic shift right, sign/zero-extending loads, absolute branch targets.
#include "sim/ScalarUnit.h"

#include <cstring>
#include <string>

#include "sim/Violation.h"

namespace pyasc::sim {

namespace {

using isa::Opcode;

int64_t alu(Opcode op, int64_t a, int64_t b) {
  uint64_t ua = static_cast<uint64_t>(a), ub = static_cast<uint64_t>(b);
  switch (op) {
    case Opcode::Add: return static_cast<int64_t>(ua + ub);
    case Opcode::Sub: return static_cast<int64_t>(ua - ub);
    case Opcode::Mul: return static_cast<int64_t>(ua * ub);
    case Opcode::Div:
    case Opcode::Rem:
      if (b == 0) throw Violation(std::string(op == Opcode::Div ? "div" : "rem") + " by zero");
      if (a == INT64_MIN && b == -1) return op == Opcode::Div ? a : 0;
      return op == Opcode::Div ? a / b : a % b;
    case Opcode::And: return a & b;
    case Opcode::Or: return a | b;
    case Opcode::Xor: return a ^ b;
    case Opcode::Shl: return static_cast<int64_t>(ua << (ub & 63));
    case Opcode::Shr: return a >> (ub & 63);
    case Opcode::Min: return a < b ? a : b;
    case Opcode::Max: return a > b ? a : b;
    default: return 0;
  }
}

uint64_t extend(DType t, uint64_t raw) {
  int bits = dtypeSize(t) * 8;
  if (bits == 64) return raw;
  uint64_t v = raw & ((1ull << bits) - 1);
  if (isInteger(t) && isSigned(t) && ((v >> (bits - 1)) & 1)) v |= ~0ull << bits;
  return v;
}

}  // namespace

void runScalar(const isa::Instruction& inst, ScalarState& s, CoreMemory& mem) {
  auto set = [&](uint8_t rd, uint64_t v) {
    if (rd != 0) s.regs[rd] = v;
  };
  auto reg = [&](uint8_t r) { return static_cast<int64_t>(s.regs[r]); };
  auto address = [&](const isa::MemRef& ref) { return s.regs[ref.reg] + static_cast<uint64_t>(ref.offset); };
  uint64_t next = s.pc + 1;
  switch (inst.op) {
    case Opcode::Li: set(inst.rd, static_cast<uint64_t>(inst.imm)); break;
    case Opcode::Ld: {
      uint64_t raw = 0;
      int size = dtypeSize(inst.type);
      std::memcpy(&raw, mem.read(inst.src0.space, address(inst.src0), size), size);
      set(inst.rd, extend(inst.type, raw));
      break;
    }
    case Opcode::St: {
      uint64_t v = s.regs[inst.ra];
      int size = dtypeSize(inst.type);
      std::memcpy(mem.write(inst.dst.space, address(inst.dst), size), &v, size);
      break;
    }
    case Opcode::Blt: if (reg(inst.ra) < reg(inst.rb)) next = static_cast<uint64_t>(inst.imm); break;
    case Opcode::Bge: if (reg(inst.ra) >= reg(inst.rb)) next = static_cast<uint64_t>(inst.imm); break;
    case Opcode::Beq: if (reg(inst.ra) == reg(inst.rb)) next = static_cast<uint64_t>(inst.imm); break;
    case Opcode::Bne: if (reg(inst.ra) != reg(inst.rb)) next = static_cast<uint64_t>(inst.imm); break;
    case Opcode::Jmp: next = static_cast<uint64_t>(inst.imm); break;
    case Opcode::GetBlockIdx: set(inst.rd, static_cast<uint64_t>(s.blockIdx)); break;
    case Opcode::GetBlockDim: set(inst.rd, static_cast<uint64_t>(s.blockDim)); break;
    case Opcode::SetVMask:
      s.mask.lo = s.regs[inst.ra];
      s.mask.hi = s.regs[inst.rb];
      break;
    case Opcode::SetMaskMode: s.mask.counter = inst.mode == 1; break;
    case Opcode::SetField:
      if (s.fieldCount == kMaxFieldOverrides) {
        throw Violation("more than " + std::to_string(kMaxFieldOverrides) + " set_field before one instruction");
      }
      s.fields[static_cast<size_t>(s.fieldCount++)] = FieldOverride{static_cast<uint8_t>(inst.imm), s.regs[inst.ra]};
      break;
    default:
      set(inst.rd, static_cast<uint64_t>(alu(inst.op, reg(inst.ra), inst.mode == 1 ? inst.imm : reg(inst.rb))));
      break;
  }
  s.pc = next;
}

}  // namespace pyasc::sim
