// The Statement's shape, numbers JSON lacks, repro commands, atomic writes.
#include "kcs/reports/report.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "kcs/reports/environment.hpp"
#include "kcs/reports/report_file.hpp"
#include "report_test_support.hpp"

namespace kcs::reports {
namespace {

using harness::Verdict;

ReportTimes times() {
    return {std::chrono::system_clock::time_point(std::chrono::seconds(1700000003)), std::chrono::seconds(3),
            std::chrono::seconds(2)};
}

TEST(Report, IsAnInTotoStatementWithTheProjectsOwnPredicateType) {
    auto t = testing::plan_of("reduce_max");
    testing::pass_everything(t.run);
    const Json r = build_report(testing::description_of(t), t.run, RunState::finished, times());
    EXPECT_EQ(r["_type"], "https://in-toto.io/Statement/v1");
    EXPECT_EQ(r["predicateType"], "urn:kcs:predicate:conformance-report:v1");
    const Json& p = r["predicate"];
    EXPECT_EQ(p["signed"], false);
    EXPECT_EQ(p["complete"], true);
    EXPECT_EQ(p["state"], "finished");
    EXPECT_EQ(p["started"], "2023-11-14T22:13:20.000Z");
    EXPECT_EQ(p["spec"]["digest"], spec::catalog_digest(testing::catalog()));
    EXPECT_EQ(p["instances"].size(), t.run.plan.size());
    EXPECT_EQ(p["summary"]["profile"]["verdict"], "CONFORMANT");
    EXPECT_EQ(p["summary"]["certificate"]["granted"], false);
    EXPECT_EQ(p["summary"]["time"]["total_s"], 3.0);
    EXPECT_EQ(p["summary"]["time"]["outside_cases_s"], 1.0);
}

TEST(Report, MissingInstancesHaveANullVerdictAndTheRunIsIncomplete) {
    auto t = testing::plan_of("reduce_max");
    t.run.results[0] = testing::result_with(t.run.plan[0], {Verdict::pass, Verdict::pass});
    const Json r = build_report(testing::description_of(t), t.run, RunState::interrupted, times());
    const Json& p = r["predicate"];
    EXPECT_EQ(p["complete"], false);
    EXPECT_EQ(p["state"], "interrupted");
    EXPECT_EQ(p["instances"][0]["verdict"], "PASS");
    EXPECT_TRUE(p["instances"][1]["verdict"].is_null());
    EXPECT_TRUE(p["instances"][1]["cases"].empty());
    EXPECT_EQ(p["summary"]["profile"]["verdict"], "INCOMPLETE");
    EXPECT_EQ(p["summary"]["profile"]["counts"]["missing"], t.run.plan.size() - 1);
}

TEST(Report, EveryCaseCarriesTheCommandThatReplaysIt) {
    auto t = testing::plan_of("reduce_max");
    testing::pass_everything(t.run);
    t.run.results[3] = testing::result_with(t.run.plan[3], {Verdict::pass, Verdict::fail});
    const Json r = build_report(testing::description_of(t), t.run, RunState::finished, times());
    const Json& instance = r["predicate"]["instances"][3];
    const std::string expected =
        "kcs run --adapter reference-cpu --option threads=2 --claims /v/claims.yaml "
        "--profile core --depth smoke --case " +
        t.run.plan[3].id + " --seed 2";
    EXPECT_EQ(instance["cases"][1]["repro"], expected);
    EXPECT_EQ(instance["worst_case"], 1);
    EXPECT_EQ(instance["repro"], expected);
    EXPECT_EQ(instance["cases"][1]["violated_class"], t.run.plan[3].contract->id);
}

TEST(Report, NumbersJsonLacksAreStrings) {
    EXPECT_EQ(number_json(std::numeric_limits<double>::quiet_NaN()), "nan");
    EXPECT_EQ(number_json(std::numeric_limits<double>::infinity()), "inf");
    EXPECT_EQ(number_json(-std::numeric_limits<double>::infinity()), "-inf");
    EXPECT_EQ(number_json(1.5), 1.5);
    EXPECT_EQ(hex_float(3.0), "0x1.8p+1");
    EXPECT_EQ(hex_float(-0.0), "-0x0p+0");
}

TEST(Report, CaseEvidenceKeepsTheWorstElement) {
    harness::CaseRecord record;
    record.seed = 7;
    record.result.verdict = Verdict::fail;
    record.result.violated_class = "C-PRC-01";
    record.result.signature = "unmatched";
    record.result.evidence.figure_name = "max |err| / bound";
    record.result.evidence.figure = 2.5;
    record.result.evidence.bound = 1;
    record.result.evidence.worst = harness::WorstElement{4,        {"a[4]=0x3c00"},
                                                         1.0,      std::numeric_limits<double>::quiet_NaN(),
                                                         "0x7e00", std::numeric_limits<double>::infinity(),
                                                         0.5};
    const Json c = case_json(record, "kcs run ...");
    EXPECT_EQ(c["seed"], 7);
    EXPECT_EQ(c["verdict"], "FAIL");
    EXPECT_EQ(c["evidence"]["figure"], 2.5);
    EXPECT_EQ(c["evidence"]["worst"]["got"], "nan");
    EXPECT_EQ(c["evidence"]["worst"]["error"], "inf");
    EXPECT_EQ(c["evidence"]["worst"]["expected_hex"], "0x1p+0");
    EXPECT_EQ(c["evidence"]["worst"]["inputs"][0], "a[4]=0x3c00");
    // NaN never reaches the text as a bare token JSON parsers refuse.
    const std::string text = c.dump();
    EXPECT_EQ(text.find("NaN"), std::string::npos) << text;
    EXPECT_EQ(Json::parse(text)["evidence"]["worst"]["got"], "nan");
}

TEST(Repro, WordsAShellWouldSplitAreQuoted) {
    EXPECT_EQ(shell_quoted("reference-cpu"), "reference-cpu");
    EXPECT_EQ(shell_quoted("/a b/lib.so"), "'/a b/lib.so'");
    EXPECT_EQ(shell_quoted("it's"), "'it'\\''s'");
    EXPECT_EQ(shell_quoted(""), "''");
    const ReproCommand repro{"x", {}, "", "/spec dir", "strict", "full", 60};
    EXPECT_EQ(repro.line("v1/C-ORD-02/matmul/f32xf32-f32/default", 3),
              "kcs run --adapter x --spec '/spec dir' --profile strict --depth full --timeout 60 "
              "--case v1/C-ORD-02/matmul/f32xf32-f32/default --seed 3");
}

TEST(ReportFile, ReplacesTheFileWholeAndLeavesNoTemporary) {
    const std::filesystem::path dir =
        std::filesystem::path(::testing::TempDir()) / ("kcs-report-file-" + std::to_string(::getpid()));
    const auto file = dir / "sub" / "report.json";
    write_file_atomically(file, "first");
    write_file_atomically(file, "second");
    std::ifstream in(file);
    std::string text;
    std::getline(in, text);
    EXPECT_EQ(text, "second");
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir / "sub"), {}), 1);
    std::filesystem::remove_all(dir);
}

// A full disk, made by a file size limit in a child process (the write
// fails with EFBIG as it would with ENOSPC): the truncated temporary file
// is removed, the report already there is unchanged, and the message names
// the file and the bytes it needed.
TEST(ReportFile, AFailedWriteLeavesNoTemporaryAndKeepsTheFileThere) {
    const std::filesystem::path dir =
        std::filesystem::path(::testing::TempDir()) / ("kcs-report-full-" + std::to_string(::getpid()));
    const auto file = dir / "report.json";
    write_file_atomically(file, "the report already written");
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{4096, 4096};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        try {
            write_file_atomically(file, std::string(100000, 'x'));
        } catch (const std::exception& e) {
            const std::string what = e.what();
            const bool names_it = what.find("cannot write " + file.string()) != std::string::npos &&
                                  what.find("100000 bytes to write") != std::string::npos &&
                                  what.find("free on its file system") != std::string::npos &&
                                  what.find("report.json is unchanged") != std::string::npos;
            if (!names_it) std::fprintf(stderr, "message: %s\n", what.c_str());
            std::_Exit(names_it ? 0 : 3);
        }
        std::_Exit(4);  // the write must fail
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << "3: the message lacks the file or the space; 4: the write did not fail";
    EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), {}), 1);  // no report.json.tmp-PID
    std::ifstream in(file);
    std::string text;
    std::getline(in, text);
    EXPECT_EQ(text, "the report already written");
    std::filesystem::remove_all(dir);
}

TEST(Environment, KeepsOnlyTheSettingsThatSteerDevices) {
    EXPECT_TRUE(kcs_relevant_variable("POCL_DEVICES"));
    EXPECT_TRUE(kcs_relevant_variable("MESA_VK_DEVICE_SELECT"));
    EXPECT_TRUE(kcs_relevant_variable("KCS_ADAPTER_PATH"));
    EXPECT_FALSE(kcs_relevant_variable("HOME"));
    EXPECT_FALSE(kcs_relevant_variable("AWS_SECRET_ACCESS_KEY"));
    const Json env = capture_environment();
    EXPECT_TRUE(env["os"]["sysname"].is_string());
    EXPECT_FALSE(env["compiler"].get<std::string>().empty());
    EXPECT_FALSE(current_command_line().empty());
}

}  // namespace
}  // namespace kcs::reports
