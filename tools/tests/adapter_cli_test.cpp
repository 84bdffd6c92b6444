// kcs adapter list|check, run as a vendor runs them: output and exit codes.
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "run_kcs.hpp"
#include <sys/wait.h>
#include <unistd.h>

namespace {

using kcs::testing::Outcome;
Outcome kcs(const std::string& args) { return kcs::testing::run_kcs(args); }

const std::string kFixture = std::string(KCS_FIXTURE_DIR) + "/libkcs-adapter-fixture.so";

class AdapterCheckPasses : public ::testing::TestWithParam<std::string> {};

TEST_P(AdapterCheckPasses, EveryStep) {
    const Outcome r = kcs("adapter check " + GetParam());
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_EQ(r.out.find("FAIL"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("22 of 22 steps passed"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("ABI 1.1 negotiated"), std::string::npos) << r.out;
}

INSTANTIATE_TEST_SUITE_P(Adapters, AdapterCheckPasses,
                         ::testing::Values("reference-cpu", "calibration", "template",
                                           "calibration --option violation=stale-output"),
                         [](const auto& info) {
                             std::string name = info.param.substr(0, info.param.find(' '));
                             for (char& c : name) c = c == '-' ? '_' : c;
                             return name + (info.param.find("violation") != std::string::npos ? "_violating" : "");
                         });

TEST(AdapterCheck, AnAdapterThatAcceptsBadHandlesFailsWithExitOne) {
    const Outcome r = kcs("adapter check " + kFixture + " --option release=lax");
    EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
    // The failing step names the rule it checks (vendors/ABI.md).
    EXPECT_NE(r.out.find("FAIL  [KCS-ABI-10] release of a handle never issued is refused with a status"),
              std::string::npos)
        << r.out;
}

TEST(AdapterCheck, AMissingAdapterExitsTwoNamingThePath) {
    const Outcome r = kcs("adapter check /nonexistent/libkcs-adapter-x.so");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("adapter /nonexistent/libkcs-adapter-x.so: no such file"), std::string::npos) << r.err;
}

TEST(AdapterCheck, AnUnknownNameExitsTwoNamingTheFoldersSearched) {
    const Outcome r = kcs("adapter check no-such-adapter");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("libkcs-adapter-no-such-adapter.so is in none of"), std::string::npos) << r.err;
}

TEST(AdapterCheck, BrokenLibrariesExitTwoSayingWhatIsWrong) {
    const std::string dir = KCS_FIXTURE_DIR;
    const std::pair<std::string, std::string> cases[] = {
        {dir + "/libkcs-adapter-no-entry.so", "kcs_adapter_entry"},
        {dir + "/libkcs-adapter-abi-v2.so", "its table implements ABI 2.0, but kcs_adapter_entry(65537) asked for 1.1"},
        {dir + "/libkcs-adapter-abi-2-only.so", "implements ABI 2.0 and later only; kcs speaks ABI 1.0 to 1.1"},
        {dir + "/libkcs-adapter-short-table.so", "function table is 16 bytes"},
        {"/etc/hostname", "not a shared library"},
    };
    for (const auto& [path, message] : cases) {
        const Outcome r = kcs("adapter check " + path);
        EXPECT_EQ(r.exit_code, 2) << path;
        EXPECT_NE(r.err.find(path), std::string::npos) << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    }
}

// An adapter built from the ABI 1.0 header and template as released (no
// version handshake) passes the self-test and certifies with this harness.
TEST(AbiCompatibility, AnAdapterOfAbi10IsCheckedAndCertifiedUnchanged) {
    const std::string old = std::string(KCS_FIXTURE_DIR) + "/libkcs-adapter-template-abi-1-0.so";
    const Outcome check = kcs("adapter check " + old);
    EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
    EXPECT_NE(check.out.find("template: ABI 1.0 negotiated"), std::string::npos) << check.out;
    EXPECT_NE(check.out.find("22 of 22 steps passed"), std::string::npos) << check.out;

    const std::string out = ::testing::TempDir() + "/abi-1-0-" + std::to_string(::getpid());
    const Outcome certify = kcs("certify --adapter " + old + " --depth smoke --op elementwise --out " + out);
    EXPECT_EQ(certify.exit_code, 0) << certify.out << certify.err;
    const std::string report = kcs::testing::slurp(out + "/report.json");
    // elementwise add on f32, the one thing the template computes, was judged and passed.
    EXPECT_NE(report.find("\"id\": \"v1/C-EXC-02/elementwise.add/f32xf32xf32-f32/"), std::string::npos);
    EXPECT_NE(report.find("\"verdict\": \"PASS\""), std::string::npos);
    EXPECT_NE(certify.out.find("pass rate  100.0%"), std::string::npos) << certify.out;
}

TEST(AdapterCheck, AnOpenFailureCarriesTheAdaptersMessage) {
    const Outcome r = kcs("adapter check calibration -o violation=bogus");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("open failed"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("unknown violation"), std::string::npos) << r.err;
}

TEST(AdapterList, ShowsTheBuiltAdaptersAndTheViolationsOffered) {
    const Outcome r = kcs("adapter list");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    for (const char* name : {"reference-cpu\n", "calibration\n", "template\n"})
        EXPECT_NE(r.out.find(name), std::string::npos) << name << "\n" << r.out;
    EXPECT_NE(r.out.find("offers: f16-accumulate"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("stale-output (C-EXC-02)"), std::string::npos) << r.out;
}

}  // namespace
