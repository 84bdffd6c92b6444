// kcs table, run as a user runs it, on reports kcs certify writes and
// signs: a conforming reduce_max run of reference-cpu and a NaN-dropping
// one of the calibration adapter.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "run_kcs.hpp"

namespace {

namespace fs = std::filesystem;
using kcs::testing::run_kcs;
using kcs::testing::slurp;
using Json = nlohmann::json;

class TableCli : public ::testing::Test {
protected:
    // Made once for every test here: a vendor's key and another, and two
    // small certifications signed with the vendor's (report.dsse.json,
    // beside the bare Statement report.json).
    static void SetUpTestSuite() {
        dir_ = fs::path(::testing::TempDir()) / ("kcs-table-cli-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        ready_ = run_kcs("keygen --label 'test vendor' --out " + (dir_ / "vendor").string()).exit_code == 0 &&
                 run_kcs("keygen --label other --out " + (dir_ / "other").string()).exit_code == 0 &&
                 // Exit 1: INCOMPLETE, C-ORD-03 on reduce_max being INCONCLUSIVE at smoke.
                 run_kcs("certify --adapter reference-cpu --depth smoke --op reduce_max --key " + key() + " --out " +
                         (dir_ / "ref").string())
                         .exit_code == 1 &&
                 // Exit 1: the run is NON-CONFORMANT, which is the point.
                 run_kcs(
                     "certify --adapter calibration --option violation=nan-dropping-max --depth smoke --op "
                     "reduce_max --key " +
                     key() + " --out " + (dir_ / "cal").string())
                         .exit_code == 1;
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }

    void SetUp() override { ASSERT_TRUE(ready_) << "kcs keygen or certify did not write their files in " << dir_; }

    static std::string key() { return (dir_ / "vendor.key").string(); }
    static std::string pub() { return (dir_ / "vendor.pub").string(); }
    static std::string other_pub() { return (dir_ / "other.pub").string(); }
    static std::string ref() { return (dir_ / "ref" / "report.json").string(); }
    static std::string cal() { return (dir_ / "cal" / "report.json").string(); }
    static std::string signed_ref() { return (dir_ / "ref" / "report.dsse.json").string(); }
    static std::string signed_cal() { return (dir_ / "cal" / "report.dsse.json").string(); }
    static fs::path dir() { return dir_; }

private:
    static inline fs::path dir_;
    static inline bool ready_ = false;
};

// The line of a Markdown table that starts with `start`.
std::string line_starting(const std::string& text, const std::string& start) {
    const auto at = text.find("\n" + start);
    if (at == std::string::npos) return {};
    return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

TEST_F(TableCli, SignedReportsVerifyAndShowTheirSigner) {
    const auto r = run_kcs("table " + signed_ref() + " " + signed_cal() + " --pubkey " + pub());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out.find("UNSIGNED"), std::string::npos) << r.out;
    EXPECT_NE(line_starting(r.out, "| Signature |").find("| verified: test vendor (keyid "), std::string::npos)
        << r.out;
    const std::string exc = line_starting(r.out, "| **C-EXC-01**");
    EXPECT_NE(exc.find("| **PASS 3/3**"), std::string::npos) << exc;
    EXPECT_GT(exc.find("| **FAIL "), exc.find("| **PASS ")) << exc;  // calibration's column comes second
}

TEST_F(TableCli, ReportsNoTrustedKeySignedAreRefusedUnlessAllowed) {
    // Signed by the vendor, but only the other key is trusted.
    auto r = run_kcs("table " + signed_ref() + " " + signed_cal() + " --pubkey " + other_pub());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("refused " + signed_ref()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("refused " + signed_cal()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("signature: "), std::string::npos) << r.err;

    // A bare Statement carries no signature at all.
    r = run_kcs("table " + signed_ref() + " " + cal() + " --pubkey " + pub());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_EQ(r.err.find("refused " + signed_ref()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("refused " + cal()), std::string::npos) << r.err;

    r = run_kcs("table " + signed_ref() + " " + cal() + " --pubkey " + pub() + " --allow-unsigned");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string heading = line_starting(r.out, "| Class |");
    EXPECT_GT(heading.find("UNSIGNED"), heading.find("calibration")) << heading;  // the second column only
    const std::string signature = line_starting(r.out, "| Signature |");
    EXPECT_EQ(signature.rfind("| Signature | verified: test vendor (keyid ", 0), 0u) << signature;
    EXPECT_TRUE(signature.ends_with(" | UNSIGNED |")) << signature;
}

TEST_F(TableCli, ASignedReportWhoseContentFailsIsRefusedEvenWithAllowUnsigned) {
    // The vendor's key signs a report whose failure was edited into a pass.
    Json report = Json::parse(slurp(cal()));
    bool changed = false;
    for (auto& instance : report["predicate"]["instances"]) {
        if (instance["verdict"] != "FAIL") continue;
        instance["verdict"] = "PASS";
        changed = true;
        break;
    }
    ASSERT_TRUE(changed);
    const auto edited = dir() / "edited.json";
    const auto envelope = dir() / "edited.dsse.json";
    std::ofstream(edited) << report.dump();
    ASSERT_EQ(run_kcs("sign " + edited.string() + " --key " + key() + " --out " + envelope.string()).exit_code, 0);

    const auto r =
        run_kcs("table " + signed_ref() + " " + envelope.string() + " --pubkey " + pub() + " --allow-unsigned");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("refused " + envelope.string()), std::string::npos) << r.err;
}

// --findings: the adapter's heading and its FAIL cells link to where its
// FAILs are explained; a PASS cell and the other adapter's do not.
TEST_F(TableCli, FindingsLinkAnAdaptersFailCells) {
    const std::string reports = signed_ref() + " " + signed_cal() + " --pubkey " + pub();
    const auto md = run_kcs("table " + reports + " --findings 'calibration=../vendors/calibration/README (v1).md'");
    ASSERT_EQ(md.exit_code, 0) << md.err;
    const std::string row = line_starting(md.out, "| **C-EXC-01**");
    EXPECT_NE(row.find("| **[FAIL "), std::string::npos) << row;
    EXPECT_NE(row.find("](../vendors/calibration/README%20%28v1%29.md)**"), std::string::npos) << row;
    EXPECT_EQ(row.find("[PASS"), std::string::npos) << row;
    EXPECT_NE(md.out.find("<br>[findings](../vendors/calibration/README%20%28v1%29.md)"), std::string::npos) << md.out;
    const auto html = run_kcs("table " + reports + " --format html --findings calibration=FINDINGS.md");
    ASSERT_EQ(html.exit_code, 0) << html.err;
    EXPECT_NE(html.out.find("<strong><a href=\"FINDINGS.md\">FAIL "), std::string::npos) << html.out;
    const auto unknown = run_kcs("table " + reports + " --findings opencl=FINDINGS.md");
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("no report of adapter opencl"), std::string::npos) << unknown.err;
    EXPECT_EQ(run_kcs("table " + reports + " --findings calibration").exit_code, 2);
}

TEST_F(TableCli, WithoutAKeyItAsksForOne) {
    const auto r = run_kcs("table " + ref());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--pubkey"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(TableCli, AllowUnsignedShowsBareStatementsMarkedUnsigned) {
    const auto r = run_kcs("table " + ref() + " " + cal() + " --allow-unsigned");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string heading = line_starting(r.out, "| Class |");
    EXPECT_LT(heading.find("reference-cpu"), heading.find("calibration")) << heading;
    EXPECT_NE(heading.find("violation=nan-dropping-max"), std::string::npos) << heading;
    // Both columns: neither report was signed.
    const auto first = heading.find("**UNSIGNED**");
    ASSERT_NE(first, std::string::npos) << heading;
    EXPECT_NE(heading.find("**UNSIGNED**", first + 1), std::string::npos) << heading;
    EXPECT_NE(r.err.find("shown UNSIGNED"), std::string::npos) << r.err;

    const std::string exc = line_starting(r.out, "| **C-EXC-01**");
    ASSERT_FALSE(exc.empty()) << r.out;
    EXPECT_NE(exc.find("| **PASS "), std::string::npos) << exc;
    EXPECT_GT(exc.find("| **FAIL "), exc.find("| **PASS ")) << exc;  // calibration's column comes second
    // Both runs were restricted with --op: their verdicts say so.
    EXPECT_EQ(line_starting(r.out, "| Profile verdict |"),
              "| Profile verdict | INCOMPLETE, PARTIAL<br>only --op reduce\\_max | NON-CONFORMANT, PARTIAL<br>only --op "
              "reduce\\_max |");
    EXPECT_NE(heading.find("<br>only --op reduce\\_max<br>run "), std::string::npos) << heading;
    // The INCONCLUSIVE instances are not covered: C-ORD-03's cell says so, never PASS.
    EXPECT_NE(line_starting(r.out, "| **C-ORD-03**").find("INCOMPLETE"), std::string::npos) << r.out;
    EXPECT_EQ(line_starting(r.out, "| Signature |"), "| Signature | UNSIGNED | UNSIGNED |");
}

TEST_F(TableCli, ATamperedReportIsRefusedEvenWithAllowUnsigned) {
    Json report = Json::parse(slurp(cal()));
    bool changed = false;
    for (auto& instance : report["predicate"]["instances"]) {
        if (instance["verdict"] != "FAIL") continue;
        instance["verdict"] = "PASS";  // a failure hidden by hand
        changed = true;
        break;
    }
    ASSERT_TRUE(changed);
    const auto tampered = dir() / "tampered.json";
    std::ofstream(tampered) << report.dump();

    const auto r = run_kcs("table " + ref() + " " + tampered.string() + " --allow-unsigned");
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(r.err.find("refused " + tampered.string()), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("refused " + ref()), std::string::npos) << r.err;
}

TEST_F(TableCli, UnreadableOrNonJsonInputIsNamed) {
    const auto missing = (dir() / "no-such-report.json").string();
    auto r = run_kcs("table " + ref() + " " + missing + " --allow-unsigned");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(missing), std::string::npos) << r.err;

    const auto garbage = dir() / "garbage.json";
    std::ofstream(garbage) << "this is not { JSON";
    r = run_kcs("table " + garbage.string() + " --allow-unsigned");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(garbage.string()), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST_F(TableCli, OutWritesTheFileAndNothingToStandardOutput) {
    const auto page = dir() / "tables" / "table.html";
    const auto r = run_kcs("table " + ref() + " " + cal() + " --allow-unsigned --format html --out " + page.string());
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    const std::string html = slurp(page.string());
    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_NE(html.find("<span class=\"unsigned\">UNSIGNED</span>"), std::string::npos);

    const auto csv = run_kcs("table " + ref() + " --allow-unsigned --format csv");
    ASSERT_EQ(csv.exit_code, 0) << csv.err;
    EXPECT_EQ(csv.out.rfind("class,title,", 0), 0u) << csv.out;
    EXPECT_NE(csv.out.find("\r\nC-EXC-01,NaN and Inf propagation,PASS "), std::string::npos) << csv.out;

    EXPECT_EQ(run_kcs("table " + ref() + " --allow-unsigned --format junit").exit_code, 2);
}

TEST_F(TableCli, HelpSaysWhatItChecks) {
    const auto r = run_kcs("table --help");
    EXPECT_EQ(r.exit_code, 0);
    for (const char* word : {"--pubkey", "--allow-unsigned", "--format", "--out", "UNSIGNED", "verified"})
        EXPECT_NE(r.out.find(word), std::string::npos) << word << "\n" << r.out;
}

}  // namespace
