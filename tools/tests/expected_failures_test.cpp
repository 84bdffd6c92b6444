// kcs certify --baseline and --flakes (tools/kcs/expected_failures.hpp):
// the files as read, with FILE:LINE for what cannot be, and how a report
// compares with them.
#include "expected_failures.hpp"

#include <gtest/gtest.h>

#include <fstream>

namespace kcs::cli {
namespace {

namespace fs = std::filesystem;

fs::path written(const std::string& name, const std::string& text) {
    const fs::path file = fs::path(::testing::TempDir()) / ("kcs-expected-" + name);
    std::ofstream(file) << text;
    return file;
}

reports::Json report_with(std::initializer_list<std::pair<const char*, reports::Json>> verdicts) {
    reports::Json instances = reports::Json::array();
    for (const auto& [id, verdict] : verdicts) instances.push_back({{"id", id}, {"verdict", verdict}});
    return {{"predicate", {{"instances", instances}}}};
}

TEST(ExpectedFailures, ReadsIdsVerdictsCommentsAndPatterns) {
    ExpectedFailures e;
    read_baseline(written("baseline", "# known\nv1/C-ACC-01/a,FAIL\n\n  v1/C-ACC-01/b  # any failure\n"), e);
    read_flakes(written("flakes", "v1/C-ORD-02/*\n"), e);
    ASSERT_EQ(e.baseline.size(), 2u);
    EXPECT_EQ(e.baseline[0].id, "v1/C-ACC-01/a");
    EXPECT_EQ(e.baseline[0].verdict, "FAIL");
    EXPECT_EQ(e.baseline[1].id, "v1/C-ACC-01/b");
    EXPECT_FALSE(e.baseline[1].verdict);
    EXPECT_EQ(e.baseline[1].where.substr(e.baseline[1].where.size() - 2), ":4");
    EXPECT_EQ(e.flakes, std::vector<std::string>{"v1/C-ORD-02/*"});
}

TEST(ExpectedFailures, ABadLineIsNamedByFileAndLine) {
    ExpectedFailures e;
    const fs::path file = written("bad", "v1/C-ACC-01/a\nv1/C-ACC-01/b,PASS\n");
    try {
        read_baseline(file, e);
        FAIL() << "a PASS in a baseline was read";
    } catch (const ExpectationFileError& error) {
        EXPECT_EQ(std::string(error.what()).rfind(file.string() + ":2: verdict 'PASS' is not one a baseline lists", 0),
                  0u)
            << error.what();
    }
    EXPECT_THROW(read_flakes(written("spaced", "a b\n"), e), ExpectationFileError);
    EXPECT_THROW(read_baseline(fs::path(::testing::TempDir()) / "kcs-no-such-baseline", e), ExpectationFileError);
}

TEST(ExpectedFailures, SortsEachFailureAndNamesWhatTheBaselineGotWrong) {
    ExpectedFailures e;
    read_baseline(written("mixed", "v1/x/failed,FAIL\nv1/x/crashed,FAIL\nv1/x/fixed\nv1/x/not-planned\n"), e);
    read_flakes(written("mixed-flakes", "v1/y/*\n"), e);
    const auto c = compare_with_expected(report_with({{"v1/x/failed", "FAIL"},
                                                      {"v1/x/crashed", "CRASH"},
                                                      {"v1/x/fixed", "PASS"},
                                                      {"v1/y/flaky", "TIMEOUT"},
                                                      {"v1/z/new", "FAIL"},
                                                      {"v1/z/unsupported", "UNSUPPORTED"},
                                                      {"v1/z/missing", nullptr}}),
                                         e);
    EXPECT_EQ(c.expected, std::vector<std::string>{"v1/x/failed: FAIL"});
    EXPECT_EQ(c.flaky, std::vector<std::string>{"v1/y/flaky: TIMEOUT"});
    ASSERT_EQ(c.unexpected.size(), 2u);
    EXPECT_EQ(c.unexpected[0].rfind("v1/x/crashed: CRASH, baseline FAIL (", 0), 0u) << c.unexpected[0];
    EXPECT_EQ(c.unexpected[1], "v1/z/new: FAIL");
    EXPECT_EQ(c.fixed, std::vector<std::string>{"v1/x/fixed"});
    EXPECT_EQ(c.missing, 1u);
    EXPECT_FALSE(c.passes());
    const std::string text = describe(c);
    EXPECT_NE(text.find("1 as the baseline lists, 1 flaky, 2 unexpected, 1 listed but passed, 1 without a verdict"),
              std::string::npos)
        << text;

    const auto clean = compare_with_expected(report_with({{"v1/x/failed", "FAIL"}, {"v1/x/crashed", "FAIL"},
                                                          {"v1/z/ok", "PASS"}, {"v1/y/flaky", "PASS"}}),
                                             e);
    EXPECT_TRUE(clean.passes()) << describe(clean);
}

}  // namespace
}  // namespace kcs::cli
