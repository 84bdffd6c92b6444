// f32, per function: the special values, the hard cases at the edges of
// each function's range and 10^5 sampled arguments, against the tests' own
// 200-bit MPFR reference, with exact equality (0 ulp).
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <vector>

#include "f32_test_inputs.hpp"
#include "kcs/reference/unary_functions.hpp"
#include "reference_check.hpp"
#include "test_names.hpp"

namespace kcs::ref::testing {
namespace {

// Checks every argument, reports the first mismatches, returns the stats.
UnaryBatchStats check_all(UnaryFunction function, const std::vector<std::uint32_t>& x) {
    std::vector<std::uint32_t> y(x.size());
    const UnaryBatchStats stats = correctly_rounded_batch(function, Format::f32, x, y);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        if (const auto why = mismatch(function, Format::f32, x[i], y[i])) {
            if (++mismatches <= 10) ADD_FAILURE() << *why;
        }
    }
    EXPECT_EQ(mismatches, 0u);
    return stats;
}

class SampledF32 : public ::testing::TestWithParam<UnaryFunction> {};

TEST_P(SampledF32, SpecialValuesAreCorrectlyRounded) {
    check_all(GetParam(), f32_special_inputs());
}

TEST_P(SampledF32, HardCasesAreCorrectlyRounded) {
    const UnaryFunction function = GetParam();
    const std::vector<std::uint32_t> x = f32_hard_inputs(function);
    const UnaryBatchStats stats = check_all(function, x);
    std::cout << "[ fallback ] " << case_name(function, Format::f32) << " hard cases: " << stats.mpfr
              << " of " << stats.total() << " by MPFR\n";
}

TEST_P(SampledF32, SampledArgumentsAreCorrectlyRounded) {
    const UnaryFunction function = GetParam();
    const std::vector<std::uint32_t> x = f32_sampled_inputs(function);
    ASSERT_GE(x.size(), 100000u);
    const UnaryBatchStats stats = check_all(function, x);
    std::cout << "[ fallback ] " << case_name(function, Format::f32) << " samples: " << stats.mpfr
              << " of " << stats.total() << " by MPFR (" << percent(stats.mpfr, stats.total())
              << " %)\n";
    RecordProperty("mpfr_fallbacks", static_cast<int>(stats.mpfr));
    // The double path's margin makes the fallback rare (about 2^-15 of
    // arguments); far more would mean a broken margin or double path.
    EXPECT_LT(stats.mpfr * 1000, stats.total());
}

INSTANTIATE_TEST_SUITE_P(AllFunctions, SampledF32, ::testing::ValuesIn(kUnaryFunctions),
                         [](const auto& info) { return std::string(unary_function_name(info.param)); });

}  // namespace
}  // namespace kcs::ref::testing
