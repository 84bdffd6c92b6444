// Plans of the real v1 catalog: instance ids as SPEC.md writes them,
// applicability from profile and claims, parameters from the depth, the
// order and the digest. Expected counts come from the catalog itself.
#include "kcs/harness/plan.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include <gtest/gtest.h>

namespace kcs::harness {
namespace {

namespace fs = std::filesystem;

const spec::LoadResult& v1() {
    static const spec::LoadResult loaded = spec::load_catalog(fs::path(KCS_SOURCE_DIR) / "spec" / "v1");
    return loaded;
}
const spec::Catalog& catalog() { return v1().catalog; }

const Claims& reference_cpu_claims() {
    static const ClaimsResult loaded =
        load_claims(fs::path(KCS_SOURCE_DIR) / "vendors" / "reference-cpu" / "claims.yaml", catalog());
    return loaded.claims;
}

std::vector<Instance> plan_of(const std::string& profile, const std::string& depth, const Claims& claims,
                              std::vector<std::string> operators = {}, const spec::Catalog& cat = catalog()) {
    PlanRequest request;
    request.catalog = &cat;
    request.profile = cat.find_profile(profile);
    request.depth = cat.find_depth(depth);
    request.claims = claims;
    request.operators = std::move(operators);
    return make_plan(request);
}

const Instance* find(const std::vector<Instance>& plan, const std::string& id) {
    const auto it = std::find_if(plan.begin(), plan.end(), [&](const Instance& i) { return i.id == id; });
    return it == plan.end() ? nullptr : &*it;
}

// The configurations a class's scope excludes by their dtypes: C-PRC-04
// where nothing is narrowed (an f32 output of an operator other than cast),
// C-CMP-03 on a norm whose f16 or bf16 output hides the f32 intermediate;
// and C-CMP-03 on the norms without deterministic: true, which its
// precondition needs.
bool excluded_by_config(const Instance& i, const Claims& claims) {
    const std::string& k = i.contract->id;
    const std::string& op = i.op->id;
    if (k == "C-PRC-04") return op != "cast" && i.config.output == "f32";
    const bool norm = op == "layernorm" || op == "rmsnorm";
    if (k == "C-CMP-03") return norm && (i.config.output != "f32" || !claims.is_true("deterministic"));
    return false;
}

class Plan : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(v1().ok());
        ASSERT_EQ(catalog().spec_version.substr(0, 2), "1.");
    }
};

TEST_F(Plan, InstanceIdsAreWrittenAsTheSpecWritesThem) {
    const auto plan = plan_of("core", "quick", reference_cpu_claims());
    const Instance* prc = find(plan, "v1/C-PRC-01/matmul/f16xf16-f32/k-sweep");
    ASSERT_NE(prc, nullptr);
    EXPECT_EQ(prc->contract->id, "C-PRC-01");
    EXPECT_EQ(prc->op->id, "matmul");
    EXPECT_EQ(prc->config.id(), "f16xf16-f32");
    EXPECT_FALSE(prc->function.has_value());
    EXPECT_EQ(prc->variant, "k-sweep");

    const Instance* exp = find(plan, "v1/C-CMP-01/unary.exp/f32-f32/shapes-sweep");
    ASSERT_NE(exp, nullptr);
    EXPECT_EQ(exp->function, "exp");
    EXPECT_EQ(exp->variant, "shapes-sweep");
}

TEST_F(Plan, EveryIdIsUniqueAndNamesItsParts) {
    const auto plan = plan_of("core", "full", default_claims(catalog()));
    const std::regex shape(R"(v1/C-(PRC|ORD|CMP|EXC)-[0-9]{2}/[a-z_]+(\.[a-z_]+)?/[a-z0-9x]+-[a-z0-9]+/[a-z-]+)");
    std::set<std::string> ids;
    for (const auto& i : plan) {
        EXPECT_TRUE(std::regex_match(i.id, shape)) << i.id;
        EXPECT_TRUE(ids.insert(i.id).second) << "repeated " << i.id;
        const std::string op = i.op->id + (i.function ? "." + *i.function : std::string{});
        EXPECT_EQ(i.id, "v1/" + i.contract->id + "/" + op + "/" + i.config.id() + "/" + i.variant);
    }
}

TEST_F(Plan, TheVariantIsTheFirstListParameterOfTheClass) {
    EXPECT_EQ(variant_of(*catalog().find_class("C-PRC-01")), "k-sweep");
    EXPECT_EQ(variant_of(*catalog().find_class("C-ORD-01")), "shapes-sweep");
    EXPECT_EQ(variant_of(*catalog().find_class("C-ORD-03")), "batch-sizes-sweep");
    EXPECT_EQ(variant_of(*catalog().find_class("C-PRC-02")), "row-lengths-sweep");
    EXPECT_EQ(variant_of(*catalog().find_class("C-EXC-02")), "shapes-sweep");
    EXPECT_EQ(variant_of(*catalog().find_class("C-PRC-03")), "shapes-sweep");  // after M, an int
    spec::ContractClass no_list = *catalog().find_class("C-CMP-01");
    no_list.parameters = {{"samples", "int", false, "no list parameter"}};
    EXPECT_EQ(variant_of(no_list), "default");
    EXPECT_EQ(variant_of(*catalog().find_class("C-CMP-02")), "shapes-sweep");  // matmul's probe shapes
}

TEST_F(Plan, CoreWithDefaultClaimsLeavesDeterminismAndBatchInvarianceNotApplicable) {
    const auto plan = plan_of("core", "quick", default_claims(catalog()));
    std::size_t ord02 = 0, ord03 = 0;
    for (const auto& i : plan) {
        const std::string& k = i.contract->id;
        if (excluded_by_config(i, default_claims(catalog()))) {
            EXPECT_FALSE(i.applicable) << i.id;
        } else if (k == "C-ORD-02" || k == "C-ORD-03") {
            EXPECT_FALSE(i.applicable) << i.id;
            EXPECT_EQ(i.requirement, "if_claimed");
            EXPECT_EQ(i.not_applicable_reason, k == "C-ORD-02" ? "claim deterministic is not declared true"
                                                               : "claim batch_invariant is not declared true");
            (k == "C-ORD-02" ? ord02 : ord03)++;
        } else {
            EXPECT_TRUE(i.applicable) << i.id << ": " << i.not_applicable_reason;
            EXPECT_EQ(i.requirement, "required");
        }
    }
    EXPECT_GT(ord02, 0u);
    EXPECT_GT(ord03, 0u);
}

TEST_F(Plan, CoreWithReferenceCpuClaimsAppliesEveryInstance) {
    for (const auto& i : plan_of("core", "quick", reference_cpu_claims()))
        EXPECT_EQ(i.applicable, !excluded_by_config(i, reference_cpu_claims())) << i.id << ": " << i.not_applicable_reason;
}

// A PASS must judge something (SPEC.md section 5): where a class's protocol
// has nothing to judge in a configuration, the plan says so and why.
TEST_F(Plan, ConfigurationsWithNothingToJudgeAreNotApplicableWithTheReason) {
    const auto plan = plan_of("core", "quick", reference_cpu_claims());
    std::size_t prc04 = 0, cmp03 = 0;
    for (const auto& i : plan) {
        if (!excluded_by_config(i, reference_cpu_claims())) continue;
        EXPECT_FALSE(i.applicable) << i.id;
        if (i.contract->id == "C-PRC-04") {
            ++prc04;
            EXPECT_EQ(i.not_applicable_reason, "output dtype f32 is the computation's: no narrowing store to judge");
        } else {
            ++cmp03;
            EXPECT_EQ(i.not_applicable_reason, "output dtype " + i.config.output +
                                                   " hides the f32 intermediate the contraction probes read");
        }
    }
    EXPECT_EQ(cmp03, 4u);  // layernorm and rmsnorm, each f16 and bf16 outputs
    EXPECT_GT(prc04, 20u);
    const Instance* cast = find(plan, "v1/C-PRC-04/cast/f16-f32/shapes-sweep");
    ASSERT_NE(cast, nullptr);
    EXPECT_TRUE(cast->applicable) << "a widening cast must be exact: C-PRC-04 judges it";
    const Instance* narrow = find(plan, "v1/C-PRC-04/softmax/bf16-bf16/shapes-sweep");
    ASSERT_NE(narrow, nullptr);
    EXPECT_TRUE(narrow->applicable);
}

// The exclusions are the catalog's data (each class's `requires`), not the
// plan's code: with C-PRC-04's requirement gone, its f32-output instances
// apply; with a reason reworded, the plan says the new words.
TEST(PlanRequirements, PreconditionsComeFromTheCatalogsRequires) {
    spec::Catalog edited = catalog();
    for (auto& k : edited.classes) {
        if (k.id == "C-PRC-04") k.requirements.clear();
        if (k.id == "C-CMP-03") k.requirements.at(0).reason = "reworded: a {output} output";
    }
    const auto plan = plan_of("core", "quick", reference_cpu_claims(), {"matmul", "layernorm"}, edited);
    const Instance* f32_store = find(plan, "v1/C-PRC-04/matmul/f32xf32-f32/shapes-sweep");
    ASSERT_NE(f32_store, nullptr);
    EXPECT_TRUE(f32_store->applicable) << f32_store->not_applicable_reason;
    std::size_t reworded = 0;
    for (const auto& i : plan)
        if (i.contract->id == "C-CMP-03" && !i.applicable) {
            EXPECT_EQ(i.not_applicable_reason, "reworded: a " + i.config.output + " output");
            ++reworded;
        }
    EXPECT_EQ(reworded, 2u);  // layernorm's f16 and bf16 outputs
    const auto as_released = plan_of("core", "quick", reference_cpu_claims(), {"matmul"});
    EXPECT_FALSE(find(as_released, "v1/C-PRC-04/matmul/f32xf32-f32/shapes-sweep")->applicable);
}

// C-CMP-03's norm probes compare the normalised rows of two calls: without
// deterministic: true its precondition is not promised.
TEST_F(Plan, NormContractionNeedsADeterminismClaim) {
    const std::string id = "v1/C-CMP-03/layernorm/f32xf32xf32-f32/shapes-sweep";
    const auto defaults = plan_of("core", "quick", default_claims(catalog()));
    const Instance* without = find(defaults, id);
    ASSERT_NE(without, nullptr);
    EXPECT_FALSE(without->applicable);
    EXPECT_EQ(without->not_applicable_reason,
              "claim deterministic is not declared true: the norm probes compare the normalised rows of two calls");
    const auto plan = plan_of("core", "quick", reference_cpu_claims());
    const Instance* with = find(plan, id);
    ASSERT_NE(with, nullptr);
    EXPECT_TRUE(with->applicable) << with->not_applicable_reason;
}

TEST_F(Plan, StrictRequiresDeterminismAndBatchInvarianceWhateverTheClaims) {
    const auto plan = plan_of("strict", "quick", default_claims(catalog()));
    std::size_t ordering = 0;
    for (const auto& i : plan) {
        EXPECT_EQ(i.requirement, "required") << i.id;
        EXPECT_EQ(i.applicable, !excluded_by_config(i, default_claims(catalog()))) << i.id << ": " << i.not_applicable_reason;
        ordering += i.contract->id == "C-ORD-02" || i.contract->id == "C-ORD-03";
    }
    EXPECT_GT(ordering, 0u);
}

TEST_F(Plan, TheDepthSelectsTheParameterValues) {
    const std::string id = "v1/C-PRC-01/matmul/f16xf16-f32/k-sweep";
    const auto& k_by_depth = catalog().find_operator("matmul")->contracts.at("C-PRC-01").at("K");
    std::map<std::string, spec::Json> k;
    for (const std::string depth : {"smoke", "quick", "full"}) {
        const auto plan = plan_of("core", depth, default_claims(catalog()));
        const Instance* i = find(plan, id);
        ASSERT_NE(i, nullptr) << depth;
        EXPECT_EQ(i->parameters, (spec::Json{{"K", k_by_depth.at(depth)}})) << depth;
        k[depth] = i->parameters.at("K");
    }
    EXPECT_NE(k["smoke"], k["full"]);
    EXPECT_NE(k["quick"], k["full"]);
}

TEST_F(Plan, MeasuresNamesClassOperatorConfigAndParametersInDeclarationOrder) {
    const auto plan = plan_of("core", "smoke", default_claims(catalog()), {"matmul", "unary"});
    const auto k = catalog().find_operator("matmul")->contracts.at("C-PRC-01").at("K").at("smoke");
    ASSERT_EQ(k, spec::Json::parse("[64, 512]")) << "the catalog changed; update the expected text below";
    EXPECT_EQ(find(plan, "v1/C-PRC-01/matmul/f16xf16-f32/k-sweep")->measures(),
              "Accumulator preservation: matmul f16xf16-f32, K = [64, 512]");
    const Instance* ord = find(plan, "v1/C-ORD-01/matmul/f32xf32-f32/shapes-sweep");
    ASSERT_NE(ord, nullptr);
    ASSERT_EQ(ord->parameters, spec::Json::parse(R"({"shapes": [[16, 256, 16], [1, 256, 7]], "permutations": 2})"))
        << "the catalog changed; update the expected text below";
    // shapes before permutations, as C-ORD-01 declares them (not alphabetically).
    EXPECT_EQ(ord->measures(),
              "Reduction order: bounded path dependence: matmul f32xf32-f32, shapes = [[16, 256, 16], [1, 256, 7]], "
              "permutations = 2");
    EXPECT_EQ(find(plan, "v1/C-CMP-02/matmul/f32xf32-f32/shapes-sweep")->measures(),
              "Subnormal handling: matmul f32xf32-f32, shapes = [[8, 8, 8], [33, 33, 33]]");
    EXPECT_TRUE(find(plan, "v1/C-CMP-01/unary.exp/f32-f32/shapes-sweep")->measures().starts_with(
        "Approximation accuracy: unary.exp f32-f32, samples = "));
}

TEST_F(Plan, TheOperatorFilterKeepsOnlyThoseOperators) {
    const auto plan = plan_of("core", "quick", reference_cpu_claims(), {"matmul", "softmax"});
    ASSERT_FALSE(plan.empty());
    std::set<std::string> ops;
    for (const auto& i : plan) ops.insert(i.op->id);
    EXPECT_EQ(ops, (std::set<std::string>{"matmul", "softmax"}));
    EXPECT_TRUE(plan_of("core", "quick", reference_cpu_claims(), {"no_such_operator"}).empty());
}

// Per class and operator, the instance count the catalog implies: every
// function of a family (or the operator once) times every configuration,
// for every operator in the class's scope.
TEST_F(Plan, CountsPerClassAreWhatTheCatalogImplies) {
    const std::vector<std::string> ops{"matmul", "reduce_sum", "reduce_max", "softmax"};
    const auto plan = plan_of("core", "quick", reference_cpu_claims(), ops);

    std::map<std::string, std::size_t> expected;
    for (const auto& [class_id, requirement] : catalog().find_profile("core")->classes) {
        const auto& scope = catalog().find_class(class_id)->scope_operators;
        for (const auto& op_id : ops) {
            if (std::find(scope.begin(), scope.end(), op_id) == scope.end()) continue;
            const spec::Operator& op = *catalog().find_operator(op_id);
            expected[class_id] += std::max<std::size_t>(1, op.functions.size()) * op.configs.size();
        }
    }
    std::map<std::string, std::size_t> counted;
    for (const auto& i : plan) ++counted[i.contract->id];
    EXPECT_EQ(counted, expected);

    std::size_t total = 0;
    for (const auto& [k, n] : expected) total += n;
    EXPECT_EQ(plan.size(), total);
}

TEST_F(Plan, FamiliesAreJudgedPerFunction) {
    const auto plan = plan_of("core", "quick", reference_cpu_claims(), {"unary"});
    const spec::Operator& unary = *catalog().find_operator("unary");
    std::set<std::string> functions;
    for (const auto& i : plan) {
        ASSERT_TRUE(i.function.has_value()) << i.id;
        functions.insert(*i.function);
    }
    EXPECT_EQ(functions.size(), unary.functions.size());
}

TEST_F(Plan, TheOrderIsClassOperatorThenTheOperatorFilesOrder) {
    const auto plan = plan_of("core", "quick", reference_cpu_claims());
    const auto position = [](const Instance& i) {
        const auto& fs = i.op->functions;
        const auto fn = std::find_if(fs.begin(), fs.end(), [&](const auto& f) { return i.function == f.name; });
        const auto& cs = i.op->configs;
        const auto cfg = std::find_if(cs.begin(), cs.end(), [&](const auto& c) { return c.id() == i.config.id(); });
        return std::make_tuple(i.contract->id, i.op->id, fn - fs.begin(), cfg - cs.begin());
    };
    EXPECT_TRUE(std::is_sorted(plan.begin(), plan.end(),
                               [&](const Instance& a, const Instance& b) { return position(a) < position(b); }));
    std::set<std::string> classes;
    for (const auto& i : plan) classes.insert(i.contract->id);
    EXPECT_EQ(classes.size(), catalog().find_profile("core")->classes.size());
}

TEST_F(Plan, TheDigestIsStableAndFollowsDepthAndApplicability) {
    const auto quick = plan_of("core", "quick", reference_cpu_claims());
    const std::string digest = plan_digest(quick);
    EXPECT_TRUE(std::regex_match(digest, std::regex("sha256:[0-9a-f]{64}"))) << digest;
    EXPECT_EQ(plan_digest(plan_of("core", "quick", reference_cpu_claims())), digest);
    EXPECT_NE(plan_digest(plan_of("core", "smoke", reference_cpu_claims())), digest);
    EXPECT_NE(plan_digest(plan_of("core", "full", reference_cpu_claims())), digest);
    // Same ids and parameters, C-ORD-02/03 no longer applicable.
    EXPECT_NE(plan_digest(plan_of("core", "quick", default_claims(catalog()))), digest);
    EXPECT_NE(plan_digest(plan_of("core", "quick", reference_cpu_claims(), {"matmul"})), digest);
}

TEST_F(Plan, AConfigWithoutAccumulatorLeavesOnlyAccumulatorClassesNotApplicable) {
    spec::Catalog changed = catalog();
    for (auto& op : changed.operators)
        if (op.id == "matmul") op.configs.at(0).accumulate.reset();
    const std::string config = changed.find_operator("matmul")->configs.at(0).id();
    for (const auto& i : plan_of("core", "quick", reference_cpu_claims(), {"matmul"}, changed)) {
        const bool needs = i.contract->id == "C-PRC-01" || i.contract->id == "C-ORD-01";
        if (needs && i.config.id() == config) {
            EXPECT_FALSE(i.applicable) << i.id;
            EXPECT_EQ(i.not_applicable_reason, "config declares no accumulator");
        } else {
            EXPECT_EQ(i.applicable, !excluded_by_config(i, reference_cpu_claims())) << i.id << ": " << i.not_applicable_reason;
        }
    }
}

TEST_F(Plan, ResolveChoiceFindsTheNamedProfileDepthAndOperators) {
    PlanRequest request;
    request.catalog = &catalog();
    PlanChoice choice;
    choice.profile = "strict";
    choice.depth = "smoke";
    choice.operators = {"matmul"};
    EXPECT_TRUE(resolve_choice(request, choice).empty());
    EXPECT_EQ(request.profile, catalog().find_profile("strict"));
    EXPECT_EQ(request.depth, catalog().find_depth("smoke"));
    EXPECT_EQ(request.operators, std::vector<std::string>{"matmul"});

    EXPECT_TRUE(resolve_choice(request, PlanChoice{}).empty()) << "core and quick by default";
    EXPECT_EQ(request.profile->id, "core");
    EXPECT_EQ(request.depth->id, "quick");
}

// --include and --exclude, as --gtest_filter: glob patterns over instance
// ids; a pattern that selects nothing is named.
TEST_F(Plan, IncludeAndExcludePatternsSelectInstancesById) {
    PlanRequest request;
    request.catalog = &catalog();
    PlanChoice choice;
    choice.operators = {"matmul"};
    ASSERT_TRUE(resolve_choice(request, choice).empty());
    request.claims = default_claims(catalog());
    const auto whole = make_plan(request);
    request.include = {"v1/C-PRC-01/*", "v1/C-ORD-0[12]/*"};
    request.exclude = {"*bf16*"};
    const auto part = make_plan(request);
    ASSERT_FALSE(part.empty());
    std::size_t expected = 0;
    for (const auto& i : whole)
        expected += (i.id.starts_with("v1/C-PRC-01/") || i.id.starts_with("v1/C-ORD-01/") ||
                     i.id.starts_with("v1/C-ORD-02/")) &&
                    i.id.find("bf16") == std::string::npos;
    EXPECT_EQ(part.size(), expected);
    for (const auto& i : part) EXPECT_EQ(i.id.find("bf16"), std::string::npos) << i.id;
    EXPECT_NE(plan_digest(part), plan_digest(whole));
    EXPECT_TRUE(unmatched_patterns(request).empty());
    request.include.push_back("v1/C-NOPE-*");
    EXPECT_EQ(unmatched_patterns(request), std::vector<std::string>{"--include 'v1/C-NOPE-*'"});
}

TEST_F(Plan, ResolveChoiceReportsEachUnknownNameAtItsOption) {
    PlanRequest request;
    request.catalog = &catalog();
    PlanChoice choice;
    choice.profile = "cor";
    choice.depth = "deep";
    choice.operators = {"matmul", "matmull"};
    const auto diags = resolve_choice(request, choice);
    ASSERT_EQ(diags.all().size(), 3u);
    EXPECT_EQ(diags.exit_code(), 2);
    EXPECT_EQ(diags.all()[0].str(),
              "--profile: error: unknown profile 'cor'; the catalog's profiles are core, strict\n"
              "  hint: did you mean 'core'?");
    EXPECT_EQ(diags.all()[1].where.file, "--depth");
    EXPECT_NE(diags.all()[1].message.find("smoke, quick, full"), std::string::npos) << diags.all()[1].str();
    EXPECT_EQ(diags.all()[2].where.file, "--op");
    EXPECT_EQ(diags.all()[2].hint, "did you mean 'matmul'?");
}

}  // namespace
}  // namespace kcs::harness

namespace kcs::harness {
namespace {

// The must-pass list: every planned instance of the profile's required
// classes, whatever the depth and the claims; strict requires them all.
TEST(Mustpass, IsThePlanOfTheRequiredClasses) {
    const spec::Catalog& cat = v1().catalog;
    const spec::Profile& core = *cat.find_profile("core");
    const auto ids = mustpass_ids(cat, core);
    const auto quick = plan_of("core", "quick", reference_cpu_claims());
    std::vector<std::string> required;
    for (const auto& i : quick)
        if (core.classes.at(i.contract->id) == "required") required.push_back(i.id);
    EXPECT_EQ(ids, required);
    EXPECT_LT(ids.size(), quick.size());  // core has if_claimed classes
    const auto strict = mustpass_ids(cat, *cat.find_profile("strict"));
    EXPECT_EQ(strict.size(), plan_of("strict", "smoke", default_claims(cat)).size());
}

}  // namespace
}  // namespace kcs::harness
