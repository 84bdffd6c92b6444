// The real catalog v1: complete, consistent, every reference resolving.
#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "catalog_copy.hpp"
#include "kcs/spec/tolerance_models.hpp"

namespace kcs::spec {
namespace {

class CatalogV1 : public ::testing::Test {
protected:
    static void SetUpTestSuite() { result_ = new LoadResult(load_catalog(testing::source_catalog())); }
    static void TearDownTestSuite() { delete result_; }
    static const Catalog& cat() { return result_->catalog; }
    static LoadResult* result_;
};
LoadResult* CatalogV1::result_ = nullptr;

TEST_F(CatalogV1, LoadsWithoutProblems) {
    EXPECT_TRUE(result_->ok()) << testing::dump(*result_);
    EXPECT_EQ(result_->diagnostics.exit_code(), 0);
    EXPECT_EQ(cat().spec_version, "1.1.0");
    EXPECT_EQ(cat().generator.name, "philox4x32-10");
}

// C-ORD-03 states its power: a change of 1 element in 20000 seen with
// probability 0.99 needs 92102 independent comparisons, and no fewer.
TEST_F(CatalogV1, BatchInvarianceStatesThePowerAPassNeeds) {
    const auto power = required_power(cat().find_class("C-ORD-03")->tolerance);
    ASSERT_TRUE(power.has_value());
    EXPECT_DOUBLE_EQ(power->detectable_rate, 5e-5);
    EXPECT_DOUBLE_EQ(power->detection_probability, 0.99);
    EXPECT_EQ(power->elements, 92102u);
    EXPECT_GE(detection_probability(5e-5, 92102), 0.99);
    EXPECT_LT(detection_probability(5e-5, 92101), 0.99);
    EXPECT_FALSE(required_power(cat().find_class("C-PRC-01")->tolerance).has_value());  // states none
}

TEST_F(CatalogV1, HasTheTwelveClassesInTheirFamilies) {
    const std::set<std::string> expected{"C-PRC-01", "C-PRC-02", "C-PRC-03", "C-PRC-04", "C-ORD-01", "C-ORD-02",
                                         "C-ORD-03", "C-CMP-01", "C-CMP-02", "C-CMP-03", "C-EXC-01", "C-EXC-02"};
    std::set<std::string> ids;
    std::map<std::string, int> per_family;
    for (const auto& k : cat().classes) {
        ids.insert(k.id);
        ++per_family[k.family];
    }
    EXPECT_EQ(ids, expected);
    EXPECT_EQ(per_family["precision"], 4);
    EXPECT_EQ(per_family["ordering"], 3);
    EXPECT_EQ(per_family["compiler"], 3);
    EXPECT_EQ(per_family["exceptional"], 2);
}

TEST_F(CatalogV1, EveryClassStatesAllEightParts) {
    for (const auto& k : cat().classes) {
        SCOPED_TRACE(k.id);
        EXPECT_FALSE(k.id.empty() || k.title.empty() || k.family.empty() || k.primitive.empty());  // identifier
        EXPECT_FALSE(k.scope_operators.empty() || k.scope_text.empty());                          // scope
        EXPECT_FALSE(k.precondition.empty());
        EXPECT_FALSE(k.postcondition.empty());
        EXPECT_FALSE(k.tolerance.model.empty() || k.tolerance.derivation.empty());
        EXPECT_FALSE(k.reference_oracle.empty());
        EXPECT_FALSE(k.measurement_protocol.empty());
        EXPECT_FALSE(k.violation_signature.empty());
    }
}

// Signatures chosen by their evidence (SPEC.md section 5): every signature
// of every class states the evidence that selects it.
TEST_F(CatalogV1, EverySignatureStatesTheEvidenceThatSelectsIt) {
    for (const auto& k : cat().classes)
        for (const auto& s : k.violation_signature) EXPECT_FALSE(s.selected_when.empty()) << k.id << " " << s.id;
}

TEST_F(CatalogV1, EveryClassHasAThreeStateCalibration) {
    for (const auto& k : cat().classes) {
        SCOPED_TRACE(k.id);
        EXPECT_FALSE(k.calibration.conforming.empty());
        ASSERT_FALSE(k.calibration.violating.empty());
        EXPECT_NE(cat().find_functional_test(k.calibration.functional_test), nullptr);
        for (const auto& v : k.calibration.violating) {
            const auto* impl = cat().find_implementation(v.implementation);
            ASSERT_NE(impl, nullptr) << v.implementation;
            EXPECT_EQ(impl->kind, "violating");
            EXPECT_NE(k.signature(v.signature), nullptr) << v.signature;
            for (const auto& op : v.operators)
                EXPECT_NE(std::find(k.scope_operators.begin(), k.scope_operators.end(), op), k.scope_operators.end());
        }
    }
}

TEST_F(CatalogV1, ClassScopesAndOperatorContractsAgree) {
    EXPECT_EQ(cat().operators.size(), 11u);
    for (const auto& k : cat().classes) {
        for (const auto& op_id : k.scope_operators) {
            const Operator* op = cat().find_operator(op_id);
            ASSERT_NE(op, nullptr) << k.id << " -> " << op_id;
            EXPECT_TRUE(op->contracts.contains(k.id)) << op_id << " lacks " << k.id;
        }
    }
    for (const auto& op : cat().operators) {
        for (const auto& [class_id, params] : op.contracts) {
            const ContractClass* k = cat().find_class(class_id);
            ASSERT_NE(k, nullptr) << op.id << " -> " << class_id;
            for (const auto& p : k->parameters) {
                if (!p.required) continue;
                ASSERT_TRUE(params.contains(p.name)) << op.id << "/" << class_id << " lacks " << p.name;
                EXPECT_EQ(params.at(p.name).size(), cat().depths.size()) << "one value per depth";
            }
        }
    }
}

TEST_F(CatalogV1, ProfilesAndIncidentsResolve) {
    ASSERT_NE(cat().find_profile("core"), nullptr);
    ASSERT_NE(cat().find_profile("strict"), nullptr);
    for (const auto& p : cat().profiles) {
        EXPECT_EQ(p.classes.size(), 12u) << p.id << " judges every class";
        for (const auto& [id, requirement] : p.classes) EXPECT_NE(cat().find_class(id), nullptr) << id;
    }
    EXPECT_EQ(cat().find_profile("strict")->claims.at("deterministic"), std::vector<std::string>{"true"});
    EXPECT_EQ(cat().incidents.size(), 3u);
    for (const auto& i : cat().incidents) {
        const ContractClass* k = cat().find_class(i.class_id);
        ASSERT_NE(k, nullptr) << i.id;
        EXPECT_NE(k->signature(i.signature), nullptr) << i.id;
    }
}

TEST_F(CatalogV1, DepthsAreSmokeQuickFullAndOnlyFullIsCertifiable) {
    ASSERT_EQ(cat().depths.size(), 3u);
    EXPECT_FALSE(cat().find_depth("smoke")->certifiable);
    EXPECT_FALSE(cat().find_depth("quick")->certifiable);
    EXPECT_TRUE(cat().find_depth("full")->certifiable);
    for (const auto& d : cat().depths) EXPECT_GE(d.seeds, 2) << d.id;
}

TEST_F(CatalogV1, ConfigIdsJoinInputsAndOutput) {
    const Operator* matmul = cat().find_operator("matmul");
    ASSERT_NE(matmul, nullptr);
    std::vector<std::string> ids;
    for (const auto& c : matmul->configs) ids.push_back(c.id());
    EXPECT_NE(std::find(ids.begin(), ids.end(), "f16xf16-f32"), ids.end());
}

}  // namespace
}  // namespace kcs::spec
