#include "kcs/reports/recorded_run.hpp"

#include <chrono>
#include <map>
#include <set>

namespace kcs::reports {

namespace {

std::chrono::nanoseconds seconds_of(const Json& value) {
    const double s = value.is_number() ? value.get<double>() : 0.0;
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::duration<double>(s));
}

}  // namespace

harness::Claims claims_of(const Json& recorded) {
    harness::Claims claims;
    claims.values = recorded.value("values", std::map<std::string, std::string>{});
    claims.declared = recorded.value("declared", std::set<std::string>{});
    claims.not_needed = recorded.value("not_needed", std::map<std::string, std::string>{});
    if (recorded.value("file", Json()).is_string()) claims.file = recorded["file"].get<std::string>();
    if (recorded.value("digest", Json()).is_string()) claims.digest = recorded["digest"].get<std::string>();
    return claims;
}

std::optional<harness::Verdict> verdict_of(const Json& text) {
    using V = harness::Verdict;
    for (const V v : {V::pass, V::fail, V::crash, V::timeout, V::error, V::unsupported, V::not_applicable, V::inconclusive})
        if (text.is_string() && text.get<std::string>() == harness::to_string(v)) return v;
    return std::nullopt;
}

std::optional<harness::InstanceResult> result_of(const harness::Instance& instance, const Json& recorded,
                                                 std::string& bad) {
    const auto verdict = verdict_of(recorded.value("verdict", Json()));
    if (!verdict) {
        bad = "verdict " + recorded.value("verdict", Json()).dump();
        return std::nullopt;
    }
    harness::InstanceResult result{&instance, *verdict, {}};
    for (const auto& c : recorded.value("cases", Json::array())) {
        harness::CaseRecord record;
        record.seed = c.value("seed", std::uint64_t{0});
        const auto case_verdict = verdict_of(c.value("verdict", Json()));
        if (!case_verdict) {
            bad = "case verdict " + c.value("verdict", Json()).dump();
            return std::nullopt;
        }
        record.result.verdict = *case_verdict;
        record.result.violated_class = c.value("violated_class", std::string());
        record.result.assumes = c.value("assumes", std::vector<std::string>{});
        record.wall = seconds_of(c.value("wall_s", Json()));
        record.adapter_time = seconds_of(c.value("adapter_s", Json()));
        result.cases.push_back(std::move(record));
    }
    return result;
}

}  // namespace kcs::reports
