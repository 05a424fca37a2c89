// A small model that uses every part of the format: dynamic dims, every role, random streams,
// two kernels with instructions and line maps, nested plan loops with affine scalars, constants.
#pragma once

#include "sdk/model/Model.h"

namespace pyasc::testing {

inline model::Model sampleModel() {
  using namespace pyasc::model;
  using isa::Opcode;
  Model m;
  m.target = "ascend310";
  m.flags = kFlagMemoryOpt;
  m.memory.gmPeakBytes = 1 << 20;
  auto tensor = [](std::string name, DType dtype, std::vector<Dim> shape, TensorRole role, int64_t offset) {
    Tensor t;
    t.name = std::move(name);
    t.dtype = dtype;
    t.shape = std::move(shape);
    t.role = role;
    t.gmOffset = offset;
    t.gmSize = t.maxByteSize();
    return t;
  };
  m.tensors.push_back(tensor("a", DType::Float32, {Dim{1, 64}, Dim::fixed(16)}, TensorRole::Input, 0));
  m.tensors.push_back(tensor("bias", DType::Float16, {Dim::fixed(16)}, TensorRole::Constant, 4096));
  m.tensors.push_back(tensor("noise", DType::Float32, {Dim::fixed(8)}, TensorRole::RandomInput, 8192));
  m.tensors.back().random = RandomSource{RandomDistribution::Uniform, true, 42, 1, 0};
  m.tensors.push_back(tensor("jitter", DType::Float32, {Dim::fixed(2), Dim::fixed(2)}, TensorRole::RandomInput, 8448));
  m.tensors.back().random = RandomSource{RandomDistribution::Normal, true, 42, 1, 8};
  m.tensors.push_back(tensor("tmp", DType::Float32, {Dim{1, 64}, Dim::fixed(16)}, TensorRole::Intermediate, 16384));
  m.tensors.back().layout = Layout::FractalNZ;
  m.tensors.push_back(tensor("out0", DType::Float32, {Dim{1, 64}, Dim::fixed(16)}, TensorRole::Output, 32768));

  KernelImage add;
  add.name = "add_bias";
  add.blockDim = 2;
  add.tensorArgCount = 3;
  add.scalarArgCount = 1;
  add.buffers.ub = 8192;
  add.sourceFile = "input.py";
  isa::Instruction li;
  li.op = Opcode::Li;
  li.rd = 1;
  li.imm = 4096;
  isa::Instruction alu;
  alu.op = Opcode::Add;
  alu.rd = 2;
  alu.ra = 1;
  alu.rb = 3;
  isa::Instruction load;
  load.op = Opcode::CopyGmToUb;
  load.dst = isa::MemRef{isa::Space::UB, 0, 0};
  load.src0 = isa::MemRef{isa::Space::GM, 1, 0};
  load.burstLen = 64;
  isa::Instruction flag;
  flag.op = Opcode::SetFlag;
  flag.srcPipe = isa::Pipe::MTE2;
  flag.dstPipe = isa::Pipe::V;
  isa::Instruction wait = flag;
  wait.op = Opcode::WaitFlag;
  isa::Instruction vadd;
  vadd.op = Opcode::VAdd;
  vadd.type = DType::Float32;
  vadd.dst = isa::MemRef{isa::Space::UB, 0, 4096};
  vadd.src0 = isa::MemRef{isa::Space::UB, 0, 0};
  vadd.src1 = isa::MemRef{isa::Space::UB, 0, 2048};
  vadd.repeat = 8;
  isa::Instruction end;
  end.op = Opcode::End;
  add.instructions = {li, alu, load, flag, wait, vadd, end};
  add.sourceLines = {3, 3, 3, 4, 4, 4, 0};
  m.kernels.push_back(add);

  KernelImage copy;
  copy.name = "copy_out";
  copy.tensorArgCount = 2;
  copy.buffers = BufferUsage{4096, 1024, 512, 512, 2048};
  copy.sourceFile = "input.py";
  copy.instructions = {li, end};
  copy.sourceLines = {7, 7};
  m.kernels.push_back(copy);

  AffineScalar rowOffset{64, {AffineTerm{0, 1024}, AffineTerm{1, 16}}};
  m.plan.push_back(PlanStep::launch(0, {0, 1, 4}, {AffineScalar{0, {}}}));
  m.plan.push_back(PlanStep::loop(
      4, 0, {PlanStep::loop(3, 1, {PlanStep::launch(0, {4, 2, 4}, {rowOffset})}), PlanStep::launch(1, {4, 5})}));
  m.plan.push_back(PlanStep::launch(1, {3, 5}));

  Constant bias;
  bias.tensor = 1;
  for (int i = 0; i < 32; ++i) bias.bytes.push_back(static_cast<uint8_t>(i * 7));
  m.constants.push_back(bias);
  return m;
}

}  // namespace pyasc::testing
