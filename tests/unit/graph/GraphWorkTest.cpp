// graphWork: the bytes a graph must read and write and the MACs its contractions need.
#include <gtest/gtest.h>

#include "sdk/graph/GraphWork.h"
#include "sdk/graph/Parser.h"

using namespace pyasc;
using namespace pyasc::graph;

namespace {

GraphWork workOf(const std::string& body) { return graphWork(parseGraph("work.graph", "graph {\n" + body + "}\n")); }

TEST(GraphWork, AGatherReadsItsRowsOnly) {
  GraphWork w = workOf(
      "  input %x : f16[4096,1024]\n"
      "  %g = Gather(%x) {axis = 0, indices = [3, 7, 3, 9]} : f16[4,1024]\n"
      "  output out0 = %g\n");
  EXPECT_EQ(w.readBytes, 3 * 1024 * 2);  // rows 3, 7 and 9, row 3 once
  EXPECT_EQ(w.writeBytes, 4 * 1024 * 2);
  EXPECT_EQ(w.macs, 0u);
}

TEST(GraphWork, AnInputAnyConsumerReadsWholeIsReadWhole) {
  GraphWork w = workOf(
      "  input %x : f32[64,128]\n"
      "  %g = Gather(%x) {axis = 0, indices = [1]} : f32[1,128]\n"
      "  %e = Exp(%x) : f32[64,128]\n"
      "  output out0 = %g\n"
      "  output out1 = %e\n");
  EXPECT_EQ(w.readBytes, 64 * 128 * 4);
  EXPECT_EQ(w.writeBytes, (128 + 64 * 128) * 4);
}

TEST(GraphWork, ContractionsCountTheirMacsWithoutPadding) {
  EXPECT_EQ(workOf("  input %a : f16[100,30]\n  input %b : f16[30,50]\n"
                   "  %c = MatMul(%a, %b) : f16[100,50]\n  output out0 = %c\n")
                .macs,
            100u * 50 * 30);
  EXPECT_EQ(workOf("  input %a : f16[8,4]\n  input %b : f16[4,6]\n"
                   "  %c = Einsum(%a, %b) {equation = \"ij,jk->ik\"} : f16[8,6]\n  output out0 = %c\n")
                .macs,
            8u * 4 * 6);
  // NHWC: each of 8x56x56x64 outputs sums 3x3x64 products
  EXPECT_EQ(workOf("  input %x : f16[8,56,56,64]\n  input %w : f16[3,3,64,64]\n"
                   "  %y = Conv2D(%x, %w) {strides = [1, 1], pads = [1, 1, 1, 1], dilations = [1, 1], groups = 1, "
                   "layout = \"NHWC\"} : f16[8,56,56,64]\n  output out0 = %y\n")
                .macs,
            8u * 56 * 56 * 64 * 3 * 3 * 64);
}

}  // namespace
