// The fourth calibration state (spec/SPEC.md section 6): a claim conformer
// run under the claims that allow its behaviour passes; the same behaviour
// under claims that forbid it is a FALSE_ALARM of the class; and every
// claim value a profile accepts needs reference-cpu or a conformer to make it.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "kcs/host/adapter_search.hpp"
#include "kcs/suites/calibration.hpp"
#include "probes.hpp"

namespace kcs::suites {
namespace {

namespace fs = std::filesystem;

const spec::Catalog& catalog() {
    static const spec::LoadResult loaded = spec::load_catalog(fs::path(KCS_SOURCE_DIR) / "spec" / "v1");
    return loaded.catalog;
}

harness::Claims claims_file(const fs::path& file) {
    auto loaded = harness::load_claims(file, catalog());
    if (!loaded.diagnostics.empty()) throw std::runtime_error("claims do not load: " + file.string());
    return loaded.claims;
}

const fs::path kConformers = fs::path(KCS_SOURCE_DIR) / "vendors" / "calibration" / "conformers";
const fs::path kReferenceClaims = fs::path(KCS_SOURCE_DIR) / "vendors" / "reference-cpu" / "claims.yaml";

ClaimConformer conformer(const std::string& name, const harness::Claims& claims, const std::string& op) {
    harness::PlanRequest request;
    request.catalog = &catalog();
    request.profile = catalog().find_profile("core");
    request.depth = catalog().find_depth("smoke");
    request.claims = claims;
    request.operators = {op};
    return {name, claims, harness::make_plan(request)};
}

std::vector<ClassCalibration> run(const std::vector<ClaimConformer>& conformers, const std::string& class_id) {
    const std::vector<harness::Instance> no_plan;
    const harness::Claims reference = claims_file(kReferenceClaims);
    CalibrationRequest request;
    request.catalog = &catalog();
    request.plan = &no_plan;  // the three states have nothing to run: only the conformers
    request.claims = &reference;
    request.conforming_adapter = host::resolve_adapter("reference-cpu");
    request.calibration_adapter = host::resolve_adapter("calibration");
    request.only_class = class_id;
    request.find_probe = [](const std::string& k, const std::string& op) { return find_probe(k, op); };
    request.conformers = &conformers;
    return calibrate(request);
}

// A conformer runs where its claims make it differ from reference-cpu: the
// operators its differing claims state, every operator for one that names none.
TEST(ClaimConformers, RunOverTheOperatorsTheirClaimsState) {
    const harness::Claims reference = claims_file(kReferenceClaims);
    EXPECT_EQ(stated_operators(catalog(), claims_file(kConformers / "clamp.yaml"), reference),
              std::vector<std::string>{"gather"});
    EXPECT_EQ(stated_operators(catalog(), claims_file(kConformers / "masked-zero.yaml"), reference),
              (std::vector<std::string>{"softmax", "attention"}));
    EXPECT_TRUE(stated_operators(catalog(), claims_file(kConformers / "ftz.yaml"), reference).empty());
    EXPECT_TRUE(stated_operators(catalog(), reference, reference).empty());  // nothing differs: no restriction
}

TEST(ClaimConformers, FlushingUnderSubnormalsFlushPasses) {
    const auto classes =
        run({conformer("ftz", claims_file(kConformers / "ftz.yaml"), "elementwise")}, "C-CMP-02");
    ASSERT_EQ(classes.size(), 1u);
    ASSERT_FALSE(classes[0].rows.empty());
    for (const auto& row : classes[0].rows) {
        EXPECT_TRUE(row.sound) << row.instance_id << ": " << row.observed;
        EXPECT_EQ(row.state(), "SOUND");
        EXPECT_TRUE(row.conformer);
    }
    EXPECT_TRUE(classes[0].sound());
}

// The same kernel under reference-cpu's claims (subnormals: preserve): the
// flush is a false claim, which C-CMP-02 catches; as a conformer's row that
// is a FALSE_ALARM, and the class is not sound.
TEST(ClaimConformers, ABehaviourItsClaimsForbidIsAFalseAlarm) {
    const auto classes = run({conformer("ftz", claims_file(kReferenceClaims), "elementwise")}, "C-CMP-02");
    ASSERT_EQ(classes.size(), 1u);
    std::size_t alarms = 0;
    for (const auto& row : classes[0].rows) {
        if (row.sound) continue;
        ++alarms;
        EXPECT_EQ(row.state(), "FALSE_ALARM");
        EXPECT_EQ(row.implementation, "conforming=ftz");
        EXPECT_TRUE(row.observed.starts_with("FAIL C-CMP-02")) << row.observed;
    }
    EXPECT_GT(alarms, 0u);
    EXPECT_FALSE(classes[0].sound());
}

TEST(ClaimConformers, EveryAcceptedClaimValueNeedsAConformer) {
    const harness::Claims reference = claims_file(kReferenceClaims);
    std::vector<ClaimConformer> all;
    for (const auto& entry : fs::directory_iterator(kConformers))
        all.push_back({entry.path().stem().string(), claims_file(entry.path()), {}});
    EXPECT_TRUE(claim_values_without_conformer(catalog(), reference, all).empty());
    std::erase_if(all, [](const ClaimConformer& c) { return c.name == "zero"; });
    const auto missing = claim_values_without_conformer(catalog(), reference, all);
    EXPECT_EQ(missing, (std::vector<std::string>{"oob_policy: zero (profile core)", "oob_policy: zero (profile strict)"}));
}

}  // namespace
}  // namespace kcs::suites
