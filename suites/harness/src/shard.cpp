#include "kcs/harness/shard.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <numeric>
#include <sstream>
#include <stdexcept>

#include "cost_tables.hpp"
#include "kcs/spec/sha256.hpp"

namespace kcs::harness {

namespace {

// A whole non-negative number, all of `text`.
std::optional<long long> whole_number(std::string_view text) {
    long long value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || value < 0) return std::nullopt;
    return value;
}

Shard checked_shard(long long index, long long count, const std::string& what) {
    if (count < 1 || count > 100000)
        throw std::invalid_argument(what + ": the shard count must be between 1 and 100000, not " +
                                    std::to_string(count));
    if (index >= count)
        throw std::invalid_argument(what + ": shard index " + std::to_string(index) + " is not below the count " +
                                    std::to_string(count) + " (shards count from 0)");
    return {static_cast<int>(index), static_cast<int>(count)};
}

std::optional<std::string> variable(const char* name) {
    const char* value = std::getenv(name);
    if (!value) return std::nullopt;
    return std::string(value);
}

long long number_in(const char* name, const std::string& value) {
    const auto n = whole_number(value);
    if (!n) throw std::invalid_argument(std::string(name) + "='" + value + "' is not a whole number");
    return *n;
}

std::map<std::string, double> parse_table(std::string_view text, const std::string& source) {
    std::map<std::string, double> seconds;
    std::istringstream in{std::string(text)};
    int line_number = 0;
    for (std::string line; std::getline(in, line);) {
        ++line_number;
        if (line.empty() || line[0] == '#') continue;
        const auto tab = line.find('\t');
        double value = -1;
        if (tab != std::string::npos) {
            const auto [end, ec] = std::from_chars(line.data(), line.data() + tab, value);
            if (ec != std::errc{} || end != line.data() + tab) value = -1;
        }
        if (tab == std::string::npos || value < 0 || tab + 1 == line.size())
            throw std::runtime_error(source + ":" + std::to_string(line_number) +
                                     ": expected 'SECONDS<TAB>INSTANCE-ID', got '" + line + "'");
        seconds[line.substr(tab + 1)] = value;
    }
    return seconds;
}

}  // namespace

Shard parse_shard(std::string_view text) {
    const auto slash = text.find('/');
    const auto index = slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(0, slash));
    const auto count = slash == std::string_view::npos ? std::nullopt : whole_number(text.substr(slash + 1));
    if (!index || !count)
        throw std::invalid_argument("--shard " + std::string(text) + ": expected I/N, e.g. 0/4 (shards count from 0)");
    return checked_shard(*index, *count, "--shard " + std::string(text));
}

std::optional<ShardRequest> shard_from_environment() {
    if (const auto id = variable("SLURM_ARRAY_TASK_ID")) {
        const auto count = variable("SLURM_ARRAY_TASK_COUNT");
        if (!count) throw std::invalid_argument("SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not");
        const long long task = number_in("SLURM_ARRAY_TASK_ID", *id);
        const long long min = number_in("SLURM_ARRAY_TASK_MIN", variable("SLURM_ARRAY_TASK_MIN").value_or("0"));
        const long long step = number_in("SLURM_ARRAY_TASK_STEP", variable("SLURM_ARRAY_TASK_STEP").value_or("1"));
        // An array given as a list (--array=1,4,9) has no step that maps
        // its ids onto 0..N-1; --shard says which part each task is.
        if (task < min || step < 1 || (task - min) % step != 0)
            throw std::invalid_argument("SLURM_ARRAY_TASK_ID=" + *id + " is not min + k * step of the array (min " +
                                        std::to_string(min) + ", step " + std::to_string(step) +
                                        "); submit the array as --array=0-<N-1>, or pass --shard I/N");
        const std::string source = "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT";
        return ShardRequest{checked_shard((task - min) / step, number_in("SLURM_ARRAY_TASK_COUNT", *count), source),
                            source};
    }
    const auto index = variable("GTEST_SHARD_INDEX");
    const auto total = variable("GTEST_TOTAL_SHARDS");
    if (!index && !total) return std::nullopt;
    if (!index || !total)
        throw std::invalid_argument("GTEST_SHARD_INDEX and GTEST_TOTAL_SHARDS must be set together");
    const std::string source = "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS";
    const Shard shard =
        checked_shard(number_in("GTEST_SHARD_INDEX", *index), number_in("GTEST_TOTAL_SHARDS", *total), source);
    // GoogleTest's protocol: a runner that honours sharding touches this file.
    if (const auto status = variable("GTEST_SHARD_STATUS_FILE")) std::ofstream{*status};
    return ShardRequest{shard, source};
}

CostModel::CostModel(std::map<std::string, double> seconds, std::string source)
    : seconds_(std::move(seconds)), source_(std::move(source)) {
    if (!seconds_.empty()) {
        std::vector<double> values;
        for (const auto& [id, s] : seconds_) values.push_back(s);
        std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
        fallback_ = values[values.size() / 2];
    }
    // Objects are key-sorted and dump() writes no whitespace: canonical.
    digest_ = sha256_digest(spec::Json(seconds_).dump());
}

CostModel CostModel::built_in(const std::string& depth) {
    const std::string_view table = detail::cost_table(depth);
    if (table.empty()) return CostModel({}, "none for depth " + depth + ": every instance weighs alike");
    const std::string source = "suites/harness/costs/" + depth + ".tsv";
    return CostModel(parse_table(table, source), "built-in " + source);
}

CostModel CostModel::from_report(const std::filesystem::path& report) {
    std::ifstream in(report);
    if (!in) throw std::runtime_error(report.string() + ": cannot read the cost report");
    spec::Json statement;
    try {
        statement = spec::Json::parse(in);
    } catch (const spec::Json::exception& e) {
        throw std::runtime_error(report.string() + ": not JSON: " + e.what());
    }
    const spec::Json instances = statement.value("predicate", spec::Json::object()).value("instances", spec::Json());
    if (!instances.is_array())
        throw std::runtime_error(report.string() + ": not a kcs report (no predicate.instances)");
    std::map<std::string, double> seconds;
    for (const auto& instance : instances) {
        const auto id = instance.value("id", spec::Json());
        const auto wall = instance.value("wall_s", spec::Json());
        // Only instances that ran tell what running them costs; a part of a
        // sweep cut in n (a shard's report) one n-th of the whole.
        const auto parts = instance.value("sweep_part", spec::Json::object()).value("count", spec::Json(1));
        if (id.is_string() && wall.is_number() && instance.value("verdict", spec::Json()).is_string() &&
            parts.is_number() && parts.get<double>() >= 1)
            seconds[id.get<std::string>()] = wall.get<double>() * parts.get<double>();
    }
    if (seconds.empty()) throw std::runtime_error(report.string() + ": records no instance that ran");
    return CostModel(std::move(seconds), "measured in " + report.string());
}

double CostModel::expected_seconds(const Instance& instance) const {
    if (!instance.applicable) return 0;
    const auto it = seconds_.find(instance.id);
    return it == seconds_.end() ? fallback_ : it->second;
}

std::vector<std::size_t> longest_first(const std::vector<Instance>& plan, const CostModel& costs) {
    std::vector<std::size_t> order(plan.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return costs.expected_seconds(plan[a]) > costs.expected_seconds(plan[b]);
    });
    return order;
}

double expected_seconds(const ShardMember& member, const std::vector<Instance>& plan, const CostModel& costs) {
    return costs.expected_seconds(plan.at(member.instance)) / static_cast<double>(member.parts);
}

double expected_seconds(const Instance& covered, const CostModel& costs) {
    return costs.expected_seconds(covered) / static_cast<double>(covered.sweep ? covered.sweep->count : 1);
}

std::vector<std::vector<ShardMember>> assign_shards(const std::vector<Instance>& plan, const CostModel& costs,
                                                    int count, const std::function<bool(const Instance&)>& splits) {
    if (count < 1) throw std::invalid_argument("assign_shards: count must be at least 1");
    double total = 0;
    for (const auto& instance : plan) total += costs.expected_seconds(instance);
    const double fair_share = total / count;
    std::vector<ShardMember> members;
    for (const std::size_t i : longest_first(plan, costs)) {
        const double cost = costs.expected_seconds(plan[i]);
        std::uint64_t parts = 1;
        if (count > 1 && cost > fair_share && splits && splits(plan[i]))
            parts = std::min(static_cast<std::uint64_t>(count), static_cast<std::uint64_t>(std::ceil(cost / fair_share)));
        for (std::uint64_t p = 0; p < parts; ++p) members.push_back({i, p, parts});
    }
    std::stable_sort(members.begin(), members.end(), [&](const ShardMember& a, const ShardMember& b) {
        return expected_seconds(a, plan, costs) > expected_seconds(b, plan, costs);
    });
    std::vector<std::vector<ShardMember>> shards(static_cast<std::size_t>(count));
    std::vector<double> load(shards.size(), 0.0);
    std::size_t next_free = 0;  // NOT_APPLICABLE instances cost nothing: dealt round-robin
    // Each shard holds at most one part of an instance (a report lists an
    // instance once); there are never more parts than shards.
    std::vector<std::vector<bool>> holds_part(shards.size(), std::vector<bool>(plan.size(), false));
    for (const ShardMember& member : members) {
        const double cost = expected_seconds(member, plan, costs);
        std::size_t target = next_free++ % shards.size();
        if (cost > 0) {
            target = shards.size();
            for (std::size_t s = 0; s < shards.size(); ++s)
                if (!holds_part[s][member.instance] && (target == shards.size() || load[s] < load[target])) target = s;
        }
        holds_part[target][member.instance] = member.parts > 1;
        shards[target].push_back(member);
        load[target] += cost;
    }
    for (auto& list : shards) std::sort(list.begin(), list.end());
    return shards;
}

}  // namespace kcs::harness
