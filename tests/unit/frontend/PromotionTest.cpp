// NumPy 2 promotion: the promote_types table for every supported pair and weak Python scalars.
#include <gtest/gtest.h>

#include "registry/Promotion.h"

using namespace pyasc;
using namespace pyasc::registry;

TEST(Promotion, TableMatchesNumPy) {
  // Rows and columns: b8 s8 u8 s16 s32 s64 f16 f32 f64, as np.promote_types prints them.
  const char* expected[kDTypeCount][kDTypeCount] = {
      {"bool", "int8", "uint8", "int16", "int32", "int64", "float16", "float32", "float64"},
      {"int8", "int8", "int16", "int16", "int32", "int64", "float16", "float32", "float64"},
      {"uint8", "int16", "uint8", "int16", "int32", "int64", "float16", "float32", "float64"},
      {"int16", "int16", "int16", "int16", "int32", "int64", "float32", "float32", "float64"},
      {"int32", "int32", "int32", "int32", "int32", "int64", "float64", "float64", "float64"},
      {"int64", "int64", "int64", "int64", "int64", "int64", "float64", "float64", "float64"},
      {"float16", "float16", "float16", "float32", "float64", "float64", "float16", "float32", "float64"},
      {"float32", "float32", "float32", "float32", "float64", "float64", "float32", "float32", "float64"},
      {"float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64", "float64"},
  };
  for (int a = 0; a < kDTypeCount; ++a) {
    for (int b = 0; b < kDTypeCount; ++b) {
      EXPECT_STREQ(dtypeName(promoteTypes(static_cast<DType>(a), static_cast<DType>(b))), expected[a][b])
          << dtypeName(static_cast<DType>(a)) << " + " << dtypeName(static_cast<DType>(b));
    }
  }
}

TEST(Promotion, WeakScalarsKeepTheArrayKind) {
  EXPECT_EQ(promoteWithScalar(DType::Float16, ScalarKind::Int), DType::Float16);
  EXPECT_EQ(promoteWithScalar(DType::Float16, ScalarKind::Float), DType::Float16);
  EXPECT_EQ(promoteWithScalar(DType::Int8, ScalarKind::Int), DType::Int8);
  EXPECT_EQ(promoteWithScalar(DType::Int32, ScalarKind::Float), DType::Float64);
  EXPECT_EQ(promoteWithScalar(DType::Bool, ScalarKind::Int), DType::Int64);
  EXPECT_EQ(promoteWithScalar(DType::Bool, ScalarKind::Bool), DType::Bool);
  EXPECT_EQ(promoteWithScalar(DType::UInt8, ScalarKind::Bool), DType::UInt8);
}

TEST(Promotion, FloatLoopsAndAccumulators) {
  EXPECT_EQ(floatLoopDType(DType::Bool), DType::Float16);
  EXPECT_EQ(floatLoopDType(DType::UInt8), DType::Float16);
  EXPECT_EQ(floatLoopDType(DType::Int16), DType::Float32);
  EXPECT_EQ(floatLoopDType(DType::Int32), DType::Float64);
  EXPECT_EQ(floatLoopDType(DType::Float16), DType::Float16);
  EXPECT_EQ(sumDType(DType::Int8), DType::Int64);
  EXPECT_EQ(sumDType(DType::Bool), DType::Int64);
  EXPECT_EQ(sumDType(DType::Float16), DType::Float16);
  EXPECT_EQ(scalarDefaultDType(ScalarKind::Float), DType::Float64);
}
