// precision probes: tests written with the probes.
//
// The tolerance models on constructed values, then every probe of the
// family on the real catalog at depth smoke: reference-cpu must PASS every
// configuration, and each calibrated violator must FAIL with its class and
// signature (spec/v1/classes/<id>.yaml, calibration.violating).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "../exactness/exactness_common.hpp"
#include "../tolerance/exact_when_representable.hpp"
#include "../tolerance/dot_bound.hpp"
#include "../tolerance/order_bound.hpp"
#include "../tolerance/stability_bound.hpp"
#include "probe_test_support.hpp"

namespace kcs::suites::testing {
namespace {

// ---------------------------------------------------------------------------
// Tolerance models

TEST(PrecisionModels, ExactSumMinusOneIsExact) {
    // 1 - 2^-24 and 2^-24 sum to exactly 1; in f64 the 2^-60 terms would vanish.
    const std::vector<double> row{1.0 - 0x1p-24, 0x1p-24, 0x1p-60, -0x1p-60};
    EXPECT_EQ(tolerance::exact_sum_minus_one(row), 0.0);
    const std::vector<double> tiny{0.5, 0.5, 0x1p-149};  // f32's smallest subnormal survives
    EXPECT_EQ(tolerance::exact_sum_minus_one(tiny), 0x1p-149);
    const std::vector<double> short_row{0.25, 0.25};
    EXPECT_EQ(tolerance::exact_sum_minus_one(short_row), -0.5);
}

TEST(PrecisionModels, SignificantBitsCountFromLeadingToLastSetBit) {
    EXPECT_EQ(tolerance::significant_bits(0.0), 0);
    EXPECT_EQ(tolerance::significant_bits(1.0), 1);
    EXPECT_EQ(tolerance::significant_bits(-0x1p100), 1);
    EXPECT_EQ(tolerance::significant_bits(1.0 + 0x1p-20), 21);
    EXPECT_EQ(tolerance::significant_bits(3.0), 2);
    EXPECT_EQ(tolerance::significant_bits(0x1.fffffep+0), 24);
}

TEST(PrecisionModels, EffectivePrecisionIsOneBelowTheFewestInexactBits) {
    tolerance::EffectivePrecision p(24);
    EXPECT_EQ(p.value(), 24);
    p.inexact(24);
    EXPECT_EQ(p.value(), 23);
    p.inexact(12);  // 1 + 2^-11 came back as 1: 11 bits survive (TF32)
    EXPECT_EQ(p.value(), 11);
    p.inexact(20);
    EXPECT_EQ(p.value(), 11);
}

TEST(PrecisionModels, OrderBoundJudgesErrorsAndDiameter) {
    const tolerance::OrderBound model{2.0, 2.0};
    const std::vector<double> exact{10.0}, magnitude{0.0};  // B = u(out) |y*| = 10 * 2^-8
    const double B = 10.0 * 0x1p-8;
    // Two orders within B of y* but 1.5 B apart: both checks hold.
    auto r = model.check({{10.0 + 0.75 * B}, {10.0 - 0.75 * B}}, exact, magnitude, 256, 0x1p-24, 0x1p-8, {0x1p-126, false});
    EXPECT_TRUE(r.errors_pass());
    EXPECT_TRUE(r.diameters_pass());
    EXPECT_DOUBLE_EQ(r.worst_diameter_ratio, 1.5);
    // 2.5 B apart: the diameter exceeds 2 B, and one error exceeds B.
    r = model.check({{10.0 + 1.25 * B}, {10.0 - 1.25 * B}}, exact, magnitude, 256, 0x1p-24, 0x1p-8, {0x1p-126, false});
    EXPECT_FALSE(r.diameters_pass());
    EXPECT_EQ(r.errors_over_bound, 2u);
    EXPECT_EQ(r.lowest_order, 1u);
    EXPECT_EQ(r.highest_order, 0u);
    // A NaN in one order: unbounded.
    r = model.check({{10.0}, {NAN}}, exact, magnitude, 256, 0x1p-24, 0x1p-8, {0x1p-126, false});
    EXPECT_FALSE(r.diameters_pass());
    EXPECT_TRUE(std::isinf(r.worst_diameter_ratio));
}

// Below the output's normal range the output term is half the subnormal
// spacing; under subnormals: flush a result there may be a zero instead,
// which the term then covers (output_underflow.hpp), and only there.
TEST(PrecisionModels, UnderFlushAResultBelowTheNormalRangeMayBeZero) {
    const double tiny = 0x1p-14, u = 0x1p-11;  // f16
    const tolerance::OutputUnderflow gradual{tiny, false}, flush{tiny, true};
    EXPECT_DOUBLE_EQ(gradual.term(u, 1.0, 0.0), u);
    EXPECT_DOUBLE_EQ(gradual.term(u, 0x1p-16, 0.0), u * tiny);
    EXPECT_DOUBLE_EQ(flush.term(u, 0x1p-16, 0.0), u * tiny + tiny);
    EXPECT_DOUBLE_EQ(flush.term(u, 1.0, 0.0), u) << "a normal result never flushes";
    // Just above tiny, but within the accumulator side of it: the kernel's value may lie below.
    EXPECT_DOUBLE_EQ(flush.term(u, 1.01 * tiny, 0.02 * tiny), u * 1.01 * tiny + tiny);
    EXPECT_DOUBLE_EQ(flush.term(u, 1.01 * tiny, 0.0), u * 1.01 * tiny);
    const tolerance::DotBound model{{1.0, 1000, 6.0, 0.667}};
    EXPECT_GE(model.bound_with_underflow(256, 0x1p-24, u, flush, 0.0, 0x1p-16), 0x1p-16)
        << "a flushed softmax probability of 2^-16 is within the bound under flush";
    EXPECT_LT(model.bound_with_underflow(256, 0x1p-24, u, gradual, 0.0, 0x1p-16), 0x1p-16);
}

TEST(PrecisionModels, StabilityBoundChecksFinitenessElementsAndRowSums) {
    const tolerance::StabilityBound model{5.0, 3.0};
    const std::vector<double> exact{0.25, 0.25, 0.25, 0.25};
    const std::vector<double> magnitude{0.25, 0.25, 0.25, 0.25};
    auto r = model.check(exact, exact, magnitude, 4, 0x1p-24, 0x1p-24, tolerance::RowSums::check);
    EXPECT_TRUE(r.pass());
    const std::vector<double> nan_row{NAN, NAN, NAN, NAN};
    r = model.check(nan_row, exact, magnitude, 4, 0x1p-24, 0x1p-24, tolerance::RowSums::check);
    EXPECT_EQ(r.nonfinite_where_finite, 4u);
    EXPECT_EQ(r.rows_over_sum_bound, 0u);  // a row with no finite sum is (a)'s, not (c)'s
    // Element bound 5 gamma(4, u) 0.25 + u 0.25 (about 5.25u); row-sum bound 3 (gamma(4, u) + u) (about 15u).
    const double u = 0x1p-24;
    const std::vector<double> drift{0.25 + 3 * u, 0.25 + 3 * u, 0.25 + 3 * u, 0.25 + 3 * u};  // S - 1 = 12u
    r = model.check(drift, exact, magnitude, 4, u, u, tolerance::RowSums::check);
    EXPECT_EQ(r.elements_over_bound, 0u);
    EXPECT_EQ(r.rows_over_sum_bound, 0u);
    const std::vector<double> more{0.25 + 4 * u, 0.25 + 4 * u, 0.25 + 4 * u, 0.25 + 4 * u};  // S - 1 = 16u > 15u
    r = model.check(more, exact, magnitude, 4, u, u, tolerance::RowSums::check);
    EXPECT_EQ(r.elements_over_bound, 0u);
    EXPECT_EQ(r.rows_over_sum_bound, 1u);
}

// ---------------------------------------------------------------------------
// Probes on the catalog

std::string instance_id(const std::string& cls, const std::string& op, const std::string& config,
                        const std::string& variant) {
    return "v1/" + cls + "/" + op + "/" + config + "/" + variant;
}

const std::vector<std::string> kAccumulatingConfigs{"f32-f32", "f16-f16", "f16-f32", "bf16-bf16", "bf16-f32"};
const std::vector<std::string> kMatmulConfigs{"f32xf32-f32", "f16xf16-f32", "f16xf16-f16", "bf16xbf16-f32",
                                              "bf16xbf16-bf16"};

void expect_pass(const std::string& id) {
    SCOPED_TRACE(id);
    testing::expect_conforming(run_instance(id, "reference-cpu"));
}

void expect_fail(const std::string& id, const std::string& violation, const std::string& cls,
                 const std::string& signature) {
    SCOPED_TRACE(id + " with " + violation);
    const auto run = run_instance(id, "calibration", violation);
    ASSERT_EQ(run.verdict, harness::Verdict::fail) << describe(run.result);
    for (const auto& c : run.result.cases) {
        EXPECT_EQ(c.result.violated_class, cls) << describe(run.result);
        EXPECT_EQ(c.result.signature, signature) << describe(run.result);
        EXPECT_TRUE(c.result.evidence.worst.has_value());
    }
}

TEST(PrecisionProbes, AccumulatorPreservationPassesReferenceCpu) {
    for (const auto& config : kMatmulConfigs) expect_pass(instance_id("C-PRC-01", "matmul", config, "k-sweep"));
    for (const auto& config : kAccumulatingConfigs) {
        expect_pass(instance_id("C-PRC-01", "reduce_sum", config, "k-sweep"));
        expect_pass(instance_id("C-PRC-01", "softmax", config, "k-sweep"));
    }
}

// Each C-PRC-01 reduce_sum instance draws about 1.4 million normal(0,1)
// values per seed at smoke (334 rows of K = 4096 for the statistics): the
// violators are shown on one reduce_sum configuration.
TEST(PrecisionProbes, AccumulatorPreservationCatchesF16Accumulation) {
    for (const auto& config : {"f32xf32-f32", "f16xf16-f16", "bf16xbf16-bf16"})
        expect_fail(instance_id("C-PRC-01", "matmul", config, "k-sweep"), "f16-accumulate", "C-PRC-01",
                    "narrow-accumulator");
    expect_fail(instance_id("C-PRC-01", "reduce_sum", "f32-f32", "k-sweep"), "f16-accumulate", "C-PRC-01",
                "narrow-accumulator");
}

// Diagnosis: a failing matmul names the accumulator's effective precision,
// read off the widest result (f16 running sum: 11 bits; bf16: 8), where the
// output dtype could hold more; a conforming run names none.
TEST(PrecisionProbes, AccumulatorPreservationNamesTheEffectivePrecision) {
    const std::string id = instance_id("C-PRC-01", "matmul", "f32xf32-f32", "k-sweep");
    for (const auto& [violation, bits] : {std::pair{"f16-accumulate", 11}, std::pair{"bf16-accumulate", 8}}) {
        const auto run = run_instance(id, "calibration", violation);
        ASSERT_EQ(run.verdict, harness::Verdict::fail) << describe(run.result);
        for (const auto& c : run.result.cases) {
            EXPECT_EQ(c.result.evidence.details.value("effective_accumulator_bits", 0), bits) << violation;
            EXPECT_NE(c.result.message.find("behaves like one of " + std::to_string(bits) + " significand bits"),
                      std::string::npos)
                << c.result.message;
        }
    }
    const auto conforming = run_instance(id, "reference-cpu");
    ASSERT_EQ(conforming.verdict, harness::Verdict::pass) << describe(conforming.result);
    for (const auto& c : conforming.result.cases) {
        EXPECT_FALSE(c.result.evidence.details.contains("effective_accumulator_bits"));
        for (const auto& point : c.result.evidence.details.at("sweep"))
            EXPECT_EQ(point.at("widest_result_bits").get<int>(), 24) << "f32 results use every bit";
    }
}

// The catalog calibrates bf16-accumulate on reduce_sum as stalled-sum-of-ones.
// At smoke it already fails at K = 64, where no sum of ones can stall (256
// is bf16's limit), and the probe names a sweep by its smallest failing K:
// narrow-accumulator, with the stall at 256 recorded for K = 4096. (f16
// accumulation shows the same two symptoms, its stall at 2048.)
TEST(PrecisionProbes, AccumulatorPreservationRecordsTheSumOfOnes) {
    // bf16-accumulate adds 64-term f32 tiles to a bf16 running sum: it fails
    // the bound from K = 64 on, while its sums of ones stay exact up to
    // 16384 (each tile adds 64, a multiple of the spacing): the evidence
    // records them, unstalled.
    const auto run =
        run_instance(instance_id("C-PRC-01", "reduce_sum", "f32-f32", "k-sweep"), "calibration", "bf16-accumulate");
    ASSERT_EQ(run.verdict, harness::Verdict::fail) << describe(run.result);
    for (const auto& c : run.result.cases) {
        EXPECT_EQ(c.result.violated_class, "C-PRC-01");
        EXPECT_EQ(c.result.signature, "narrow-accumulator") << describe(run.result);
        const auto& sweep = c.result.evidence.details.at("sweep");
        ASSERT_EQ(sweep.size(), 2u);
        for (const auto& point : sweep) {
            EXPECT_FALSE(point.at("sum_of_ones_stalled").get<bool>());
            EXPECT_EQ(point.at("sum_of_ones").get<double>(), point.at("K").get<double>());
        }
    }
}

TEST(PrecisionProbes, CancellationOverflowSafetyPassesReferenceCpu) {
    for (const auto& config : kAccumulatingConfigs)
        expect_pass(instance_id("C-PRC-02", "softmax", config, "row-lengths-sweep"));
}

TEST(PrecisionProbes, CancellationOverflowSafetyCatchesNaiveSoftmax) {
    for (const auto& config : kAccumulatingConfigs)
        expect_fail(instance_id("C-PRC-02", "softmax", config, "row-lengths-sweep"), "naive-softmax", "C-PRC-02",
                    "nonfinite-where-finite");
}

TEST(PrecisionProbes, DeclaredComputePrecisionPassesReferenceCpu) {
    for (const auto& config : kMatmulConfigs) expect_pass(instance_id("C-PRC-03", "matmul", config, "shapes-sweep"));
}

// The identity probes run at every shape [M, K, N] of the catalog's sweep,
// X * I and I * X at each (I rectangular where K differs from N or M).
TEST(PrecisionProbes, DeclaredComputePrecisionRunsTheIdentityAtEveryShape) {
    const auto run =
        run_instance(instance_id("C-PRC-03", "matmul", "f16xf16-f32", "shapes-sweep"), "reference-cpu", "", "quick");
    ASSERT_EQ(run.verdict, harness::Verdict::pass) << describe(run.result);
    const auto shapes = run.result.instance->parameters.at("shapes").get<std::vector<std::vector<std::int64_t>>>();
    ASSERT_GE(shapes.size(), 5u);
    const spec::Json& probes = run.result.cases.front().result.evidence.details.at("probes");
    for (const auto& s : shapes)
        for (const std::string side : {"X * I ", "I * X "}) {
            const std::string name = side + suites::exactness::shape_text(s);
            const auto found = std::find_if(probes.begin(), probes.end(),
                                            [&](const spec::Json& p) { return p.at("probe") == name; });
            ASSERT_NE(found, probes.end()) << name << " in " << probes.dump();
            EXPECT_EQ(found->at("elements"), s[0] * s[2]) << name;
        }
}

// Both coercions touch f32 inputs only (f16 and bf16 inputs already fit), so
// only the f32 configuration can fail.
TEST(PrecisionProbes, DeclaredComputePrecisionCatchesCoercions) {
    const std::string id = instance_id("C-PRC-03", "matmul", "f32xf32-f32", "shapes-sweep");
    expect_fail(id, "tf32-inputs", "C-PRC-03", "reduced-input-mantissa");
    expect_fail(id, "f16-coercion", "C-PRC-03", "range-coercion");
    const auto tf32 = run_instance(id, "calibration", "tf32-inputs");
    for (const auto& c : tf32.result.cases) EXPECT_EQ(c.result.evidence.figure, 11.0);  // p_eff: 10 stored bits + 1
}

TEST(PrecisionProbes, BoundedPathDependencePassesReferenceCpu) {
    for (const auto& config : kMatmulConfigs) expect_pass(testing::instance_id("C-ORD-01", "matmul", config));
    for (const auto& config : kAccumulatingConfigs) {
        expect_pass(testing::instance_id("C-ORD-01", "reduce_sum", config));
        expect_pass(testing::instance_id("C-ORD-01", "softmax", config));
    }
}

// The sweep runs every catalog shape ([M, K, N] for matmul, [rows, K] for
// reduce_sum, [S, T, D] for attention), names each in the evidence, and
// judges every output of each base problem at each: normal, the +-L pair
// (not for attention) and one large entry.
TEST(PrecisionProbes, BoundedPathDependenceRunsEveryShapeOfTheSweep) {
    struct Case {
        std::string op, config;
        std::size_t problems;
    };
    for (const Case& t : {Case{"matmul", "f32xf32-f32", 3}, Case{"reduce_sum", "f32-f32", 3},
                          Case{"attention", "f32xf32xf32-f32", 2}}) {
        const auto run = run_instance(testing::instance_id("C-ORD-01", t.op, t.config), "reference-cpu");
        ASSERT_EQ(run.verdict, harness::Verdict::pass) << describe(run.result);
        const auto shapes =
            run.result.instance->parameters.at("shapes").get<std::vector<std::vector<std::int64_t>>>();
        ASSERT_GE(shapes.size(), 2u) << t.op;
        std::uint64_t outputs = 0;
        for (const auto& s : shapes) outputs += static_cast<std::uint64_t>(t.op == "reduce_sum" ? s[0] : s[0] * s[2]);
        for (const auto& c : run.result.cases) {
            const spec::Json& sweep = c.result.evidence.details.at("sweep");
            ASSERT_EQ(sweep.size(), shapes.size()) << sweep.dump();
            for (std::size_t i = 0; i < shapes.size(); ++i) {
                EXPECT_EQ(sweep[i].at("K"), shapes[i][1]) << sweep[i].dump();
                EXPECT_EQ(sweep[i].at("shape"), exactness::shape_text(shapes[i])) << sweep[i].dump();
                EXPECT_EQ(sweep[i].at("problems").size(), t.problems) << sweep[i].dump();
            }
            EXPECT_EQ(c.result.evidence.judged.count, t.problems * outputs) << t.op;
        }
    }
}

// The violator stores its partial sums in the output dtype: a no-op for f32
// outputs, so only the f16- and bf16-output configurations can fail.
TEST(PrecisionProbes, BoundedPathDependenceCatchesLowPrecisionPartials) {
    for (const auto& config : {"f16-f16", "bf16-bf16"})
        expect_fail(testing::instance_id("C-ORD-01", "reduce_sum", config), "lowprec-split-partials", "C-ORD-01",
                    "diameter-exceeded");
    for (const auto& config : {"f16xf16-f16", "bf16xbf16-bf16"})
        expect_fail(testing::instance_id("C-ORD-01", "matmul", config), "lowprec-split-partials", "C-ORD-01",
                    "diameter-exceeded");
}

// TF32 inputs make every order equally wrong, the identity among them, with
// the diameter within its bound: the error does not depend on the order, so
// order-error-exceeded's condition does not hold (it was chosen before);
// the FAIL is unmatched with its figures and assumes C-PRC-01.
TEST(PrecisionProbes, AnErrorEveryOrderMakesIsNotOrderErrorExceeded) {
    const auto run = run_instance(testing::instance_id("C-ORD-01", "matmul", "f32xf32-f32"), "calibration",
                                  "tf32-inputs");
    ASSERT_EQ(run.verdict, harness::Verdict::fail) << describe(run.result);
    for (const auto& c : run.result.cases) {
        EXPECT_EQ(c.result.signature, "unmatched") << describe(run.result);
        EXPECT_EQ(c.result.assumes, std::vector<std::string>{"C-PRC-01"}) << describe(run.result);
        const spec::Json& figures = c.result.evidence.details.at("signature_figures");
        EXPECT_EQ(figures.at("orders_within_bound"), 0) << figures.dump();
        EXPECT_GE(figures.at("orders").get<int>(), 2) << figures.dump();
    }
}

}  // namespace
}  // namespace kcs::suites::testing
