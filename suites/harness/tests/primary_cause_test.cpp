// The primary-cause rule (SPEC.md section 5) on the real v1 plan: a FAIL
// whose failing comparisons assumed another class is that class's
// consequence only where that class FAILs on the same operator and
// configuration, or on its full-width sibling; otherwise it stays primary.
#include "kcs/harness/primary_cause.hpp"

#include <algorithm>

#include <gtest/gtest.h>

namespace kcs::harness {
namespace {

namespace fs = std::filesystem;

const spec::Catalog& catalog() {
    static const spec::LoadResult loaded = spec::load_catalog(fs::path(KCS_SOURCE_DIR) / "spec" / "v1");
    return loaded.catalog;
}

const std::vector<Instance>& plan() {
    static const std::vector<Instance> p = [] {
        static const ClaimsResult claims =
            load_claims(fs::path(KCS_SOURCE_DIR) / "vendors" / "reference-cpu" / "claims.yaml", catalog());
        PlanRequest request;
        request.catalog = &catalog();
        request.profile = catalog().find_profile("core");
        request.depth = catalog().find_depth("quick");
        request.claims = claims.claims;
        return make_plan(request);
    }();
    return p;
}

// The plan's instance of `class_id` on `op` (with `function`, for a family)
// and `config`.
std::size_t index_of(const std::string& class_id, const std::string& op, const std::optional<std::string>& function,
                     const std::string& config) {
    const auto& p = plan();
    const auto it = std::find_if(p.begin(), p.end(), [&](const Instance& i) {
        return i.contract->id == class_id && i.op->id == op && i.function == function && i.config.id() == config;
    });
    if (it == p.end()) throw std::logic_error("no " + class_id + " " + op + " " + config + " in the plan");
    return static_cast<std::size_t>(it - p.begin());
}

std::size_t index_of(const std::string& class_id, const std::string& function, const std::string& config) {
    return index_of(class_id, "unary", function, config);
}

struct Recorded {
    std::vector<std::optional<InstanceResult>> results = std::vector<std::optional<InstanceResult>>(plan().size());

    void set(std::size_t i, Verdict verdict, std::vector<std::string> assumes = {}) {
        CaseRecord record;
        record.result.verdict = verdict;
        record.result.assumes = std::move(assumes);
        results[i] = InstanceResult{&plan()[i], verdict, {record}};
    }
};

const std::vector<std::string> kAccuracy{"C-CMP-01"};

TEST(PrimaryCause, AStoreFailThatAssumedAccuracyIsAConsequenceOfTheFullWidthAccuracyFail) {
    Recorded run;
    const std::size_t store = index_of("C-PRC-04", "log", "bf16-bf16");
    const std::size_t accuracy = index_of("C-CMP-01", "log", "f32-f32");
    run.set(store, Verdict::fail, kAccuracy);
    run.set(accuracy, Verdict::fail);
    const auto causes = primary_causes(plan(), run.results);
    ASSERT_TRUE(causes[store].has_value());
    EXPECT_EQ(causes[store]->cause, plan()[accuracy].id);
    EXPECT_NE(causes[store]->reason.find("full-width configuration f32-f32"), std::string::npos);
    EXPECT_FALSE(causes[accuracy].has_value()) << "the cause itself is primary";
}

TEST(PrimaryCause, AnotherNarrowConfigurationIsNoSibling) {
    Recorded run;
    const std::size_t store = index_of("C-PRC-04", "log", "bf16-bf16");
    run.set(store, Verdict::fail, kAccuracy);
    run.set(index_of("C-CMP-01", "log", "f16-f16"), Verdict::fail);
    EXPECT_FALSE(primary_causes(plan(), run.results)[store].has_value());
}

TEST(PrimaryCause, AMatmulStoreFailFollowsItsSameInputsWideOutputSibling) {
    Recorded run;
    const auto& p = plan();
    const std::size_t store = index_of("C-PRC-04", "matmul", std::nullopt, "f16xf16-f16");
    const std::size_t accumulator = index_of("C-PRC-01", "matmul", std::nullopt, "f16xf16-f32");
    run.set(store, Verdict::fail, {"C-PRC-01"});
    run.set(accumulator, Verdict::fail);
    const auto causes = primary_causes(p, run.results);
    ASSERT_TRUE(causes[store].has_value());
    EXPECT_EQ(causes[store]->cause, p[accumulator].id);
}

TEST(PrimaryCause, TheSameConfigurationComesBeforeTheFullWidthOne) {
    Recorded run;
    const std::size_t store = index_of("C-PRC-04", "log", "bf16-bf16");
    const std::size_t narrow = index_of("C-CMP-01", "log", "bf16-bf16");
    run.set(store, Verdict::fail, kAccuracy);
    run.set(narrow, Verdict::fail);
    run.set(index_of("C-CMP-01", "log", "f32-f32"), Verdict::fail);
    const auto causes = primary_causes(plan(), run.results);
    ASSERT_TRUE(causes[store].has_value());
    EXPECT_EQ(causes[store]->cause, plan()[narrow].id);
}

TEST(PrimaryCause, AFailStaysPrimaryWhenWhatItAssumedHolds) {
    Recorded run;
    const std::size_t store = index_of("C-PRC-04", "log", "bf16-bf16");
    run.set(store, Verdict::fail, kAccuracy);
    run.set(index_of("C-CMP-01", "log", "f32-f32"), Verdict::pass);
    run.set(index_of("C-CMP-01", "exp", "f32-f32"), Verdict::fail);  // another function explains nothing
    EXPECT_FALSE(primary_causes(plan(), run.results)[store].has_value());
}

TEST(PrimaryCause, AFailThatAssumedNothingStaysPrimaryBesideAnotherFail) {
    Recorded run;
    const std::size_t store = index_of("C-PRC-04", "log", "bf16-bf16");
    run.set(store, Verdict::fail);  // e.g. a truncated exact value: it stands on its own
    run.set(index_of("C-CMP-01", "log", "f32-f32"), Verdict::fail);
    EXPECT_FALSE(primary_causes(plan(), run.results)[store].has_value());
}

TEST(PrimaryCause, OnlyTheAssumedClassesExplain) {
    Recorded run;
    const std::size_t store = index_of("C-PRC-04", "log", "bf16-bf16");
    run.set(store, Verdict::fail, {"C-PRC-01"});  // C-CMP-01's FAIL is not what it assumed
    run.set(index_of("C-CMP-01", "log", "f32-f32"), Verdict::fail);
    EXPECT_FALSE(primary_causes(plan(), run.results)[store].has_value());
}

TEST(PrimaryCause, OneCaseThatStandsOnItsOwnMakesTheInstancePrimary) {
    Recorded run;
    const std::size_t store = index_of("C-PRC-04", "log", "bf16-bf16");
    run.set(store, Verdict::fail, kAccuracy);
    CaseRecord standalone;
    standalone.seed = 2;
    standalone.result.verdict = Verdict::fail;
    run.results[store]->cases.push_back(standalone);
    run.set(index_of("C-CMP-01", "log", "f32-f32"), Verdict::fail);
    EXPECT_FALSE(primary_causes(plan(), run.results)[store].has_value());
}

TEST(PrimaryCause, TwoFailsThatAssumeEachOtherStayPrimary) {
    Recorded run;
    const std::size_t store = index_of("C-PRC-04", "log", "bf16-bf16");
    const std::size_t accuracy = index_of("C-CMP-01", "log", "bf16-bf16");
    run.set(store, Verdict::fail, kAccuracy);
    run.set(accuracy, Verdict::fail, {"C-PRC-04"});
    const auto causes = primary_causes(plan(), run.results);
    EXPECT_FALSE(causes[store].has_value());
    EXPECT_FALSE(causes[accuracy].has_value());
}

TEST(PrimaryCause, OnlyFailsAreConsequences) {
    Recorded run;
    const std::size_t store = index_of("C-PRC-04", "log", "bf16-bf16");
    run.set(store, Verdict::error, kAccuracy);
    run.set(index_of("C-CMP-01", "log", "f32-f32"), Verdict::fail);
    EXPECT_FALSE(primary_causes(plan(), run.results)[store].has_value());
}

}  // namespace
}  // namespace kcs::harness
