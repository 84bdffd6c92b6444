// The batch form (vectorised double path, vector_evaluation.hpp) against the
// tests' own 200-bit MPFR reference on every input of one full f32 binade
// per function (2^23 arguments each), with exact equality. The binade of
// each function is one where its result varies over a whole binade or more
// and every element goes through the evaluation: the inputs a sweep spends
// its time on.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <iostream>
#include <thread>
#include <vector>

#include "kcs/reference/unary_functions.hpp"
#include "reference_check.hpp"
#include "test_names.hpp"

namespace kcs::ref::testing {
namespace {

struct Binade {
    UnaryFunction function;
    std::uint32_t first;  // encoding of the binade's lowest value; the binade has 2^23 encodings
};

// exp on [2, 4): results 7.4 .. 54.6; log on [1, 2): log near 0 and cancellation
// near 1; tanh and erf on [0.5, 1): the bend; gelu on [-2, -1): the erfc branch;
// sigmoid on [1, 2); rsqrt on [1, 2).
// The first three run in every test pass (about 35 s of MPFR on 2 cores);
// the others take 30 to 150 s each and run with
// --gtest_also_run_disabled_tests --gtest_filter='*FullBinade*'.
const Binade kBinades[] = {
    {UnaryFunction::exp, 0x40000000u},
    {UnaryFunction::tanh, 0x3F000000u},
    {UnaryFunction::rsqrt, 0x3F800000u},
};
const Binade kSlowBinades[] = {
    {UnaryFunction::log, 0x3F800000u},
    {UnaryFunction::erf, 0x3F000000u},
    {UnaryFunction::gelu, 0xBF800000u},
    {UnaryFunction::sigmoid, 0x3F800000u},
};

class FullBinade : public ::testing::TestWithParam<Binade> {};

TEST_P(FullBinade, BatchEqualsMpfrOnEveryInput) {
    const UnaryFunction function = GetParam().function;  // a plain variable: the lambdas below capture it
    const std::uint32_t first = GetParam().first;
    constexpr std::uint32_t kCount = 1u << 23;
    std::vector<std::uint32_t> x(kCount), y(kCount);
    for (std::uint32_t i = 0; i < kCount; ++i) x[i] = first + i;
    const UnaryBatchStats stats = correctly_rounded_batch(function, Format::f32, x, y);

    // The MPFR reference is slow (microseconds per argument): every core.
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::atomic<std::size_t> mismatches{0};
    std::vector<std::string> first_mismatch(threads);
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (std::size_t i = t; i < kCount; i += threads)
                if (const auto why = mismatch(function, Format::f32, x[i], y[i]))
                    if (mismatches++ == 0 || first_mismatch[t].empty()) first_mismatch[t] = *why;
            release_thread_caches();
        });
    for (auto& t : pool) t.join();
    for (const auto& why : first_mismatch)
        if (!why.empty()) ADD_FAILURE() << why;
    EXPECT_EQ(mismatches.load(), 0u);
    EXPECT_EQ(stats.total(), kCount);
    std::cout << "[ fallback ] " << case_name(function, Format::f32) << " binade " << std::hex << first << std::dec
              << ": " << stats.double_bound << " by the double path, " << stats.mpfr << " by MPFR, "
              << stats.special << " special\n";
    // Nearly every argument of these binades is decided by the double path.
    EXPECT_LT(stats.mpfr * 1000, stats.total());
}

std::string binade_name(const ::testing::TestParamInfo<Binade>& info) {
    return std::string(unary_function_name(info.param.function));
}

INSTANTIATE_TEST_SUITE_P(OnePerFunction, FullBinade, ::testing::ValuesIn(kBinades), binade_name);
INSTANTIATE_TEST_SUITE_P(DISABLED_Slow, FullBinade, ::testing::ValuesIn(kSlowBinades), binade_name);

}  // namespace
}  // namespace kcs::ref::testing
