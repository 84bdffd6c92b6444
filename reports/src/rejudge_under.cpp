#include "kcs/reports/rejudge_under.hpp"

#include <set>

#include "kcs/spec/catalog_diff.hpp"
#include "kcs/spec/tolerance_models.hpp"

#include "render_common.hpp"

namespace kcs::reports {

namespace {

using render::member;
using render::number;
using render::text;

// "v1/C-CMP-01/unary.gelu/f32-f32/shapes-sweep" -> "C-CMP-01/unary.gelu/f32-f32".
std::string key_of(const std::string& id) {
    const auto first = id.find('/'), last = id.rfind('/');
    if (first == std::string::npos || last == first) return id;
    return id.substr(first + 1, last - first - 1);
}

// The target's parameters of the instance's class and operator at `depth`.
Json target_parameters(const spec::Catalog& target, const std::string& class_id, const std::string& op_id,
                       const std::string& depth) {
    Json out = Json::object();
    const spec::Operator* op = target.find_operator(op_id);
    if (!op) return out;
    const auto params = op->contracts.find(class_id);
    if (params == op->contracts.end()) return out;
    for (const auto& [name, by_depth] : params->second)
        if (const auto value = by_depth.find(depth); value != by_depth.end()) out[name] = value->second;
    return out;
}

// The tolerance the report's instance was judged under: its catalog's, or
// the one its evidence cites.
std::optional<spec::Tolerance> judged_tolerance(const Json& instance, const spec::ContractClass* own_class) {
    if (own_class) return own_class->tolerance;
    for (const Json& c : member(instance, "cases")) {
        const Json& cited = member(member(member(c, "evidence"), "details"), "bound");
        if (cited.is_object() && member(cited, "model").is_string()) {
            spec::Tolerance t;
            t.model = cited["model"].get<std::string>();
            t.params = member(cited, "params").is_object() ? cited["params"] : Json::object();
            return t;
        }
    }
    return std::nullopt;
}

}  // namespace

Rejudgement rejudge_under(const Json& statement, const spec::Catalog* own, const spec::Catalog& target) {
    const Json& p = member(statement, "predicate");
    Rejudgement r;
    r.report_version = text(member(p, "spec"), "version");
    r.target_version = target.spec_version;
    const std::string profile = text(member(p, "profile"), "id");
    const std::string depth = text(member(p, "depth"), "id");
    const auto target_keys = spec::instance_keys(target, profile);
    std::set<std::string> report_keys;

    for (const Json& instance : member(p, "instances")) {
        const std::string id = text(instance, "id"), verdict = text(instance, "verdict");
        const std::string key = key_of(id);
        report_keys.insert(key);
        if (!target_keys.count(key)) {
            r.dropped.push_back(id);
            continue;
        }
        const std::string class_id = text(instance, "class");
        const spec::ContractClass* cls = target.find_class(class_id);
        const Json wanted = target_parameters(target, class_id, text(instance, "operator"), depth);
        if (member(instance, "parameters") != wanted) {
            r.rerun.push_back({id, verdict, "", "its protocol's parameters at " + depth + " differ: " +
                                                    member(instance, "parameters").dump() + " -> " + wanted.dump()});
            continue;
        }
        const auto judged = judged_tolerance(instance, own ? own->find_class(class_id) : nullptr);
        const bool same_bound = judged && judged->model == cls->tolerance.model && judged->params == cls->tolerance.params;
        if (same_bound) {
            ++r.unchanged;  // the same protocol and bound: the evidence stands
            continue;
        }
        if (verdict != "PASS" && verdict != "FAIL" && verdict != "INCONCLUSIVE") {
            ++r.unchanged;  // no comparison was made that a bound could change (UNSUPPORTED, ERROR, ...)
            continue;
        }
        const spec::ToleranceModel* model = spec::find_tolerance_model(cls->tolerance.model);
        const Json& config = member(instance, "config");
        const spec::DtypeConfig dtypes{config.value("inputs", std::vector<std::string>{}), text(config, "output"), {}};
        const Json& function = member(instance, "function");
        const auto bounds = spec::headline_bounds(
            cls->tolerance, dtypes, function.is_string() ? std::optional(function.get<std::string>()) : std::nullopt);
        if (!judged || judged->model != cls->tolerance.model || !model || model->ratio_figure || bounds.size() != 1 ||
            spec::required_power(cls->tolerance)) {
            r.rerun.push_back({id, verdict, "", "its tolerance changed in a way the recorded figure cannot be "
                                                "judged against (" + cls->tolerance.model + ")"});
            continue;
        }
        // Every case judged again: its figure against the target's bound.
        std::string would_be = "PASS";
        bool decided = true;
        for (const Json& c : member(instance, "cases")) {
            const std::string case_verdict = text(c, "verdict");
            if (case_verdict != "PASS" && case_verdict != "FAIL") continue;
            const auto figure = number(member(member(c, "evidence"), "figure"));
            if (!figure) {
                decided = false;
                break;
            }
            if (!spec::figure_holds(*model, *figure, bounds[0])) would_be = "FAIL";
        }
        if (!decided) {
            r.rerun.push_back({id, verdict, "", "a case records no figure to judge by"});
        } else if (would_be != verdict) {
            r.changed.push_back({id, verdict, would_be, cls->tolerance.model + " bound " +
                                                            render::number_text(bounds[0]) + " in " +
                                                            target.spec_version});
        } else {
            ++r.unchanged;
        }
    }
    // What the target plans that the report lacks, within the report's --op restriction.
    std::set<std::string> operators;
    for (const Json& op : member(p, "operators")) operators.insert(op.get<std::string>());
    for (const auto& key : target_keys) {
        const std::string op = key.substr(key.find('/') + 1, key.find_first_of("/.", key.find('/') + 1) - key.find('/') - 1);
        if (!report_keys.count(key) && (operators.empty() || operators.count(op))) r.lacking.push_back(key);
    }
    return r;
}

std::string rejudgement_text(const Rejudgement& r) {
    std::string out = "kcs rejudge: a report judged under " + r.report_version + ", judged under " + r.target_version +
                      " from its evidence\n";
    out += std::to_string(r.changed.size()) + " verdict(s) would change, " + std::to_string(r.unchanged) +
           " would stay, " + std::to_string(r.rerun.size()) + " need a rerun, " + std::to_string(r.dropped.size()) +
           " are not planned there, " + std::to_string(r.lacking.size()) + " are new there (the report lacks them)\n";
    for (const auto& o : r.changed)
        out += "changed  " + o.instance_id + ": " + o.verdict + " -> " + o.would_be + " (" + o.why + ")\n";
    for (const auto& o : r.rerun) out += "rerun    " + o.instance_id + " (" + o.verdict + "): " + o.why + "\n";
    for (const auto& id : r.dropped) out += "dropped  " + id + "\n";
    for (const auto& key : r.lacking) out += "lacking  " + key + "\n";
    return out;
}

Json rejudgement_json(const Rejudgement& r) {
    const auto outlooks = [](const std::vector<InstanceOutlook>& list) {
        Json out = Json::array();
        for (const auto& o : list)
            out.push_back({{"instance", o.instance_id}, {"verdict", o.verdict}, {"would_be", o.would_be}, {"why", o.why}});
        return out;
    };
    return {{"report_version", r.report_version}, {"target_version", r.target_version},
            {"changed", outlooks(r.changed)},    {"rerun", outlooks(r.rerun)},
            {"unchanged", r.unchanged},          {"dropped", r.dropped},
            {"lacking", r.lacking}};
}

}  // namespace kcs::reports
