// pointwise probes: tests written with the probes.
//
// Every instance of C-EXC-01, C-CMP-02 and C-CMP-03 for unary, elementwise
// and cast at depth smoke: PASS on reference-cpu; FAIL with the catalog's
// signature on the calibration violators that reach them (nan-dropping-max
// on maximum, ftz-daz everywhere, contracted-mul-add on mul_add), PASS where
// a violator does not reach the function; and the same violators judged
// under the claim they would keep (fp_contract: on, subnormals: flush).
#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "../tolerance/subnormal_policy.hpp"
#include "probe_test_support.hpp"

namespace kcs::suites {
namespace {

using ref::Format;

// ---------------------------------------------------------------- subnormal_policy with an infinite y_flush

TEST(SubnormalPolicy, ClassifiesFunctionProbesWhoseFlushedValueIsInfinite) {
    // rsqrt of the smallest f32 subnormal: 2^74.5 honoured, +inf read as +0.
    const double y_pres = 0x1.6a09e6p74;
    EXPECT_EQ(classify_kind(Format::f32, 0x64B504F3, y_pres, HUGE_VAL), SubnormalOutcome::pres);
    EXPECT_EQ(classify_kind(Format::f32, 0x7F800000, y_pres, HUGE_VAL), SubnormalOutcome::flush);
    EXPECT_EQ(classify_kind(Format::f32, 0x00000000, y_pres, HUGE_VAL), SubnormalOutcome::neither);
    EXPECT_EQ(classify_kind(Format::f32, 0xFF800000, y_pres, HUGE_VAL), SubnormalOutcome::neither);
    // log of an f16 subnormal: about -16.6 honoured, -inf read as +0.
    EXPECT_EQ(classify_kind(Format::f16, 0xCC26, -16.6, -HUGE_VAL), SubnormalOutcome::pres);
    EXPECT_EQ(classify_kind(Format::f16, 0xFC00, -16.6, -HUGE_VAL), SubnormalOutcome::flush);
    // A zero y_flush keeps the three-argument meaning: a zero of either sign is flush.
    EXPECT_EQ(classify_kind(Format::bf16, 0x8000, 0x1p-130, 0.0), SubnormalOutcome::flush);
}

// ---------------------------------------------------------------- instances

const std::vector<std::string> kUnary{"exp", "log", "tanh", "erf", "gelu", "sigmoid", "rsqrt"};
const std::vector<std::string> kElementwise{"add", "mul", "maximum", "mul_add"};
const std::vector<std::string> kUnaryConfigs{"f32-f32", "f16-f16", "bf16-bf16"};
const std::vector<std::string> kElementwiseConfigs{"f32xf32xf32-f32", "f16xf16xf16-f16", "bf16xbf16xbf16-bf16"};
const std::vector<std::string> kCastConfigs{"f32-f16", "f32-bf16", "f16-f32", "bf16-f32"};

std::string id(const std::string& class_id, const std::string& op, const std::string& config) {
    return testing::instance_id(class_id, op, config);
}

// Every instance of `class_id` on the operators it has pointwise probes for.
std::vector<std::string> instances_of(const std::string& class_id) {
    std::vector<std::string> ids;
    for (const auto& f : kUnary)
        for (const auto& c : kUnaryConfigs) ids.push_back(id(class_id, "unary." + f, c));
    for (const auto& f : kElementwise)
        for (const auto& c : kElementwiseConfigs) ids.push_back(id(class_id, "elementwise." + f, c));
    if (class_id != "C-CMP-03")  // cast has no arithmetic to contract
        for (const auto& c : kCastConfigs) ids.push_back(id(class_id, "cast", c));
    return ids;
}

std::vector<std::string> family_instances() {
    std::vector<std::string> ids;
    for (const std::string class_id : {"C-EXC-01", "C-CMP-02", "C-CMP-03"})
        for (auto& i : instances_of(class_id)) ids.push_back(std::move(i));
    return ids;
}

std::string test_name(const std::string& instance) {
    std::string name = instance.substr(3);  // drop "v1/"
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

class PointwiseOnReferenceCpu : public ::testing::TestWithParam<std::string> {};

TEST_P(PointwiseOnReferenceCpu, Passes) {
    const auto run = testing::run_instance(GetParam(), "reference-cpu");
    EXPECT_EQ(run.verdict, harness::Verdict::pass) << testing::describe(run.result);
}

INSTANTIATE_TEST_SUITE_P(Pointwise, PointwiseOnReferenceCpu, ::testing::ValuesIn(family_instances()),
                         [](const auto& info) { return test_name(info.param); });

// ---------------------------------------------------------------- violators and claims

struct ViolatorCase {
    std::string instance;
    std::string adapter;    // reference-cpu or calibration
    std::string violation;  // the calibration adapter's
    std::map<std::string, std::string> claims;  // put over the adapter's claims
    std::string signature;  // empty: PASS
};

void PrintTo(const ViolatorCase& c, std::ostream* os) { *os << c.instance << " on " << c.adapter << " " << c.violation; }

class PointwiseViolator : public ::testing::TestWithParam<ViolatorCase> {};

// Under strict, or under core where the case declares a claim (flush,
// contraction): strict refuses those and judges as preserve and off.
TEST_P(PointwiseViolator, GivesItsVerdict) {
    const auto& c = GetParam();
    const auto run = testing::run_instance(c.instance, c.adapter, c.violation, "smoke",
                                           c.claims.empty() ? "strict" : "core", c.claims);
    if (c.signature.empty()) {
        EXPECT_EQ(run.verdict, harness::Verdict::pass) << testing::describe(run.result);
        return;
    }
    ASSERT_EQ(run.verdict, harness::Verdict::fail) << testing::describe(run.result);
    const std::string class_id = c.instance.substr(3, 8);
    for (const auto& record : run.result.cases) {
        EXPECT_EQ(record.result.violated_class, class_id) << testing::describe(run.result);
        EXPECT_EQ(record.result.signature, c.signature) << testing::describe(run.result);
    }
}

std::string violator_name(const ::testing::TestParamInfo<ViolatorCase>& info) {
    std::string name = (info.param.violation.empty() ? info.param.adapter : info.param.violation) + "_";
    for (const auto& [claim, value] : info.param.claims) name.append(claim).append("_").append(value).append("_");
    name.append(info.param.instance.substr(3));
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

// C-EXC-01: nan-dropping-max returns the other operand of a NaN in maximum
// (C fmax); the other functions do not meet it.
std::vector<ViolatorCase> nan_dropping_max_cases() {
    std::vector<ViolatorCase> cases;
    for (const auto& c : kElementwiseConfigs) {
        cases.push_back(
            {id("C-EXC-01", "elementwise.maximum", c), "calibration", "nan-dropping-max", {}, "nan-dropped"});
        cases.push_back({id("C-EXC-01", "elementwise.add", c), "calibration", "nan-dropping-max", {}, ""});
    }
    return cases;
}
INSTANTIATE_TEST_SUITE_P(NanDroppingMax, PointwiseViolator, ::testing::ValuesIn(nan_dropping_max_cases()),
                         violator_name);

// C-CMP-02: ftz-daz flushes every load and store. Where an instance has
// output-side probes (or only two-sided ones) the signature is ftz; log and
// rsqrt have input-side probes only (no argument gives a subnormal result),
// erf input-side and two-sided ones (erf of the largest subnormal is
// normal), as has cast f16 -> f32 input-side ones: only daz shows there. Under subnormals: flush
// it is all flush, and reference-cpu, which honours subnormals, is the one
// that breaks the claim (mixed-flush).
std::vector<ViolatorCase> ftz_daz_cases() {
    std::vector<ViolatorCase> cases;
    for (const auto& c : kElementwiseConfigs)
        for (const auto& f : kElementwise) {
            cases.push_back({id("C-CMP-02", "elementwise." + f, c), "calibration", "ftz-daz", {}, "ftz"});
            cases.push_back({id("C-CMP-02", "elementwise." + f, c), "calibration", "ftz-daz",
                             {{"subnormals", "flush"}}, ""});
        }
    for (const auto& c : kUnaryConfigs)
        for (const auto& f : kUnary) {
            const bool no_output_side = f == "log" || f == "rsqrt" || f == "erf";
            cases.push_back(
                {id("C-CMP-02", "unary." + f, c), "calibration", "ftz-daz", {}, no_output_side ? "daz" : "ftz"});
            cases.push_back(
                {id("C-CMP-02", "unary." + f, c), "calibration", "ftz-daz", {{"subnormals", "flush"}}, ""});
        }
    for (const auto& c : kCastConfigs)
        cases.push_back({id("C-CMP-02", "cast", c), "calibration", "ftz-daz", {}, c == "f16-f32" ? "daz" : "ftz"});
    for (const auto& instance : {id("C-CMP-02", "elementwise.mul_add", "f32xf32xf32-f32"),
                                 id("C-CMP-02", "unary.exp", "f16-f16"), id("C-CMP-02", "unary.rsqrt", "bf16-bf16"),
                                 id("C-CMP-02", "cast", "f32-f16")})
        cases.push_back({instance, "reference-cpu", "", {{"subnormals", "flush"}}, "mixed-flush"});
    return cases;
}
INSTANTIATE_TEST_SUITE_P(FtzDaz, PointwiseViolator, ::testing::ValuesIn(ftz_daz_cases()), violator_name);

// C-CMP-03: contracted-mul-add fuses mul_add. Under fp_contract: off the
// contraction probes give the fused value; under on that value is allowed.
std::vector<ViolatorCase> contracted_mul_add_cases() {
    std::vector<ViolatorCase> cases;
    for (const auto& c : kElementwiseConfigs) {
        cases.push_back({id("C-CMP-03", "elementwise.mul_add", c), "calibration", "contracted-mul-add", {},
                         "fused-where-unfused-declared"});
        cases.push_back({id("C-CMP-03", "elementwise.mul_add", c), "calibration", "contracted-mul-add",
                         {{"fp_contract", "on"}}, ""});
        cases.push_back({id("C-CMP-03", "elementwise.add", c), "calibration", "contracted-mul-add", {}, ""});
    }
    return cases;
}
INSTANTIATE_TEST_SUITE_P(ContractedMulAdd, PointwiseViolator, ::testing::ValuesIn(contracted_mul_add_cases()),
                         violator_name);

}  // namespace
}  // namespace kcs::suites
