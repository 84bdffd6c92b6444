// Cutting a plan into N fixed parts for N machines (kcs certify --shard I/N)
// so that each part takes about the same time, and kcs merge can join the
// parts' reports into the report of the whole plan.
//
// The cut depends only on the plan and the cost model, never on the
// machine: every shard of a run computes the same assignment on its own.
#pragma once

#include <compare>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kcs/harness/plan.hpp"

namespace kcs::harness {

// Shard `index` of `count`, counted from 0 (GoogleTest's convention).
struct Shard {
    int index = 0;
    int count = 1;
};

// "I/N" with 0 <= I < N. Throws std::invalid_argument saying what is wrong.
Shard parse_shard(std::string_view text);

// The shard a batch system asks for through the environment:
// SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT (with SLURM_ARRAY_TASK_MIN
// and SLURM_ARRAY_TASK_STEP when the array does not count 0, 1, 2, ...),
// else GTEST_SHARD_INDEX and GTEST_TOTAL_SHARDS. None when neither pair is
// set. Throws std::invalid_argument naming the variable that is unusable.
struct ShardRequest {
    Shard shard;
    std::string source;  // "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT", ...
};
std::optional<ShardRequest> shard_from_environment();

// What each instance is expected to cost, in seconds of wall time: the
// time it took in a measured run. kcs carries one table per depth
// (suites/harness/costs/DEPTH.tsv); a vendor may pass the report of an
// earlier run of its own device instead. An instance the table lacks costs
// the table's median; a NOT_APPLICABLE one costs nothing (it is not run).
class CostModel {
public:
    // The carried table for this depth id; a depth without one weighs
    // every applicable instance alike (source says so).
    static CostModel built_in(const std::string& depth);
    // Each instance's wall_s in the report.json of an earlier run. Throws
    // std::runtime_error saying why the file cannot serve.
    static CostModel from_report(const std::filesystem::path& report);

    double expected_seconds(const Instance& instance) const;
    const std::string& source() const { return source_; }
    // sha256 over the table: shards cut with equal digests cut alike.
    const std::string& digest() const { return digest_; }

private:
    CostModel(std::map<std::string, double> seconds, std::string source);

    std::map<std::string, double> seconds_;
    double fallback_ = 1;
    std::string source_, digest_;
};

// One member of a shard: a plan instance, whole, or one part of its
// exhaustive sweep (Instance::SweepSplit).
struct ShardMember {
    std::size_t instance = 0;  // its index in the plan
    std::uint64_t part = 0;
    std::uint64_t parts = 1;  // > 1: part `part` of that many
    auto operator<=>(const ShardMember&) const = default;
};

// The members of each of `count` shards, each list in plan order. An
// instance that `splits` (its probe's sweep folds parts) and is expected to
// take longer than a shard's fair share (the plan's expected time over
// `count`) is cut into ceil(its time / fair share) parts, at most `count`,
// each expected to take an even share of it (the chunks of a sweep cost
// alike). Greedy longest-first: the most expensive member not yet placed
// goes to the shard with the least expected time (ties: the lower index)
// that holds no other part of its instance, so no shard exceeds the mean by
// more than its largest member.
std::vector<std::vector<ShardMember>> assign_shards(const std::vector<Instance>& plan, const CostModel& costs,
                                                    int count,
                                                    const std::function<bool(const Instance&)>& splits = nullptr);

// A member's expected time: its instance's, or a part's even share of it.
double expected_seconds(const ShardMember& member, const std::vector<Instance>& plan, const CostModel& costs);
// The same for an instance of a shard's covered plan, whose split sweep
// (Instance::sweep) says which part of how many it is.
double expected_seconds(const Instance& covered, const CostModel& costs);

// The order to run the plan in, as indices into it: most expensive first
// (ties in plan order), so that with several jobs no long instance starts last.
std::vector<std::size_t> longest_first(const std::vector<Instance>& plan, const CostModel& costs);

}  // namespace kcs::harness
