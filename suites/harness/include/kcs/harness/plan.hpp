// The plan of a run: the catalog expanded over profile x depth x claims
// into contract instances with stable hierarchical ids (spec/SPEC.md
// section 1, "Contract instance").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kcs/harness/claims.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::harness {

struct Instance {
    // v<MAJOR>/<class>/<operator>[.<function>]/<config>/<variant>,
    // e.g. v1/C-PRC-01/matmul/f16xf16-f32/k-sweep.
    std::string id;
    const spec::ContractClass* contract = nullptr;
    const spec::Operator* op = nullptr;
    spec::DtypeConfig config;
    std::optional<std::string> function;  // the member of a family (unary.exp)
    std::string variant;                  // "<first list parameter>-sweep" or "default"
    spec::Json parameters;                // parameter name -> value at the plan's depth
    std::vector<std::string> supplied;    // what PlanRequest::protocols supplied: parameter names, "requires"
    std::string depth;                    // the plan's depth id: a probe sweeps exhaustively at full
    std::string requirement;              // the profile's: required | if_claimed
    const spec::Profile* profile = nullptr;  // the plan's: its cases are judged by judged_under(*profile, claims)
    // NOT_APPLICABLE instances stay in the plan, with the reason, so that a
    // report accounts for every instance of the profile.
    bool applicable = true;
    std::string not_applicable_reason;

    // An exhaustive sweep cut into parts that run apart, on other machines
    // (SPEC.md section 9, "A sweep across machines"); unset: the whole sweep.
    // Part `index` of `count` runs the chunks [index * C / count,
    // (index + 1) * C / count) of the sweep's C and records its tally in
    // its evidence (details.sweep_timing.part). With `fold` set (those
    // records of every part, in part order) the sweep runs no chunk at all:
    // the tallies are joined in chunk order and the verdict finished from
    // them, the same evidence as the unsplit sweep's.
    struct SweepSplit {
        std::uint64_t index = 0;
        std::uint64_t count = 1;
        std::vector<spec::Json> fold;
    };
    std::optional<SweepSplit> sweep;

    std::string measures() const;  // one line: class title, operator, parameters
};

struct PlanRequest {
    const spec::Catalog* catalog = nullptr;
    const spec::Profile* profile = nullptr;
    const spec::Depth* depth = nullptr;
    Claims claims;
    // Only these operators (empty: every operator of the catalog).
    std::vector<std::string> operators;
    // The catalog whose measurement protocols the probes implement (the
    // newest carried one), when `catalog` is an older release (SPEC.md
    // section 10, "Certifying under an older release"): a protocol
    // parameter `catalog` does not state for an operator, class and depth
    // is taken from it, and so is a class's precondition as data
    // (`requires`) where `catalog`'s class states it only in text. Null,
    // or `catalog` itself: nothing is supplied.
    const spec::Catalog* protocols = nullptr;
    // Glob patterns over instance ids (fnmatch: * ? [...]), as
    // --gtest_filter's: an instance is planned when it matches an include
    // pattern (or none is given) and no exclude pattern.
    std::vector<std::string> include, exclude;
};

// What a plan took from its request's protocols catalog, as "CLASS
// OPERATOR: NAME" (a parameter, or "requires") in plan order, each once;
// empty when nothing was.
std::vector<std::string> supplied_parameters(const std::vector<Instance>& plan);

// Instances in a stable order: class id, operator id, then function and
// config in the order the operator file lists them, variant.
std::vector<Instance> make_plan(const PlanRequest& request);

// The must-pass list of a catalog release and profile (as VK-GL-CTS's
// mustpass): the ids of every instance a certificate at that version and
// profile requires, that is, every planned instance of the profile's
// required classes (an if_claimed class depends on the claims). The ids
// do not depend on the depth or the claims; plan order.
std::vector<std::string> mustpass_ids(const spec::Catalog& catalog, const spec::Profile& profile);

// sha256 over the plan's instance ids, parameters and applicability: two
// runs with equal plan digests ran the same instances with the same
// parameters.
std::string plan_digest(const std::vector<Instance>& plan);

// The variant part of an instance id: "<p>-sweep" for the class's first
// list-typed parameter p (lower-cased, '_' -> '-'), else "default".
std::string variant_of(const spec::ContractClass& contract);

// A plan as a user names it (kcs plan --profile --depth --op).
struct PlanChoice {
    std::string profile = "core";
    std::string depth = "quick";
    std::vector<std::string> operators;  // empty: every operator
    std::vector<std::string> include, exclude;  // --include, --exclude: glob patterns over instance ids
};

// The --include and --exclude patterns of `request` that select no instance
// of its plan without them, as "--include 'PATTERN'": each a usage error.
std::vector<std::string> unmatched_patterns(const PlanRequest& request);

// Looks the names up in request.catalog and sets request.profile, .depth
// and .operators (and copies the patterns). Each unknown name is an input diagnostic placed at the
// option that gave it ("--profile"), with a did-you-mean hint; the request
// is usable only when there is none.
spec::Diagnostics resolve_choice(PlanRequest& request, const PlanChoice& choice);

}  // namespace kcs::harness
