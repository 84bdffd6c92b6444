// kcs certify and kcs run, run as a vendor runs them: the report they
// write (checked against its schema by python3-jsonschema), its repro
// lines, exit codes, and an interrupted run.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "kcs/harness/figures.hpp"

extern char** environ;

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

struct Outcome {
    int exit_code;
    std::string out, err;
};

std::string slurp(const fs::path& path) {
    std::ifstream in(path);
    return std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A fresh folder per test, removed at the end.
class CertifyCli : public ::testing::Test {
protected:
    void SetUp() override {
        const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
        dir_ = fs::path(::testing::TempDir()) / ("kcs-certify-cli-" + std::to_string(::getpid()) + "-" + test->name());
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override {
        if (!HasFailure()) fs::remove_all(dir_);
    }

    // Runs a shell command line (kcs and its arguments, already quoted).
    Outcome shell(const std::string& command_line) {
        const std::string command = command_line + " >" + (dir_ / "out").string() + " 2>" + (dir_ / "err").string();
        const int status = std::system(command.c_str());
        return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(dir_ / "out"), slurp(dir_ / "err")};
    }
    Outcome kcs(const std::string& args) { return shell(std::string(KCS_BINARY) + " " + args); }

    // The schema check and the summary-against-instances check of reports/tests/validate_report.py.
    Outcome validate(const fs::path& report) {
        return shell(std::string(KCS_PYTHON3) + " " + KCS_REPORT_VALIDATOR + " " + KCS_REPORT_SCHEMA + " " +
                     report.string());
    }

    fs::path dir_;
};

Json read_json(const fs::path& file) { return Json::parse(slurp(file)); }

bool failing(const Json& verdict) {
    return verdict == "FAIL" || verdict == "CRASH" || verdict == "TIMEOUT" || verdict == "ERROR";
}

// The line "verdict   X" of kcs run's output.
std::string verdict_line(const std::string& out) {
    const auto at = out.find("\nverdict   ");
    if (at == std::string::npos) return {};
    const auto start = at + 11;
    const auto end = out.find_first_of(" \n", start);
    return out.substr(start, end - start);
}

TEST_F(CertifyCli, ReduceMaxAtSmokeDepthWritesAValidReportWhoseReproLinesReplay) {
    const fs::path out = dir_ / "report";
    const Outcome r = kcs("certify --adapter reference-cpu --depth smoke --op reduce_max --out " + out.string());
    // Which of the two depends on the probes the suites have so far.
    ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.exit_code << "\n" << r.out << r.err;
    ASSERT_TRUE(fs::exists(out / "report.json")) << r.out << r.err;
    const Outcome valid = validate(out / "report.json");
    EXPECT_EQ(valid.exit_code, 0) << valid.out << valid.err;

    const Json report = read_json(out / "report.json");
    const Json& p = report["predicate"];
    EXPECT_EQ(report["predicateType"], "urn:kcs:predicate:conformance-report:v1");
    EXPECT_EQ(p["complete"], true);
    EXPECT_EQ(p["signed"], false);
    EXPECT_EQ(p["operators"], Json::array({"reduce_max"}));
    ASSERT_FALSE(p["instances"].empty());
    for (const auto& i : p["instances"]) {
        EXPECT_EQ(i["operator"], "reduce_max") << i["id"];
        ASSERT_FALSE(i["verdict"].is_null()) << i["id"];
        for (const auto& c : i["cases"]) {
            if (!failing(c["verdict"])) continue;
            EXPECT_TRUE(c["repro"].get<std::string>().starts_with("kcs run --adapter reference-cpu ")) << c["repro"];
        }
    }
    const Json& profile = p["summary"]["profile"];
    const Json& counts = profile["counts"];
    EXPECT_EQ(counts["planned"], p["instances"].size());
    EXPECT_EQ(counts["applicable"].get<int>(), counts["planned"].get<int>() - counts["not_applicable"].get<int>());
    EXPECT_DOUBLE_EQ(profile["coverage"].get<double>(),
                     counts["executed"].get<double>() / counts["applicable"].get<double>());
    if (counts["executed"] != 0) {
        EXPECT_DOUBLE_EQ(profile["pass_rate"].get<double>(),
                         counts["pass"].get<double>() / counts["executed"].get<double>());
    }
    EXPECT_EQ(r.exit_code == 0, profile["verdict"] == "CONFORMANT");
    EXPECT_NE(r.out.find("profile core: " + profile["verdict"].get<std::string>()), std::string::npos) << r.out;
    EXPECT_NE(r.out.find((out / "report.json").string()), std::string::npos) << r.out;
    // Off a terminal, a whole line per instance with its count, and the end (tools/kcs/live_display.hpp).
    const std::string n = std::to_string(p["instances"].size());
    EXPECT_NE(r.out.find("\n[" + std::string(n.size() - 1, ' ') + "1/" + n + "] "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\n[" + n + "/" + n + "] done in "), std::string::npos) << r.out;

    // No local folder of this checkout in the report's subjects or replay
    // lines: "${KCS_ROOT}/..." (tools/kcs/kcs_root.hpp), which kcs expands.
    for (const auto& s : report["subject"]) {
        const std::string path = s["annotations"]["path"];
        EXPECT_TRUE(path.starts_with("${KCS_ROOT}/")) << path;
    }
    for (const auto& i : p["instances"])
        for (const auto& c : i["cases"]) {
            const std::string repro = c["repro"];
            EXPECT_EQ(repro.find(KCS_SOURCE_DIR), std::string::npos) << repro;
            EXPECT_NE(repro.find(" --claims '${KCS_ROOT}/vendors/reference-cpu/claims.yaml' "), std::string::npos)
                << repro;
        }

    // Replay one case of each verdict the report has: kcs run prints the same verdict.
    std::set<std::string> replayed;
    for (const auto& i : p["instances"]) {
        if (i["cases"].empty() || !replayed.insert(i["verdict"].get<std::string>()).second) continue;
        const Json& c = i["cases"][i["worst_case"].get<std::size_t>()];
        const std::string repro = c["repro"];
        ASSERT_TRUE(repro.starts_with("kcs ")) << repro;
        SCOPED_TRACE(repro);
        const Outcome replay = shell("cd / && " + std::string(KCS_BINARY) + repro.substr(3));  // from any folder
        EXPECT_EQ(verdict_line(replay.out), c["verdict"]) << replay.out << replay.err;
        EXPECT_EQ(replay.exit_code, failing(c["verdict"]) ? 1 : 0) << replay.out << replay.err;
        const Outcome json = shell(std::string(KCS_BINARY) + repro.substr(3) + " --json");
        const Json replayed_case = Json::parse(json.out);
        EXPECT_EQ(replayed_case["verdict"], c["verdict"]);
        EXPECT_EQ(replayed_case["repro"], repro);
        EXPECT_EQ(replayed_case["evidence"]["figure_name"], c["evidence"]["figure_name"]);
        // The report records a figure by its one name, and kcs run shows it by that name.
        const std::string figure = c["evidence"]["figure_name"];
        ASSERT_NE(kcs::harness::find_figure(figure), nullptr) << figure;
        EXPECT_EQ(figure, kcs::harness::find_figure(figure)->name);
        const auto evidence_at = replay.out.find("\nevidence  ");
        ASSERT_NE(evidence_at, std::string::npos) << replay.out;
        const std::string evidence_line = replay.out.substr(evidence_at, replay.out.find('\n', evidence_at + 1) - evidence_at);
        EXPECT_NE(evidence_line.find(figure), std::string::npos) << evidence_line;
        EXPECT_NE(evidence_line.find(kcs::harness::figure_meaning(figure)), std::string::npos) << evidence_line;
    }
    EXPECT_FALSE(replayed.empty());
}

TEST_F(CertifyCli, ParallelJobsGiveTheSameVerdicts) {
    const Outcome one =
        kcs("certify --adapter reference-cpu --depth smoke --op reduce_max --out " + (dir_ / "one").string());
    const Outcome two =
        kcs("certify --adapter reference-cpu --depth smoke --op reduce_max --jobs 3 --out " + (dir_ / "two").string());
    ASSERT_EQ(one.exit_code, two.exit_code) << one.out << two.out << two.err;
    const Json a = read_json(dir_ / "one" / "report.json")["predicate"];
    const Json b = read_json(dir_ / "two" / "report.json")["predicate"];
    ASSERT_EQ(a["instances"].size(), b["instances"].size());
    for (std::size_t i = 0; i < a["instances"].size(); ++i) {
        EXPECT_EQ(a["instances"][i]["id"], b["instances"][i]["id"]);
        EXPECT_EQ(a["instances"][i]["verdict"], b["instances"][i]["verdict"]) << a["instances"][i]["id"];
    }
    EXPECT_EQ(b["limits"]["jobs"], 3);
    EXPECT_EQ(a["summary"]["profile"], b["summary"]["profile"]);
}

// An adapter that offers matmul alone, with no claims file: matmul is
// judged, everything else is UNSUPPORTED, no PASS lacks a judgement, and
// the claims about operators it declines (oob_policy for gather, masked_row
// for softmax and attention) are not needed, so the profile is CONFORMANT.
TEST_F(CertifyCli, AnAdapterOfferingOnlyMatmulIsConformantWithTheRestUnsupported) {
    const fs::path out = dir_ / "report";
    const Outcome r = kcs("certify --adapter " + std::string(KCS_MATMUL_ONLY_ADAPTER) + " --depth smoke --out " +
                          out.string());
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    const Outcome valid = validate(out / "report.json");
    EXPECT_EQ(valid.exit_code, 0) << valid.out << valid.err;
    const Json p = read_json(out / "report.json")["predicate"];
    const Json& profile = p["summary"]["profile"];
    EXPECT_EQ(profile["verdict"], "CONFORMANT") << profile.dump(2);
    for (const auto& reason : profile["reasons"])
        EXPECT_EQ(reason.get<std::string>().find("partial support"), std::string::npos) << reason;
    std::size_t matmul_passed = 0;
    for (const auto& i : p["instances"]) {
        if (!i["applicable"].get<bool>()) continue;
        if (i["operator"] != "matmul") {
            EXPECT_EQ(i["verdict"], "UNSUPPORTED") << i["id"];
            continue;
        }
        EXPECT_EQ(i["verdict"], "PASS") << i["id"];
        matmul_passed += i["verdict"] == "PASS";
        for (const auto& c : i["cases"]) {
            EXPECT_GE(c["evidence"]["adapter_calls"].get<int>(), 1) << i["id"];
            EXPECT_GE(c["evidence"]["judged"]["count"].get<int>(), 1) << i["id"];
        }
    }
    EXPECT_GT(matmul_passed, 0u);
    EXPECT_EQ(p["adapter"]["declined_operators"].size(), 10u)
        << p["adapter"]["declined_operators"];
    EXPECT_TRUE(p["claims"]["not_needed"].contains("oob_policy")) << p["claims"].dump(2);
    EXPECT_TRUE(p["claims"]["not_needed"].contains("masked_row")) << p["claims"].dump(2);
    EXPECT_TRUE(profile["rejected_claims"].empty()) << profile.dump(2);
    EXPECT_NE(r.out.find("claim     oob_policy not needed: the adapter declines every configuration of gather"),
              std::string::npos)
        << r.out;
}

// The same adapter offering gather would need its oob_policy: reference-cpu
// with every claim at its default is NON-CONFORMANT for oob_policy undefined.
TEST_F(CertifyCli, AnAdapterOfferingGatherNeedsItsOobPolicy) {
    const fs::path claims = dir_ / "claims.yaml";
    std::ofstream(claims) << "masked_row: nan\n";
    const Outcome r = kcs("certify --adapter reference-cpu --depth smoke --op matmul --claims " + claims.string() +
                          " --out " + (dir_ / "report").string());
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    const Json p = read_json(dir_ / "report" / "report.json")["predicate"];
    EXPECT_TRUE(p["claims"]["not_needed"].empty()) << p["claims"].dump(2);
    ASSERT_EQ(p["summary"]["profile"]["rejected_claims"].size(), 1u) << p["summary"]["profile"].dump(2);
    EXPECT_EQ(p["summary"]["profile"]["rejected_claims"][0]["id"], "oob_policy");
}

// A CI job's expected failures (deqp-runner's --baseline and --flakes): the
// violator's failures listed, one of them as a flake, make the run exit 0
// and list them; one left out makes it exit 1, naming it; a bad line exits
// 2 with FILE:LINE before anything runs.
TEST_F(CertifyCli, ABaselineOfEveryFailurePassesCiAndANewFailureDoesNot) {
    const std::string run =
        "certify --adapter calibration --option violation=nan-dropping-max --depth smoke --op reduce_max --out ";
    const Outcome first = kcs(run + (dir_ / "first").string());
    ASSERT_EQ(first.exit_code, 1) << first.out << first.err;
    std::vector<std::pair<std::string, std::string>> failing;  // id, verdict
    const Json report = read_json(dir_ / "first" / "report.json");
    for (const auto& i : report["predicate"]["instances"]) {
        const std::string verdict = i["verdict"];
        if (verdict != "PASS" && verdict != "UNSUPPORTED" && verdict != "NOT_APPLICABLE")
            failing.emplace_back(i["id"], verdict);
    }
    ASSERT_GE(failing.size(), 2u);
    {
        std::ofstream baseline(dir_ / "baseline.txt");
        baseline << "# the violator's known failures\n";
        for (std::size_t k = 1; k < failing.size(); ++k) baseline << failing[k].first << "," << failing[k].second << "\n";
        std::ofstream(dir_ / "flakes.txt") << failing[0].first << "\n";
    }
    const std::string lists = " --baseline " + (dir_ / "baseline.txt").string();
    const Outcome expected = kcs(run + (dir_ / "second").string() + lists + " --flakes " + (dir_ / "flakes.txt").string());
    EXPECT_EQ(expected.exit_code, 0) << expected.out << expected.err;
    EXPECT_NE(expected.out.find("expected failures: " + std::to_string(failing.size() - 1) +
                                " as the baseline lists, 1 flaky, 0 unexpected, 0 listed but passed"),
              std::string::npos)
        << expected.out;
    EXPECT_NE(expected.out.find("    " + failing[1].first + ": " + failing[1].second + "\n"), std::string::npos);

    const Outcome unexpected = kcs(run + (dir_ / "third").string() + lists);
    EXPECT_EQ(unexpected.exit_code, 1) << unexpected.out << unexpected.err;
    EXPECT_NE(unexpected.out.find("unexpected (not in the baseline):\n    " + failing[0].first + ": " + failing[0].second),
              std::string::npos)
        << unexpected.out;
    EXPECT_EQ(read_json(dir_ / "third" / "report.json")["predicate"]["summary"]["profile"]["verdict"],
              "NON-CONFORMANT");

    std::ofstream(dir_ / "bad.txt") << failing[0].first << ",SLOW\n";
    const Outcome bad = kcs(run + (dir_ / "fourth").string() + " --baseline " + (dir_ / "bad.txt").string());
    EXPECT_EQ(bad.exit_code, 2);
    EXPECT_NE(bad.err.find((dir_ / "bad.txt").string() + ":1: verdict 'SLOW'"), std::string::npos) << bad.err;
    EXPECT_FALSE(fs::exists(dir_ / "fourth"));
}

// --include and --exclude plan only the matching instances; the report
// records the patterns, so that kcs verify makes the same plan again; a
// pattern that selects nothing is a usage error.
TEST_F(CertifyCli, IncludeAndExcludeRestrictThePlanAndTheReportVerifies) {
    ASSERT_EQ(kcs("keygen --out " + (dir_ / "k").string() + " --development").exit_code, 0);
    const Outcome r = kcs("certify --adapter reference-cpu --depth smoke --op reduce_max --include 'v1/C-EXC-0*' "
                          "--exclude '*bf16*' --key " + (dir_ / "k.key").string() + " --out " + (dir_ / "report").string());
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const Json report = read_json(dir_ / "report" / "report.json");
    const Json& p = report["predicate"];
    ASSERT_FALSE(p["instances"].empty());
    for (const auto& i : p["instances"]) {
        const std::string id = i["id"];
        EXPECT_TRUE(id.starts_with("v1/C-EXC-0") && id.find("bf16") == std::string::npos) << id;
    }
    EXPECT_EQ(p["filter"]["include"], Json::array({"v1/C-EXC-0*"}));
    EXPECT_EQ(p["filter"]["exclude"], Json::array({"*bf16*"}));
    const std::string certificate = p["summary"]["certificate"].dump();
    EXPECT_NE(certificate.find("restricted to some instances (--include, --exclude)"), std::string::npos) << certificate;
    const Outcome verified =
        kcs("verify " + (dir_ / "report" / "report.dsse.json").string() + " --pubkey " + (dir_ / "k.pub").string());
    EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;

    const Outcome typo = kcs("certify --adapter reference-cpu --depth smoke --include 'v1/C-EXC-9*' --out " +
                             (dir_ / "typo").string());
    EXPECT_EQ(typo.exit_code, 2);
    EXPECT_NE(typo.err.find("--include 'v1/C-EXC-9*': error: matches no instance of the plan"), std::string::npos)
        << typo.err;
    EXPECT_FALSE(fs::exists(dir_ / "typo"));
}

TEST_F(CertifyCli, AnUnknownProfileExitsTwoAndWritesNothing) {
    const Outcome r = kcs("certify --adapter reference-cpu --profile cor --out " + (dir_ / "report").string());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown profile 'cor'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("did you mean 'core'?"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "report"));
}

TEST_F(CertifyCli, AnUnusableAdapterExitsTwoWithTheLoadersMessage) {
    const Outcome missing = kcs("certify --adapter no-such-adapter --out " + (dir_ / "report").string());
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("libkcs-adapter-no-such-adapter.so is in none of"), std::string::npos) << missing.err;
    const Outcome refused = kcs("certify --adapter reference-cpu --option bogus=1 --out " + (dir_ / "report").string());
    EXPECT_EQ(refused.exit_code, 2);
    EXPECT_NE(refused.err.find("unknown option 'bogus'"), std::string::npos) << refused.err;
    EXPECT_FALSE(fs::exists(dir_ / "report"));
}

// A flush or a contraction counts only where the profile accepts the claim
// (spec/SPEC.md section 4): the calibration conformers that flush and that
// contract, with those claims, PASS under core and FAIL under strict,
// which refuses both claims and judges as preserve and off.
TEST_F(CertifyCli, StrictJudgesAClaimItRefusesAsTheValueItAccepts) {
    std::ofstream(dir_ / "claims.yaml") << "subnormals: flush\nfp_contract: \"on\"\n";
    const std::string claims = " --claims " + (dir_ / "claims.yaml").string();
    struct Case {
        const char* conformer;
        const char* id;
    };
    for (const Case& c : {Case{"ftz", "v1/C-CMP-02/cast/f32-f16/shapes-sweep"},
                          Case{"fma", "v1/C-CMP-03/elementwise.mul_add/f32xf32xf32-f32/shapes-sweep"}}) {
        for (const char* profile : {"core", "strict"}) {
            const Outcome r = kcs(std::string("run --adapter calibration --option conforming=") + c.conformer + claims +
                                  " --profile " + profile + " --depth smoke --case " + c.id + " --seed 1");
            EXPECT_EQ(verdict_line(r.out), std::string(profile) == "core" ? "PASS" : "FAIL")
                << c.conformer << " under " << profile << ":\n" << r.out << r.err;
        }
    }
}

TEST_F(CertifyCli, RunOfAnUnknownCaseExitsTwoWithTheClosestId) {
    const Outcome r =
        kcs("run --adapter reference-cpu --depth smoke --case v1/C-ORD-02/reduce_maxx/f32-f32/shapes-sweep --seed 1");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("no instance 'v1/C-ORD-02/reduce_maxx/f32-f32/shapes-sweep'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("did you mean 'v1/C-ORD-02/reduce_max/f32-f32/shapes-sweep'?"), std::string::npos) << r.err;
}

TEST_F(CertifyCli, RunNeedsACaseAndASeed) {
    EXPECT_EQ(kcs("run --adapter reference-cpu --seed 1").exit_code, 2);
    EXPECT_EQ(kcs("run --adapter reference-cpu --case v1/C-ORD-02/reduce_max/f32-f32/shapes-sweep").exit_code, 2);
}

TEST_F(CertifyCli, AnInterruptedRunLeavesAnIncompleteReport) {
    const fs::path out = dir_ / "report";
    const std::string out_arg = out.string(), log = (dir_ / "log").string();
    std::vector<std::string> args{KCS_BINARY, "certify",    "--adapter", "reference-cpu", "--depth", "smoke",
                                  "--op",     "reduce_max", "--op",      "reduce_sum",    "--out",   out_arg};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
    pid_t pid = -1;
    ASSERT_EQ(posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ), 0);
    posix_spawn_file_actions_destroy(&actions);

    // The first report is written before any case runs, after the handler is in place.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!fs::exists(out / "report.json") && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::this_thread::sleep_for(std::chrono::seconds(1));
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid)
        GTEST_SKIP() << "the run ended within a second; no plan is slow enough to interrupt\n" << slurp(log);
    ASSERT_EQ(::kill(pid, SIGINT), 0);
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);

    ASSERT_TRUE(WIFEXITED(status)) << "kcs died of a signal\n" << slurp(log);
    EXPECT_EQ(WEXITSTATUS(status), 1) << slurp(log);
    EXPECT_NE(slurp(log).find("interrupted by signal 2"), std::string::npos) << slurp(log);
    const Outcome valid = validate(out / "report.json");
    EXPECT_EQ(valid.exit_code, 0) << valid.out << valid.err;
    const Json p = read_json(out / "report.json")["predicate"];
    EXPECT_EQ(p["complete"], false);
    EXPECT_EQ(p["state"], "interrupted");
    EXPECT_EQ(p["summary"]["profile"]["verdict"] == "CONFORMANT", false);
    std::size_t missing = 0;
    for (const auto& i : p["instances"]) missing += i["applicable"].get<bool>() && i["verdict"].is_null();
    EXPECT_GT(missing, 0u);
    EXPECT_EQ(p["summary"]["profile"]["counts"]["missing"], missing);
}

}  // namespace
