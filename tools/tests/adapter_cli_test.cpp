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
    EXPECT_NE(r.out.find("21 of 21 steps passed"), std::string::npos) << r.out;
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
    EXPECT_NE(r.out.find("FAIL  release of a handle never issued is refused with a status"), std::string::npos)
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
        {dir + "/libkcs-adapter-abi-v2.so", "implements ABI version 2, kcs needs 1"},
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
