#include "kcs/harness/primary_cause.hpp"

#include <algorithm>
#include <set>

namespace kcs::harness {

namespace {

// A configuration that computes the same values at full width: the same
// inputs with the output in the accumulator's dtype (f16xf16-f32 for
// f16xf16-f16), or every input and the output in it (f32-f32 for
// bf16-bf16: narrow inputs are exact in f32, so it is the same function on
// the same values).
bool wide_sibling(const spec::DtypeConfig& narrow, const spec::DtypeConfig& other) {
    const std::string wide = narrow.accumulate.value_or("f32");
    if (narrow.output == wide || other.output != wide) return false;
    if (other.inputs == narrow.inputs) return true;
    return other.inputs.size() == narrow.inputs.size() &&
           std::all_of(other.inputs.begin(), other.inputs.end(), [&](const std::string& d) { return d == wide; });
}

bool same_configuration(const spec::DtypeConfig& a, const spec::DtypeConfig& b) {
    return a.inputs == b.inputs && a.output == b.output;
}

bool same_operator(const Instance& a, const Instance& b) { return a.op == b.op && a.function == b.function; }

// The classes every failing case of the instance assumed; empty when any
// failing case stands on its own (assumed nothing).
std::set<std::string> assumed_by_every_failure(const InstanceResult& result) {
    std::set<std::string> assumed;
    bool first = true;
    for (const auto& c : result.cases) {
        if (c.result.verdict != Verdict::fail) continue;
        if (c.result.assumes.empty()) return {};
        const std::set<std::string> these(c.result.assumes.begin(), c.result.assumes.end());
        if (first) {
            assumed = these;
            first = false;
        } else {
            std::set<std::string> both;
            std::set_intersection(assumed.begin(), assumed.end(), these.begin(), these.end(),
                                  std::inserter(both, both.begin()));
            assumed = std::move(both);
        }
    }
    return assumed;
}

bool failed(const std::optional<InstanceResult>& result) { return result && result->verdict == Verdict::fail; }

// The FAIL instance that explains instance i, if any: the same operator
// and configuration first, then the wide sibling; within each, plan order.
std::optional<std::size_t> direct_cause(const std::vector<Instance>& plan,
                                        const std::vector<std::optional<InstanceResult>>& results, std::size_t i,
                                        bool& wide) {
    const std::set<std::string> assumed = assumed_by_every_failure(*results[i]);
    if (assumed.empty()) return std::nullopt;
    for (const bool w : {false, true}) {
        for (std::size_t j = 0; j < plan.size() && j < results.size(); ++j) {
            const Instance& a = plan[i];
            const Instance& b = plan[j];
            if (j == i || !failed(results[j]) || !same_operator(a, b) || !assumed.contains(b.contract->id)) continue;
            if (!(w ? wide_sibling(a.config, b.config) : same_configuration(a.config, b.config))) continue;
            wide = w;
            return j;
        }
    }
    return std::nullopt;
}

}  // namespace

std::vector<std::optional<Consequence>> primary_causes(const std::vector<Instance>& plan,
                                                       const std::vector<std::optional<InstanceResult>>& results) {
    const std::size_t n = std::min(plan.size(), results.size());
    std::vector<std::optional<std::size_t>> cause(n);
    std::vector<bool> wide(n, false);
    for (std::size_t i = 0; i < n; ++i) {
        bool w = false;
        if (failed(results[i])) cause[i] = direct_cause(plan, results, i, w);
        wide[i] = w;
    }
    std::vector<std::optional<Consequence>> out(plan.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (!cause[i]) continue;
        // The chain must end at a FAIL that is not itself explained (then the
        // report names the direct cause, which names its own); a loop (two
        // FAILs each assuming the other's class) leaves both primary.
        std::size_t root = *cause[i], steps = 0;
        while (cause[root] && root != i && steps++ < n) root = *cause[root];
        if (cause[root]) continue;
        const Instance& b = plan[*cause[i]];
        out[i] = Consequence{b.id, "its failing comparisons assumed " + b.contract->id + " (" +
                                                b.contract->title + "), which FAILs on " +
                                                (wide[i] ? "the full-width configuration " + b.config.id()
                                                         : "the same configuration")};
    }
    return out;
}

}  // namespace kcs::harness
