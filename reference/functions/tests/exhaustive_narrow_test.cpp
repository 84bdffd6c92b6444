// Every f16 and bf16 argument (all 65536 encodings) of every function,
// against the tests' own 200-bit MPFR reference: the library must return the
// correctly rounded encoding exactly (0 ulp), NaN where unary.yaml says NaN.
#include <gtest/gtest.h>

#include <cstdint>
#include <iostream>
#include <tuple>
#include <vector>

#include "kcs/reference/unary_functions.hpp"
#include "reference_check.hpp"
#include "test_names.hpp"

namespace kcs::ref::testing {
namespace {

class ExhaustiveNarrow : public ::testing::TestWithParam<std::tuple<UnaryFunction, Format>> {};

TEST_P(ExhaustiveNarrow, EveryEncodingIsCorrectlyRounded) {
    const auto [function, format] = GetParam();
    std::vector<std::uint16_t> x(65536), y(65536);
    for (std::uint32_t bits = 0; bits < 65536; ++bits) x[bits] = static_cast<std::uint16_t>(bits);

    const UnaryBatchStats stats = correctly_rounded_batch(function, format, x, y);
    ASSERT_EQ(stats.total(), x.size());

    std::size_t mismatches = 0;
    for (std::uint32_t bits = 0; bits < 65536; ++bits) {
        if (const auto why = mismatch(function, format, bits, y[bits])) {
            if (++mismatches <= 10) ADD_FAILURE() << *why;
        }
    }
    EXPECT_EQ(mismatches, 0u);

    std::cout << "[ fallback ] " << case_name(function, format) << ": " << stats.mpfr << " of "
              << stats.total() << " inputs by MPFR (" << percent(stats.mpfr, stats.total())
              << " %), " << stats.special << " special\n";
    RecordProperty("mpfr_fallbacks", static_cast<int>(stats.mpfr));
    EXPECT_LT(stats.mpfr * 1000, stats.total());  // the fallback stays rare
}

INSTANTIATE_TEST_SUITE_P(
    AllFunctions, ExhaustiveNarrow,
    ::testing::Combine(::testing::ValuesIn(kUnaryFunctions),
                       ::testing::Values(Format::f16, Format::bf16)),
    [](const auto& info) { return case_name(std::get<0>(info.param), std::get<1>(info.param)); });

}  // namespace
}  // namespace kcs::ref::testing
