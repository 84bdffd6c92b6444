// Cutting the real v1 plans into shards: the shard a user or a batch
// system names, the carried cost tables, and an assignment that covers the
// plan exactly once, the same on every machine, balanced by expected cost.
#include "kcs/harness/shard.hpp"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

#include <gtest/gtest.h>

namespace kcs::harness {
namespace {

namespace fs = std::filesystem;

const spec::Catalog& catalog() {
    static const spec::LoadResult loaded = spec::load_catalog(fs::path(KCS_SOURCE_DIR) / "spec" / "v1");
    return loaded.catalog;
}

std::vector<Instance> plan_of(const std::string& profile, const std::string& depth) {
    const spec::Catalog& cat = catalog();
    static const ClaimsResult claims =
        load_claims(fs::path(KCS_SOURCE_DIR) / "vendors" / "reference-cpu" / "claims.yaml", cat);
    PlanRequest request;
    request.catalog = &cat;
    request.profile = cat.find_profile(profile);
    request.depth = cat.find_depth(depth);
    request.claims = claims.claims;
    return make_plan(request);
}

// Sets environment variables for one test and clears them after it.
class Environment : public ::testing::Test {
protected:
    void TearDown() override {
        for (const char* name : {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_MIN",
                                 "SLURM_ARRAY_TASK_STEP", "GTEST_SHARD_INDEX", "GTEST_TOTAL_SHARDS",
                                 "GTEST_SHARD_STATUS_FILE"})
            ::unsetenv(name);
    }
    static void set(const char* name, const std::string& value) { ::setenv(name, value.c_str(), 1); }
};

TEST(ParseShard, ReadsIndexOfCountFromZero) {
    const Shard s = parse_shard("2/4");
    EXPECT_EQ(s.index, 2);
    EXPECT_EQ(s.count, 4);
    EXPECT_EQ(parse_shard("0/1").count, 1);
}

TEST(ParseShard, RefusesWhatIsNotAShardOfACount) {
    for (const char* bad : {"4/4", "1/0", "-1/4", "1", "a/4", "1/4x", "/4", "1/", "1/100001"})
        EXPECT_THROW(parse_shard(bad), std::invalid_argument) << bad;
    try {
        parse_shard("4/4");
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("count from 0"), std::string::npos) << e.what();
    }
}

TEST_F(Environment, NoVariablesMeanTheWholePlan) { EXPECT_FALSE(shard_from_environment()); }

TEST_F(Environment, SlurmArrayTaskCountedFromItsMinimumByItsStep) {
    set("SLURM_ARRAY_TASK_ID", "3");
    set("SLURM_ARRAY_TASK_COUNT", "4");
    auto request = shard_from_environment();
    ASSERT_TRUE(request);
    EXPECT_EQ(request->shard.index, 3);
    EXPECT_EQ(request->source, "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT");

    set("SLURM_ARRAY_TASK_MIN", "1");  // --array=1-4
    request = shard_from_environment();
    EXPECT_EQ(request->shard.index, 2);

    set("SLURM_ARRAY_TASK_ID", "7");  // --array=1-7:2 is 1, 3, 5, 7
    set("SLURM_ARRAY_TASK_STEP", "2");
    request = shard_from_environment();
    EXPECT_EQ(request->shard.index, 3);

    set("SLURM_ARRAY_TASK_ID", "4");  // not in that array
    EXPECT_THROW(shard_from_environment(), std::invalid_argument);
}

TEST_F(Environment, SlurmWinsOverGoogleTest) {
    set("SLURM_ARRAY_TASK_ID", "1");
    set("SLURM_ARRAY_TASK_COUNT", "2");
    set("GTEST_SHARD_INDEX", "0");
    set("GTEST_TOTAL_SHARDS", "3");
    EXPECT_EQ(shard_from_environment()->shard.count, 2);
}

TEST_F(Environment, GoogleTestShardingTouchesTheStatusFile) {
    const fs::path status = fs::path(::testing::TempDir()) / "kcs-shard-status";
    fs::remove(status);
    set("GTEST_SHARD_INDEX", "1");
    set("GTEST_TOTAL_SHARDS", "3");
    set("GTEST_SHARD_STATUS_FILE", status.string());
    const auto request = shard_from_environment();
    ASSERT_TRUE(request);
    EXPECT_EQ(request->shard.index, 1);
    EXPECT_EQ(request->shard.count, 3);
    EXPECT_EQ(request->source, "GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS");
    EXPECT_TRUE(fs::exists(status));
}

TEST_F(Environment, UnusableVariablesAreNamed) {
    set("GTEST_SHARD_INDEX", "1");
    EXPECT_THROW(shard_from_environment(), std::invalid_argument);  // without its count
    set("GTEST_TOTAL_SHARDS", "one");
    try {
        shard_from_environment();
        ADD_FAILURE() << "GTEST_TOTAL_SHARDS=one was taken";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("GTEST_TOTAL_SHARDS"), std::string::npos) << e.what();
    }
    set("SLURM_ARRAY_TASK_ID", "2");  // without SLURM_ARRAY_TASK_COUNT
    EXPECT_THROW(shard_from_environment(), std::invalid_argument);
}

// The carried tables must know every instance kcs plans: a table that
// lags the catalog weighs new instances by its median only.
TEST(CostModel, CarriedTablesCoverEveryApplicableInstance) {
    for (const std::string depth : {"smoke", "quick", "full"}) {
        const CostModel costs = CostModel::built_in(depth);
        EXPECT_NE(costs.source().find("suites/harness/costs/" + depth + ".tsv"), std::string::npos);
        std::ifstream table(fs::path(KCS_SOURCE_DIR) / "suites" / "harness" / "costs" / (depth + ".tsv"));
        std::set<std::string> listed;
        for (std::string line; std::getline(table, line);)
            if (!line.empty() && line[0] != '#') listed.insert(line.substr(line.find('\t') + 1));
        for (const std::string profile : {"core", "strict"})
            for (const auto& instance : plan_of(profile, depth))
                EXPECT_TRUE(!instance.applicable || listed.count(instance.id)) << depth << " lacks " << instance.id;
    }
}

TEST(CostModel, FullDepthWeighsTheExhaustiveSweepsAboveAll) {
    const CostModel costs = CostModel::built_in("full");
    const auto plan = plan_of("core", "full");
    const auto by_id = [&](const std::string& id) {
        const auto it = std::find_if(plan.begin(), plan.end(), [&](const Instance& i) { return i.id == id; });
        return costs.expected_seconds(*it);
    };
    EXPECT_GT(by_id("v1/C-CMP-01/unary.exp/f32-f32/shapes-sweep"), 60.0);
    EXPECT_LT(by_id("v1/C-CMP-01/unary.exp/bf16-bf16/shapes-sweep"), 10.0);
}

TEST(CostModel, ReadsAnEarlierRunsTimesAndFallsBackToTheirMedian) {
    const fs::path report = fs::path(::testing::TempDir()) / "kcs-costs-report.json";
    const auto plan = plan_of("core", "quick");
    std::ofstream(report) << spec::Json{
        {"predicate",
         {{"instances",
           {{{"id", plan[0].id}, {"wall_s", 5.0}, {"verdict", "PASS"}},
            {{"id", plan[1].id}, {"wall_s", 1.0}, {"verdict", "PASS"}},
            {{"id", plan[2].id}, {"wall_s", 3.0}, {"verdict", "FAIL"}},
            {{"id", plan[3].id}, {"wall_s", 0.0}, {"verdict", nullptr}},
            // A shard's part of a sweep cut in 4: the whole costs 4 times the part.
            {{"id", plan[4].id}, {"wall_s", 2.5}, {"verdict", "PASS"}, {"sweep_part", {{"index", 1}, {"count", 4}}}}}}}}};
    const CostModel costs = CostModel::from_report(report);
    EXPECT_EQ(costs.expected_seconds(plan[4]), 10.0);
    EXPECT_EQ(costs.expected_seconds(plan[0]), 5.0);
    EXPECT_EQ(costs.expected_seconds(plan[2]), 3.0);
    EXPECT_EQ(costs.expected_seconds(plan[3]), 5.0);  // never ran: the median of 1, 3, 5 and 10 (the upper one)
    EXPECT_NE(costs.digest(), CostModel::built_in("quick").digest());

    Instance not_applicable = plan[0];
    not_applicable.applicable = false;
    EXPECT_EQ(costs.expected_seconds(not_applicable), 0.0);

    std::ofstream(report) << "{\"predicate\": {}}";
    EXPECT_THROW(CostModel::from_report(report), std::runtime_error);
    EXPECT_THROW(CostModel::from_report(report.string() + ".absent"), std::runtime_error);
}

TEST(AssignShards, EveryInstanceInExactlyOneShardTheSameEachTime) {
    const auto plan = plan_of("strict", "quick");
    const CostModel costs = CostModel::built_in("quick");
    for (const int count : {1, 2, 3, 4, 7, 64, 1000}) {
        const auto shards = assign_shards(plan, costs, count);
        ASSERT_EQ(shards.size(), static_cast<std::size_t>(count));
        std::vector<int> seen(plan.size(), 0);
        for (const auto& members : shards) {
            EXPECT_TRUE(std::is_sorted(members.begin(), members.end()));
            for (const ShardMember& m : members) {
                EXPECT_EQ(m.parts, 1u);  // nothing splits without a splits predicate
                ++seen[m.instance];
            }
        }
        EXPECT_TRUE(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; })) << count << " shards";
        EXPECT_EQ(shards, assign_shards(plan, costs, count));
    }
}

TEST(AssignShards, BalancedByExpectedCostNotByCount) {
    const auto plan = plan_of("core", "full");
    const CostModel costs = CostModel::built_in("full");
    double total = 0, largest = 0;
    for (const auto& i : plan) {
        total += costs.expected_seconds(i);
        largest = std::max(largest, costs.expected_seconds(i));
    }
    for (const int count : {2, 4, 8}) {
        const auto shards = assign_shards(plan, costs, count);
        std::vector<double> load;
        for (const auto& members : shards) {
            double s = 0;
            for (const ShardMember& m : members) s += expected_seconds(m, plan, costs);
            load.push_back(s);
        }
        const double longest = *std::max_element(load.begin(), load.end());
        // Greedy longest-first: no shard exceeds the mean by more than one instance.
        EXPECT_LE(longest, total / count + largest) << count;
        // Cutting the plan into equal counts in plan order would put the
        // unary sweeps together; the cut by cost must beat it.
        double count_longest = 0;
        const std::size_t per = (plan.size() + count - 1) / count;
        for (std::size_t start = 0; start < plan.size(); start += per) {
            double s = 0;
            for (std::size_t i = start; i < std::min(plan.size(), start + per); ++i) s += costs.expected_seconds(plan[i]);
            count_longest = std::max(count_longest, s);
        }
        EXPECT_LT(longest, count_longest) << count;
    }
}

// With sweeps that split, an instance longer than a shard's fair share is
// cut into parts that cover it once (parts 0..N-1, N at most the shard
// count, each in one shard); the longest shard then stays within the fair
// share plus the largest member, where whole instances left it at the
// longest sweep (gelu f32 at full: about 2557 s).
TEST(AssignShards, SweepsLongerThanTheFairShareAreCutIntoParts) {
    const auto plan = plan_of("core", "full");
    const CostModel costs = CostModel::built_in("full");
    const auto splits = [](const Instance& i) {
        return (i.contract->id == "C-CMP-01" && i.op->id == "unary") || (i.contract->id == "C-PRC-04" && i.op->id == "cast");
    };
    double total = 0, longest_instance = 0;
    for (const auto& i : plan) {
        total += costs.expected_seconds(i);
        longest_instance = std::max(longest_instance, costs.expected_seconds(i));
    }
    for (const int count : {4, 16, 64}) {
        const auto shards = assign_shards(plan, costs, count, splits);
        EXPECT_EQ(shards, assign_shards(plan, costs, count, splits));
        std::map<std::size_t, std::vector<std::uint64_t>> parts_of;
        std::map<std::size_t, std::uint64_t> cut_in;
        double longest = 0, largest_member = 0;
        for (const auto& members : shards) {
            double load = 0;
            std::set<std::size_t> here;
            for (const ShardMember& m : members) {
                EXPECT_TRUE(here.insert(m.instance).second) << "two parts of " << plan[m.instance].id << " in one shard";
                parts_of[m.instance].push_back(m.part);
                cut_in[m.instance] = m.parts;
                load += expected_seconds(m, plan, costs);
                largest_member = std::max(largest_member, expected_seconds(m, plan, costs));
                if (m.parts > 1) {
                    EXPECT_TRUE(splits(plan[m.instance])) << plan[m.instance].id;
                    EXPECT_GT(costs.expected_seconds(plan[m.instance]), total / count) << plan[m.instance].id;
                    EXPECT_LE(m.parts, static_cast<std::uint64_t>(count));
                }
            }
            longest = std::max(longest, load);
        }
        ASSERT_EQ(parts_of.size(), plan.size()) << count;
        for (auto& [instance, parts] : parts_of) {
            std::sort(parts.begin(), parts.end());
            ASSERT_EQ(parts.size(), cut_in[instance]) << plan[instance].id;
            for (std::uint64_t p = 0; p < parts.size(); ++p) EXPECT_EQ(parts[p], p) << plan[instance].id;
        }
        const std::size_t gelu = static_cast<std::size_t>(
            std::find_if(plan.begin(), plan.end(), [](const Instance& i) { return i.id == "v1/C-CMP-01/unary.gelu/f32-f32/shapes-sweep"; }) -
            plan.begin());
        ASSERT_LT(gelu, plan.size());
        EXPECT_GT(cut_in[gelu], 1u) << count;
        EXPECT_LE(longest, total / count + largest_member) << count;
        EXPECT_LT(longest, longest_instance) << count;
    }
}

TEST(LongestFirst, RunsTheMostExpensiveFirstAndKeepsPlanOrderOnTies) {
    const auto plan = plan_of("core", "full");
    const CostModel costs = CostModel::built_in("full");
    const auto order = longest_first(plan, costs);
    ASSERT_EQ(order.size(), plan.size());
    for (std::size_t k = 1; k < order.size(); ++k) {
        const double before = costs.expected_seconds(plan[order[k - 1]]), now = costs.expected_seconds(plan[order[k]]);
        EXPECT_GE(before, now);
        EXPECT_TRUE(before != now || order[k - 1] < order[k]);
    }
}

}  // namespace
}  // namespace kcs::harness
