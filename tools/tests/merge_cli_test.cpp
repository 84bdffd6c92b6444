// kcs certify --shard and kcs merge, run as a lab runs them: three shards
// of one run merge into the report an unsharded run of the same plan
// writes (the same verdicts and evidence), signed and verifiable; shards
// named by the environment are the shards --shard names; and every way the
// shards can fail to be one run is refused, naming the file at fault.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <stdlib.h>

#include "run_kcs.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using kcs::testing::Outcome;
using kcs::testing::run_kcs;
using kcs::testing::slurp;

// A plan with FAILs in it (the calibration adapter's NaN-dropping max), so
// that the merged summary has something to say.
const std::string kRun =
    "certify --adapter calibration --option violation=nan-dropping-max --depth smoke --op reduce_max";

Json read_json(const fs::path& file) { return Json::parse(slurp(file.string())); }
void write_json(const fs::path& file, const Json& json) { std::ofstream(file) << json.dump(2); }

// What differs between two runs of the same plan by nature: when and where
// they ran and how long each case took. Everything else must be equal.
Json without_times_and_places(Json statement) {
    Json& p = statement["predicate"];
    for (const char* key : {"invocation", "environment", "started", "ended", "merged_from", "limits"}) p.erase(key);
    p["summary"].erase("time");
    for (auto& instance : p["instances"]) {
        instance.erase("wall_s");
        instance.erase("adapter_s");
        for (auto& c : instance["cases"]) {
            c.erase("wall_s");
            c.erase("adapter_s");
        }
    }
    return statement;
}

class MergeCli : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = fs::path(::testing::TempDir()) / ("kcs-merge-cli-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        keygen_ = run_kcs("keygen --out " + path("lab") + " --label 'merge test' --development");
        whole_ = run_kcs(kRun + " --out " + path("whole"));
        for (int i = 0; i < 3; ++i)
            shards_[i] = run_kcs(kRun + " --shard " + std::to_string(i) + "/3 --out " + path("shard" + std::to_string(i)));
        merged_ = run_kcs("merge " + path("shard2") + " " + path("shard0/report.json") + " " + path("shard1") +
                          " --key " + path("lab.key") + " --out " + path("merged"));
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }

    static std::string path(const std::string& name) { return (dir_ / name).string(); }
    static Json report(const std::string& folder) { return read_json(dir_ / folder / "report.json"); }

    // kcs merge of these shard folders or files into a fresh folder, which
    // a refused merge must leave without a report.
    static Outcome merge(const std::vector<std::string>& shards, const std::string& out) {
        std::string args = "merge";
        for (const auto& s : shards) args.append(" ").append(path(s));
        const Outcome r = run_kcs(args + " --out " + path(out));
        EXPECT_FALSE(fs::exists(dir_ / out / "report.json")) << "a refused merge wrote " << out;
        return r;
    }

    static inline fs::path dir_;
    static inline Outcome keygen_, whole_, merged_;
    static inline Outcome shards_[3];
};

// reports/tests/validate_report.py: the schema, and the summary against the instances.
Outcome validate(const fs::path& report) {
    const std::string command = std::string(KCS_PYTHON3) + " " + KCS_REPORT_VALIDATOR + " " + KCS_REPORT_SCHEMA + " " +
                                report.string() + " 2>&1";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, command, ""};
}

TEST_F(MergeCli, ShardAndMergedReportsFollowTheSchema) {
    for (const std::string folder : {"shard0", "shard1", "shard2", "merged"}) {
        const Outcome v = validate(dir_ / folder / "report.json");
        EXPECT_EQ(v.exit_code, 0) << folder << ": " << v.out;
    }
}

TEST_F(MergeCli, EachShardRunsItsOwnPartAndSaysItIsNoCertificate) {
    ASSERT_EQ(whole_.exit_code, 1) << whole_.err;  // NON-CONFORMANT: the violation FAILs
    std::set<std::string> seen;
    std::size_t covered = 0;
    for (int i = 0; i < 3; ++i) {
        ASSERT_TRUE(shards_[i].exit_code == 0 || shards_[i].exit_code == 1) << shards_[i].err;
        EXPECT_NE(shards_[i].out.find("shard " + std::to_string(i) + " of 3 (--shard)"), std::string::npos)
            << shards_[i].out;
        const Json p = report("shard" + std::to_string(i))["predicate"];
        EXPECT_EQ(p["shard"]["index"], i);
        EXPECT_EQ(p["shard"]["count"], 3);
        EXPECT_EQ(p["shard"]["instances"], p["instances"].size());
        EXPECT_FALSE(p["instances"].empty());
        EXPECT_EQ(p["plan"], report("whole")["predicate"]["plan"]);
        EXPECT_EQ(p["summary"]["certificate"]["granted"], false);
        EXPECT_NE(p["summary"]["certificate"]["reasons"].dump().find("one shard (" + std::to_string(i) + " of 3)"),
                  std::string::npos);
        for (const auto& instance : p["instances"]) seen.insert(instance["id"].get<std::string>());
        covered += p["instances"].size();
    }
    EXPECT_EQ(covered, seen.size()) << "an instance ran in two shards";
    EXPECT_EQ(covered, report("whole")["predicate"]["instances"].size());
}

TEST_F(MergeCli, TheMergedReportIsTheUnshardedRunsInContent) {
    ASSERT_EQ(merged_.exit_code, 1) << merged_.out << merged_.err;  // NON-CONFORMANT, as the whole run
    EXPECT_NE(merged_.out.find("merged    3 shards"), std::string::npos) << merged_.out;
    const Json merged = report("merged"), whole = report("whole");
    EXPECT_FALSE(merged["predicate"].contains("shard"));
    EXPECT_EQ(merged["predicate"]["summary"]["profile"]["verdict"], "NON-CONFORMANT");
    EXPECT_GT(merged["predicate"]["summary"]["profile"]["counts"]["fail"], 0);

    // Signing is the one thing the merge adds: compare without it.
    Json unsigned_merged = without_times_and_places(merged), expected = without_times_and_places(whole);
    for (Json* s : {&unsigned_merged, &expected}) {
        (*s)["predicate"].erase("signed");
        (*s)["predicate"].erase("signer");
        (*s)["predicate"]["summary"]["certificate"]["reasons"].erase(0);  // "unsigned" / "development key"
    }
    EXPECT_EQ(unsigned_merged, expected) << "merged:\n"
                                         << unsigned_merged.dump(1).substr(0, 3000) << "\nwhole:\n"
                                         << expected.dump(1).substr(0, 3000);

    // Where each part came from.
    const Json& from = merged["predicate"]["merged_from"];
    ASSERT_EQ(from.size(), 3u);
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(from[i]["index"], i);
        EXPECT_EQ(from[i]["instances"], report("shard" + std::to_string(i))["predicate"]["instances"].size());
        EXPECT_EQ(from[i]["report"].get<std::string>().substr(0, 7), "sha256:");
    }
}

TEST_F(MergeCli, TheMergedReportIsSignedAndVerifies) {
    ASSERT_EQ(keygen_.exit_code, 0) << keygen_.err;
    ASSERT_TRUE(fs::exists(dir_ / "merged" / "report.dsse.json")) << merged_.out << merged_.err;
    EXPECT_EQ(report("merged")["predicate"]["signer"]["label"], "merge test");
    const Outcome v = run_kcs("verify " + path("merged/report.dsse.json") + " --pubkey " + path("lab.pub"));
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
    EXPECT_NE(v.out.find("ok      verdicts:"), std::string::npos) << v.out;
    EXPECT_NE(v.out.find("ok      plan: the 15 instances of the plan remade"), std::string::npos) << v.out;
    EXPECT_NE(v.out.find("ok      schema"), std::string::npos) << v.out;
}

// Environment variables for the kcs processes a test starts.
class ScopedEnvironment {
public:
    explicit ScopedEnvironment(std::vector<std::pair<std::string, std::string>> variables)
        : variables_(std::move(variables)) {
        for (const auto& [name, value] : variables_) ::setenv(name.c_str(), value.c_str(), 1);
    }
    ~ScopedEnvironment() {
        for (const auto& [name, value] : variables_) ::unsetenv(name.c_str());
    }

private:
    std::vector<std::pair<std::string, std::string>> variables_;
};

std::set<std::string> ids(const Json& statement) {
    std::set<std::string> out;
    for (const auto& i : statement["predicate"]["instances"]) out.insert(i["id"].get<std::string>());
    return out;
}

TEST_F(MergeCli, TheEnvironmentNamesTheSameShardsAsTheOption) {
    {
        const ScopedEnvironment slurm_array(
            {{"SLURM_ARRAY_TASK_ID", "2"}, {"SLURM_ARRAY_TASK_MIN", "1"}, {"SLURM_ARRAY_TASK_COUNT", "3"}});
        const Outcome slurm = run_kcs(kRun + " --out " + path("slurm"));
        ASSERT_NE(slurm.out.find("shard 1 of 3 (SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT)"), std::string::npos)
            << slurm.out << slurm.err;
        EXPECT_EQ(ids(report("slurm")), ids(report("shard1")));
    }
    const ScopedEnvironment gtest_sharding({{"GTEST_SHARD_INDEX", "0"}, {"GTEST_TOTAL_SHARDS", "3"}});
    const Outcome gtest = run_kcs(kRun + " --out " + path("gtest"));
    ASSERT_NE(gtest.out.find("shard 0 of 3 (GTEST_SHARD_INDEX/GTEST_TOTAL_SHARDS)"), std::string::npos)
        << gtest.out << gtest.err;
    EXPECT_EQ(ids(report("gtest")), ids(report("shard0")));

    // --shard 0/1 runs the whole plan whatever the environment says.
    const Outcome whole = run_kcs(kRun + " --shard 0/1 --out " + path("whole-again"));
    EXPECT_EQ(ids(report("whole-again")), ids(report("whole"))) << whole.out << whole.err;
    EXPECT_FALSE(report("whole-again")["predicate"].contains("shard"));
}

TEST_F(MergeCli, AMissingShardIsNamed) {
    const Outcome r = merge({"shard0", "shard2"}, "no-1");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("shard 1 of 3 missing"), std::string::npos) << r.err;
}

TEST_F(MergeCli, AShardGivenTwiceIsNamed) {
    fs::copy(dir_ / "shard1", dir_ / "shard1-copy");
    const Outcome r = merge({"shard0", "shard1", "shard1-copy", "shard2"}, "twice");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("are both shard 1 of 3"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("shard1-copy"), std::string::npos) << r.err;
}

TEST_F(MergeCli, AShardOfAnotherRunIsNamedWithWhatDiffers) {
    const Outcome other = run_kcs(kRun + " --seed 7 --shard 1/3 --out " + path("seed7"));
    ASSERT_NE(other.exit_code, 2) << other.err;
    const Outcome r = merge({"shard0", "seed7", "shard2"}, "foreign");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("seed7/report.json (shard 1 of 3): its seeds"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("not a shard of the same run"), std::string::npos) << r.err;

    const Outcome halves = run_kcs(kRun + " --shard 1/2 --out " + path("half"));
    const Outcome counts = merge({"shard0", "half", "shard2"}, "counts");
    EXPECT_EQ(counts.exit_code, 2);
    EXPECT_NE(counts.err.find("its shard count 2 differs"), std::string::npos) << counts.err;
}

TEST_F(MergeCli, AnUnfinishedOrWholeReportIsNoShardToMerge) {
    Json interrupted = report("shard1");
    interrupted["predicate"]["state"] = "interrupted";
    fs::create_directories(dir_ / "interrupted");
    write_json(dir_ / "interrupted" / "report.json", interrupted);
    const Outcome r = merge({"shard0", "interrupted", "shard2"}, "unfinished");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("the run did not finish"), std::string::npos) << r.err;

    const Outcome whole = merge({"whole"}, "from-whole");
    EXPECT_EQ(whole.exit_code, 2);
    EXPECT_NE(whole.err.find("not the report of a shard"), std::string::npos) << whole.err;

    const Outcome absent = merge({"shard0", "no-such-folder"}, "absent");
    EXPECT_EQ(absent.exit_code, 2);
    EXPECT_NE(absent.err.find("no-such-folder: cannot read"), std::string::npos) << absent.err;
}

TEST_F(MergeCli, AnInstanceInTwoShardsOrInNoneIsNamed) {
    // Shard 2 also lists one of shard 0's instances.
    Json doubled = report("shard2");
    const Json stolen = report("shard0")["predicate"]["instances"][0];
    doubled["predicate"]["instances"].push_back(stolen);
    doubled["predicate"]["shard"]["instances"] = doubled["predicate"]["instances"].size();
    fs::create_directories(dir_ / "doubled");
    write_json(dir_ / "doubled" / "report.json", doubled);
    const Outcome r = merge({"shard0", "shard1", "doubled"}, "doubled-out");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("instance " + stolen["id"].get<std::string>() + " is in both"), std::string::npos) << r.err;

    // Shard 1 lost an instance.
    Json short_one = report("shard1");
    const std::string lost = short_one["predicate"]["instances"][0]["id"];
    short_one["predicate"]["instances"].erase(0);
    short_one["predicate"]["shard"]["instances"] = short_one["predicate"]["instances"].size();
    fs::create_directories(dir_ / "short");
    write_json(dir_ / "short" / "report.json", short_one);
    const Outcome missing = merge({"shard0", "short", "shard2"}, "short-out");
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("1 instance(s) of the plan are in no shard:\n  " + lost), std::string::npos)
        << missing.err;
}

// An exhaustive sweep longer than a shard's share of the plan is cut into
// parts (here a cost report makes unary.tanh f16 nearly all of the plan's
// time): each of two shards runs one part of its chunks and keeps the
// part's tally, and kcs merge folds the tallies into the very record the
// unsharded run writes: the whole report equal but for times and places.
TEST(MergeSplitSweep, TwoShardsCutASweepAndTheMergeFoldsItIntoTheUnshardedRecord) {
    const fs::path dir = fs::path(::testing::TempDir()) / ("kcs-merge-split-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    ::setenv("KCS_SWEEP_CHUNK_ELEMENTS", "4096", 1);  // 16 chunks of the 63488 finite f16 inputs
    const std::string split = "v1/C-CMP-01/unary.tanh/f16-f16/shapes-sweep";
    Json costs = {{"predicate", {{"instances", Json::array()}}}};
    for (const auto& [id, seconds] : {std::pair<std::string, double>{split, 1000},
                                      {"v1/C-CMP-01/unary.exp/f16-f16/shapes-sweep", 0.01},
                                      {"v1/C-CMP-01/unary.log/f16-f16/shapes-sweep", 0.01}})
        costs["predicate"]["instances"].push_back({{"id", id}, {"wall_s", seconds}, {"verdict", "PASS"}});
    write_json(dir / "costs.json", costs);
    const std::string run = "certify --adapter reference-cpu --depth smoke --op unary";
    const Outcome whole = run_kcs(run + " --out " + (dir / "whole").string());
    ASSERT_EQ(whole.exit_code, 0) << whole.out << whole.err;
    const Outcome keygen = run_kcs("keygen --out " + (dir / "lab").string() + " --label 'split test' --development");
    ASSERT_EQ(keygen.exit_code, 0) << keygen.err;
    for (int i = 0; i < 2; ++i) {
        const Outcome shard = run_kcs(run + " --shard " + std::to_string(i) + "/2 --costs " + (dir / "costs.json").string() +
                                      " --key " + (dir / "lab.key").string() + " --out " +
                                      (dir / ("shard" + std::to_string(i))).string());
        ASSERT_EQ(shard.exit_code, 0) << shard.out << shard.err;
        const Json report = read_json(dir / ("shard" + std::to_string(i)) / "report.json");
        int parts = 0;
        for (const auto& instance : report["predicate"]["instances"]) {
            if (!instance.contains("sweep_part")) continue;
            ++parts;
            EXPECT_EQ(instance["id"], split);
            EXPECT_EQ(instance["sweep_part"], Json({{"index", i}, {"count", 2}}));
            const Json& part = instance["cases"][0]["evidence"]["details"]["sweep_timing"]["part"];
            const auto chunks = part["of"].get<std::uint64_t>();
            EXPECT_GT(chunks, 2u);
            EXPECT_EQ(part["chunks"], Json::array({i * chunks / 2, (i + 1) * chunks / 2}));
        }
        EXPECT_EQ(parts, 1) << "shard " << i;
    }
    // A shard's part reruns as that part: every judged case of shard 1, the
    // part's tally bit for bit (the sweeps' seconds aside).
    const Outcome rerun = run_kcs("verify " + (dir / "shard1" / "report.dsse.json").string() + " --pubkey " +
                                  (dir / "lab.pub").string() + " --adapter reference-cpu --rerun 1000");
    EXPECT_EQ(rerun.exit_code, 0) << rerun.out << rerun.err;
    EXPECT_NE(rerun.out.find("same    rerun " + split + " seed 1: PASS, evidence bit for bit"), std::string::npos)
        << rerun.out;
    const Outcome merged = run_kcs("merge " + (dir / "shard1").string() + " " + (dir / "shard0").string() + " --key " +
                                   (dir / "lab.key").string() + " --out " + (dir / "merged").string());
    ::unsetenv("KCS_SWEEP_CHUNK_ELEMENTS");
    ASSERT_EQ(merged.exit_code, 0) << merged.out << merged.err;
    const auto without_sweep_times = [](Json statement) {
        statement = without_times_and_places(statement);
        for (auto& instance : statement["predicate"]["instances"])
            for (auto& c : instance["cases"]) c["evidence"]["details"].erase("sweep_timing");
        return statement;
    };
    const Json folded = read_json(dir / "merged" / "report.json");
    for (const auto& instance : folded["predicate"]["instances"])
        if (instance["id"] == split) {
            EXPECT_FALSE(instance.contains("sweep_part"));
            EXPECT_EQ(instance["cases"][0]["evidence"]["details"]["sweep_timing"]["folded_parts"], 2);
            EXPECT_GT(instance["wall_s"].get<double>(), 0);
        }
    Json unsigned_folded = without_sweep_times(folded), expected = without_sweep_times(read_json(dir / "whole" / "report.json"));
    for (Json* s : {&unsigned_folded, &expected}) {
        (*s)["predicate"].erase("signed");
        (*s)["predicate"].erase("signer");
        (*s)["predicate"]["summary"]["certificate"]["reasons"].erase(0);  // "unsigned" / "development key"
    }
    EXPECT_EQ(unsigned_folded, expected);
    const Outcome verified =
        run_kcs("verify " + (dir / "merged" / "report.dsse.json").string() + " --pubkey " + (dir / "lab.pub").string());
    EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;

    // A part in no shard is named, and nothing is written.
    Json lacking = read_json(dir / "shard1" / "report.json");
    auto& instances = lacking["predicate"]["instances"];
    instances.erase(std::find_if(instances.begin(), instances.end(), [](const Json& i) { return i.contains("sweep_part"); }));
    lacking["predicate"]["shard"]["instances"] = instances.size();
    fs::create_directories(dir / "lacking");
    write_json(dir / "lacking" / "report.json", lacking);
    const Outcome without_part =
        run_kcs("merge " + (dir / "shard0").string() + " " + (dir / "lacking").string() + " --out " + (dir / "out").string());
    EXPECT_EQ(without_part.exit_code, 2);
    EXPECT_NE(without_part.err.find("part 1 of the 2 of " + split + " is in no shard"), std::string::npos) << without_part.err;
    EXPECT_FALSE(fs::exists(dir / "out" / "report.json"));
    fs::remove_all(dir);
}

}  // namespace
