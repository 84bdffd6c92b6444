// attention probes: tests written with the probes (suites/attention/attention_*.cpp).
//
// Every attention instance of its classes on the real catalog at depth
// smoke: reference-cpu must PASS every configuration; each calibration
// violator that reaches attention's kernel (reference/kernels/src/attention.cpp)
// must FAIL with its class's signature, though the catalog calibrates most of
// them on other operators.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "probe_test_support.hpp"

namespace kcs::suites::testing {
namespace {

const std::vector<std::string> kConfigs{"f32xf32xf32-f32", "f16xf16xf16-f16", "f16xf16xf16-f32",
                                        "bf16xbf16xbf16-bf16", "bf16xbf16xbf16-f32"};

// The attention instance of `cls` (the variant the plan gives the class).
std::string instance_id(const std::string& cls, const std::string& config) {
    return testing::instance_id(cls, "attention", config);
}

void expect_pass(const std::string& id) {
    SCOPED_TRACE(id);
    testing::expect_conforming(run_instance(id, "reference-cpu"));
}

void expect_fail(const std::string& id, const std::string& violation, const std::string& signature) {
    SCOPED_TRACE(id + " with " + violation);
    const auto run = run_instance(id, "calibration", violation);
    ASSERT_EQ(run.verdict, harness::Verdict::fail) << describe(run.result);
    for (const auto& c : run.result.cases) {
        EXPECT_EQ(c.result.violated_class, id.substr(3, 8)) << describe(run.result);
        EXPECT_EQ(c.result.signature, signature) << describe(run.result);
        EXPECT_TRUE(c.result.evidence.worst.has_value());
    }
}

TEST(AttentionProbes, AccumulatorPreservationPassesReferenceCpu) {
    for (const auto& config : kConfigs) expect_pass(instance_id("C-PRC-01", config));
}

// f16-accumulate reaches attention's denominator and P.V sums; where the
// output is wider than the accumulator its error cannot hide in the store.
TEST(AttentionProbes, AccumulatorPreservationCatchesF16Accumulation) {
    for (const auto& config : {"f32xf32xf32-f32", "bf16xbf16xbf16-f32"})
        expect_fail(instance_id("C-PRC-01", config), "f16-accumulate", "narrow-accumulator");
}

// Every key length runs at every head dimension of the catalog's head_dims,
// each with the fewest queries S whose S D outputs per data set (three
// sets) reach min_outputs: the sweep records them and counts them all.
TEST(AttentionProbes, AccumulatorPreservationRunsEveryHeadDimension) {
    const auto run = run_instance(instance_id("C-PRC-01", "f32xf32xf32-f32"), "reference-cpu", "", "quick");
    ASSERT_EQ(run.verdict, harness::Verdict::pass) << describe(run.result);
    const auto head_dims = run.result.instance->parameters.at("head_dims").get<std::vector<std::int64_t>>();
    ASSERT_GE(head_dims.size(), 3u);
    const auto min_outputs = run.result.instance->contract->tolerance.params.at("min_outputs").get<std::int64_t>();
    std::int64_t per_t = 0;
    for (const std::int64_t D : head_dims) per_t += 3 * (((min_outputs + 2) / 3 + D - 1) / D) * D;
    for (const auto& c : run.result.cases) {
        EXPECT_EQ(c.result.evidence.details.at("head_dims"), spec::Json(head_dims));
        for (const auto& t : c.result.evidence.details.at("sweep")) EXPECT_EQ(t.at("outputs"), per_t) << t.dump();
    }
}

TEST(AttentionProbes, CancellationOverflowSafetyPassesReferenceCpu) {
    for (const auto& config : kConfigs) expect_pass(instance_id("C-PRC-02", config));
}

// naive-softmax exponentiates attention's scores without the row maximum:
// scores past 88.72 give inf / inf.
TEST(AttentionProbes, CancellationOverflowSafetyCatchesNaiveSoftmax) {
    for (const auto& config : kConfigs)
        expect_fail(instance_id("C-PRC-02", config), "naive-softmax", "nonfinite-where-finite");
}

TEST(AttentionProbes, DeclaredComputePrecisionPassesReferenceCpu) {
    for (const auto& config : kConfigs) expect_pass(instance_id("C-PRC-03", config));
}

// tf32-inputs and f16-coercion narrow every f32 operand of attention's
// products (reference/kernels/src/reduction_operands.hpp), V's included.
TEST(AttentionProbes, DeclaredComputePrecisionCatchesCoercions) {
    const std::string id = instance_id("C-PRC-03", "f32xf32xf32-f32");
    expect_fail(id, "tf32-inputs", "reduced-input-mantissa");
    expect_fail(id, "f16-coercion", "range-coercion");
    const auto tf32 = run_instance(id, "calibration", "tf32-inputs");
    for (const auto& c : tf32.result.cases) EXPECT_EQ(c.result.evidence.figure, 11.0);  // p_eff: 10 stored bits + 1
}

TEST(AttentionProbes, ExpAccuracyPassesReferenceCpu) {
    for (const auto& config : kConfigs) expect_pass(instance_id("C-CMP-01", config));
}

TEST(AttentionProbes, SpecialValuesPassReferenceCpu) {
    for (const auto& config : kConfigs) expect_pass(instance_id("C-EXC-01", config));
}

// reference-cpu's fully masked rows are NaN: held to a claim of zero, the
// probe must see them as masked-leak.
TEST(AttentionProbes, SpecialValuesHoldFullyMaskedRowsToTheClaim) {
    const std::string id = instance_id("C-EXC-01", "f32xf32xf32-f32");
    const auto run = run_instance(id, "reference-cpu", "", "smoke", "strict", {{"masked_row", "zero"}});
    ASSERT_EQ(run.verdict, harness::Verdict::fail) << describe(run.result);
    for (const auto& c : run.result.cases) EXPECT_EQ(c.result.signature, "masked-leak") << describe(run.result);
}

TEST(AttentionProbes, BoundedPathDependencePassesReferenceCpu) {
    for (const auto& config : kConfigs) expect_pass(instance_id("C-ORD-01", config));
}

TEST(AttentionProbes, SubnormalHandlingPassesReferenceCpu) {
    for (const char* profile : {"core", "strict"})
        for (const auto& config : kConfigs) {
            const std::string id = instance_id("C-CMP-02", config);
            SCOPED_TRACE(id + " under " + profile);
            const auto run = run_instance(id, "reference-cpu", "", "smoke", profile);
            EXPECT_EQ(run.verdict, harness::Verdict::pass) << describe(run.result);
        }
}

// ftz-daz flushes attention's loads and stores (reference/kernels
// element_access); every configuration has output-side probes (exp of the
// scores below the output's smallest normal), so the signature is ftz.
TEST(AttentionProbes, SubnormalHandlingCatchesFlushToZero) {
    for (const auto& config : kConfigs) expect_fail(instance_id("C-CMP-02", config), "ftz-daz", "ftz");
}

// Under subnormals: flush (allowed by core) every distinguishing element
// must be flushed: ftz-daz keeps the claim on all of them, in every batch,
// and reference-cpu, which honours subnormals, breaks it (mixed-flush).
TEST(AttentionProbes, SubnormalHandlingHoldsTheFlushClaim) {
    for (const auto& config : kConfigs) {
        const std::string id = instance_id("C-CMP-02", config);
        SCOPED_TRACE(id);
        const auto flushing = run_instance(id, "calibration", "ftz-daz", "smoke", "core", {{"subnormals", "flush"}});
        EXPECT_EQ(flushing.verdict, harness::Verdict::pass) << describe(flushing.result);
        for (const auto& c : flushing.result.cases) EXPECT_GT(c.result.evidence.details.at("distinguishing"), 0);
        const auto honouring = run_instance(id, "reference-cpu", "", "smoke", "core", {{"subnormals", "flush"}});
        ASSERT_EQ(honouring.verdict, harness::Verdict::fail) << describe(honouring.result);
        for (const auto& c : honouring.result.cases) EXPECT_EQ(c.result.signature, "mixed-flush");
    }
}

// Check (b) judges the f16 and bf16 stores; f32 outputs have no narrowing
// store and pass with nothing checked.
TEST(AttentionProbes, ConversionRoundingPassesReferenceCpu) {
    for (const char* profile : {"core", "strict"})
        for (const auto& config : kConfigs) {
            const std::string id = instance_id("C-PRC-04", config);
            SCOPED_TRACE(id + " under " + profile);
            const auto run = run_instance(id, "reference-cpu", "", "smoke", profile);
            testing::expect_conforming(run);
            const bool narrowing = config.ends_with("-f16") || config.ends_with("-bf16");
            EXPECT_EQ(run.result.instance->applicable, narrowing) << "an f32 output has no narrowing store";
            for (const auto& c : run.result.cases) {
                const auto& details = c.result.evidence.details;
                // Most outputs qualify: E is far below the output spacing.
                EXPECT_GT(details.at("qualifying_outputs").get<double>(),
                          0.5 * details.at("sampled_outputs").get<double>());
                EXPECT_EQ(details.at("checked"), details.at("qualifying_outputs"));
            }
        }
}

// bf16-truncate drops the low bits of every bf16 store (reference/kernels
// element_access), attention's included.
TEST(AttentionProbes, ConversionRoundingCatchesTruncation) {
    expect_fail(instance_id("C-PRC-04", "bf16xbf16xbf16-bf16"), "bf16-truncate", "truncation");
}

}  // namespace
}  // namespace kcs::suites::testing
