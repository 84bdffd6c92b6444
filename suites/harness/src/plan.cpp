// Expanding the catalog into the contract instances of one run: profile x
// class scope x function x configuration, valued at one depth, with the
// claims deciding which instances apply.
#include "kcs/harness/plan.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>

#include "kcs/spec/sha256.hpp"
#include "yaml_reader.hpp"

namespace kcs::harness {

namespace {

// Where a class's precondition, as the catalog states it in data
// (`requires`), excludes a configuration: the first failing requirement's
// reason (empty: it applies). Probes whose protocol cannot run there would
// judge nothing, and a PASS must judge something (spec/SPEC.md section 5).
std::string config_excluded(const std::vector<spec::Requirement>& requirements, const spec::Operator& op,
                            const spec::DtypeConfig& config) {
    for (const auto& requirement : requirements) {
        if (spec::requirement_holds(requirement, op, config)) continue;
        std::string reason = requirement.reason;
        if (const auto at = reason.find("{output}"); at != std::string::npos)
            reason.replace(at, 8, config.output);
        return reason;
    }
    return {};
}

// Why an instance is NOT_APPLICABLE (SPEC.md section 8), or empty when it applies.
std::string not_applicable_reason(const spec::ContractClass& contract, const std::vector<spec::Requirement>& requires_,
                                  const std::string& requirement, const spec::Operator& op,
                                  const spec::DtypeConfig& config, const Claims& claims) {
    if (requirement == "if_claimed" && contract.scope_claim && !claims.is_true(*contract.scope_claim))
        return "claim " + *contract.scope_claim + " is not declared true";
    // C-CMP-03's precondition on the norms: the same normalised row from two
    // calls, which only deterministic: true promises.
    if (contract.id == "C-CMP-03" && (op.id == "layernorm" || op.id == "rmsnorm") && !claims.is_true("deterministic"))
        return "claim deterministic is not declared true: the norm probes compare the normalised rows of two calls";
    return config_excluded(requires_, op, config);
}

// The request's protocols catalog when it is another than its catalog
// (which then takes what it leaves unstated from it), else null.
const spec::Catalog* supplier(const PlanRequest& request) {
    return request.protocols != request.catalog ? request.protocols : nullptr;
}

// The operator's values for the class's parameters, at one depth.
spec::Json parameters_at(const spec::Operator& op, const std::string& class_id, const std::string& depth) {
    spec::Json out = spec::Json::object();
    const auto params = op.contracts.find(class_id);
    if (params == op.contracts.end()) return out;
    for (const auto& [name, by_depth] : params->second) {
        if (const auto value = by_depth.find(depth); value != by_depth.end()) out[name] = value->second;
    }
    return out;
}

// The protocols catalog's values, at the same operator, class and depth,
// of the parameters `stated` lacks: what an older release left to the
// implementation and a newer one states.
spec::Json supplied_at(const PlanRequest& request, const spec::Operator& op, const std::string& class_id,
                       const spec::Json& stated) {
    spec::Json out = spec::Json::object();
    const spec::Operator* newer = supplier(request) ? supplier(request)->find_operator(op.id) : nullptr;
    if (!newer) return out;
    const spec::Json newer_values = parameters_at(*newer, class_id, request.depth->id);
    for (const auto& [name, value] : newer_values.items())
        if (!stated.contains(name)) out[name] = value;
    return out;
}

std::string major_version(const std::string& spec_version) {
    return spec_version.substr(0, spec_version.find('.'));
}

// A parameter value as a reader writes it: [64, 512], [[17, 13, 19]].
std::string readable(const spec::Json& value) {
    if (value.is_string()) return value.get<std::string>();
    if (!value.is_array()) return value.dump();
    std::string out = "[";
    for (std::size_t i = 0; i < value.size(); ++i) out += (i ? ", " : "") + readable(value[i]);
    return out + "]";
}

template <typename T>
std::vector<std::string> ids_of(const std::vector<T>& items) {
    std::vector<std::string> ids;
    for (const auto& item : items) ids.push_back(item.id);
    return ids;
}

void report_unknown(spec::Diagnostics& diags, const std::string& option, const std::string& what,
                    const std::string& name, const std::vector<std::string>& known) {
    diags.input({option, 0, 0},
                "unknown " + what + " '" + name + "'; the catalog's " + what + "s are " +
                    spec::detail::one_of_list(known).substr(7),
                spec::detail::did_you_mean(name, known));
}

}  // namespace

std::string Instance::measures() const {
    std::string out = contract ? contract->title + ": " : std::string{};
    if (op) out += op->id + (function ? "." + *function : std::string{}) + " " + config.id();
    if (!contract) return out;
    // The class's declaration order, not the JSON object's alphabetical one.
    for (const auto& p : contract->parameters) {
        if (const auto value = parameters.find(p.name); value != parameters.end())
            out += ", " + p.name + " = " + readable(*value);
    }
    return out;
}

std::string variant_of(const spec::ContractClass& contract) {
    for (const auto& p : contract.parameters) {
        if (!p.type.ends_with("_list")) continue;
        std::string name = p.name;
        for (char& c : name) c = c == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        return name + "-sweep";
    }
    return "default";
}

namespace {

bool matches(const std::string& pattern, const std::string& id) { return fnmatch(pattern.c_str(), id.c_str(), 0) == 0; }

bool matches_any(const std::vector<std::string>& patterns, const std::string& id) {
    return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) { return matches(p, id); });
}

bool selected(const PlanRequest& request, const std::string& id) {
    return (request.include.empty() || matches_any(request.include, id)) && !matches_any(request.exclude, id);
}

}  // namespace

std::vector<Instance> make_plan(const PlanRequest& request) {
    const spec::Catalog& catalog = *request.catalog;
    const std::string version = "v" + major_version(catalog.spec_version);
    const auto wanted = [&](const std::string& op_id) {
        return request.operators.empty() ||
               std::find(request.operators.begin(), request.operators.end(), op_id) != request.operators.end();
    };

    std::vector<Instance> plan;
    // Profile::classes is a map: classes come in id order.
    for (const auto& [class_id, requirement] : request.profile->classes) {
        const spec::ContractClass* contract = catalog.find_class(class_id);
        if (!contract) continue;  // the loader refuses such a profile
        const std::string variant = variant_of(*contract);
        // A precondition an older release stated only in text, and the
        // protocols' catalog states as data (SPEC.md section 10).
        const spec::ContractClass* newer = supplier(request) ? supplier(request)->find_class(class_id) : nullptr;
        const bool requires_supplied = contract->requirements.empty() && newer && !newer->requirements.empty();
        const auto& requires_ = requires_supplied ? newer->requirements : contract->requirements;
        std::vector<std::string> op_ids = contract->scope_operators;
        std::sort(op_ids.begin(), op_ids.end());
        for (const auto& op_id : op_ids) {
            const spec::Operator* op = catalog.find_operator(op_id);
            if (!op || !wanted(op_id)) continue;
            spec::Json parameters = parameters_at(*op, class_id, request.depth->id);
            const spec::Json supplied = supplied_at(request, *op, class_id, parameters);
            parameters.update(supplied);
            // A family is judged per function; any other operator once.
            std::vector<std::optional<std::string>> functions;
            for (const auto& f : op->functions) functions.emplace_back(f.name);
            if (functions.empty()) functions.emplace_back(std::nullopt);
            for (const auto& function : functions) {
                for (const auto& config : op->configs) {
                    Instance i;
                    i.id = version + "/" + class_id + "/" + op_id + (function ? "." + *function : std::string{}) + "/" +
                           config.id() + "/" + variant;
                    if (!selected(request, i.id)) continue;
                    i.contract = contract;
                    i.op = op;
                    i.config = config;
                    i.function = function;
                    i.variant = variant;
                    i.parameters = parameters;
                    for (const auto& [name, value] : supplied.items()) i.supplied.push_back(name);
                    if (requires_supplied) i.supplied.push_back("requires");
                    i.depth = request.depth->id;
                    i.requirement = requirement;
                    i.profile = request.profile;
                    i.not_applicable_reason =
                        not_applicable_reason(*contract, requires_, requirement, *op, config, request.claims);
                    i.applicable = i.not_applicable_reason.empty();
                    plan.push_back(std::move(i));
                }
            }
        }
    }
    return plan;
}

std::vector<std::string> supplied_parameters(const std::vector<Instance>& plan) {
    std::vector<std::string> out;
    for (const Instance& i : plan)
        for (const auto& name : i.supplied) {
            const std::string entry = i.contract->id + " " + i.op->id + ": " + name;
            if (std::find(out.begin(), out.end(), entry) == out.end()) out.push_back(entry);
        }
    return out;
}

std::vector<std::string> mustpass_ids(const spec::Catalog& catalog, const spec::Profile& profile) {
    PlanRequest request;
    request.catalog = &catalog;
    request.profile = &profile;
    request.depth = catalog.depths.empty() ? nullptr : &catalog.depths.back();
    spec::Depth any;  // ids do not depend on the depth
    if (!request.depth) request.depth = &any;
    request.claims = default_claims(catalog);
    std::vector<std::string> ids;
    for (const Instance& instance : make_plan(request))
        if (instance.requirement == "required") ids.push_back(instance.id);
    return ids;
}

std::string plan_digest(const std::vector<Instance>& plan) {
    spec::Json canonical = spec::Json::array();
    for (const auto& i : plan) canonical.push_back({i.id, i.parameters, i.applicable});
    // Objects are key-sorted and dump() writes no whitespace: the text is canonical.
    return kcs::sha256_digest(canonical.dump());
}

spec::Diagnostics resolve_choice(PlanRequest& request, const PlanChoice& choice) {
    spec::Diagnostics diags;
    const spec::Catalog& catalog = *request.catalog;
    request.profile = catalog.find_profile(choice.profile);
    if (!request.profile) report_unknown(diags, "--profile", "profile", choice.profile, ids_of(catalog.profiles));
    request.depth = catalog.find_depth(choice.depth);
    if (!request.depth) report_unknown(diags, "--depth", "depth", choice.depth, ids_of(catalog.depths));
    for (const auto& op : choice.operators) {
        if (!catalog.find_operator(op)) report_unknown(diags, "--op", "operator", op, ids_of(catalog.operators));
    }
    request.operators = choice.operators;
    request.include = choice.include;
    request.exclude = choice.exclude;
    return diags;
}

std::vector<std::string> unmatched_patterns(const PlanRequest& request) {
    if (request.include.empty() && request.exclude.empty()) return {};  // no plan to make again
    PlanRequest whole = request;
    whole.include.clear();
    whole.exclude.clear();
    const auto plan = make_plan(whole);
    std::vector<std::string> out;
    for (const auto* list : {&request.include, &request.exclude})
        for (const auto& pattern : *list)
            if (std::none_of(plan.begin(), plan.end(), [&](const Instance& i) { return matches(pattern, i.id); }))
                out.push_back(std::string(list == &request.include ? "--include '" : "--exclude '") + pattern + "'");
    return out;
}

}  // namespace kcs::harness
