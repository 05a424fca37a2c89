// NumPy's legacy np.random.RandomState streams (MT19937), bit-exact: seed, rand, randn, randint.
#pragma once

#include <array>
#include <cstdint>

namespace pyasc {

// One legacy RandomState. `LegacyRandom r(s)` matches `np.random.seed(s)` (s in [0, 2**32)),
// and each draw matches the NumPy call named beside it, value for value, in any interleaving.
class LegacyRandom {
 public:
  explicit LegacyRandom(uint32_t seed) { reseed(seed); }

  // np.random.seed(seed): MT19937 init_genrand (NumPy's mt19937_seed), clears the cached normal.
  void reseed(uint32_t seed);

  uint32_t nextUInt32();
  // np.random.rand / random_sample: (a >> 5) * 2^26 + (b >> 6), divided by 2^53.
  double randomSample();
  // np.random.uniform(low, high)
  double uniform(double low, double high) { return low + (high - low) * randomSample(); }
  // np.random.randn / standard_normal: legacy polar Box–Muller; every other call returns the
  // second value of the previous pair.
  double standardNormal();
  // np.random.normal(loc, scale)
  double normal(double loc, double scale) { return loc + scale * standardNormal(); }
  // np.random.randint(low, high) with dtype int32 or int64 (the default int): masked rejection
  // sampling on 32-bit draws when high - 1 - low fits in 32 bits, on 64-bit draws otherwise.
  // Requires low < high. (int8/int16/bool dtypes share 32-bit draws between values; not modelled.)
  int64_t randint(int64_t low, int64_t high);

 private:
  void refill();

  std::array<uint32_t, 624> state_{};
  int position_ = 624;
  bool hasGauss_ = false;
  double gauss_ = 0.0;
};

}  // namespace pyasc
