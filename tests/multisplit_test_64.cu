// The multisplit sweep over the 64-bit key types; the sweep is split four ways to compile in parallel.
#include "multisplit_typed_tests.cuh"

// The list needs its own name: its commas would split the macro's arguments.
using key_types = ::testing::Types<std::int64_t, std::uint64_t, double>;
INSTANTIATE_TYPED_TEST_SUITE_P(word64, multisplit_test, key_types);
