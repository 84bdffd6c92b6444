// kcs plan, run as a user runs it: output and exit codes.
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "run_kcs.hpp"
#include <sys/wait.h>
#include <unistd.h>

namespace {

using kcs::testing::Outcome;
Outcome kcs(const std::string& args) { return kcs::testing::run_kcs(args); }

// The line of `out` that starts with `id`, or empty.
std::string line_of(const std::string& out, const std::string& id) {
    std::istringstream lines(out);
    for (std::string l; std::getline(lines, l);)
        if (l.starts_with(id + " ")) return l;
    return {};
}

const std::string kSource = KCS_SOURCE_DIR;

TEST(PlanCli, ListsTheMatmulInstancesOfReferenceCpu) {
    const Outcome r = kcs("plan --adapter reference-cpu --depth quick --op matmul");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string line = line_of(r.out, "v1/C-PRC-01/matmul/f32xf32-f32/k-sweep");
    EXPECT_TRUE(std::regex_match(line, std::regex(R"(\S+ +APPLICABLE +Accumulator preservation: matmul )"
                                                  R"(f32xf32-f32, K = \[64, 256, 1024, 4096\])")))
        << line;
    // reference-cpu's own claims declare determinism, so C-ORD-02 applies.
    EXPECT_NE(line_of(r.out, "v1/C-ORD-02/matmul/f32xf32-f32/shapes-sweep").find("APPLICABLE"), std::string::npos);
    EXPECT_NE(r.out.find("claims   " + kSource + "/vendors/reference-cpu/claims.yaml (the adapter's own)  sha256:"),
              std::string::npos)
        << r.out;
    // C-PRC-04 judges narrowing stores: matmul's three f32-output configurations have none.
    EXPECT_NE(line_of(r.out, "v1/C-PRC-04/matmul/f16xf16-f32/shapes-sweep")
                  .find("N/A (output dtype f32 is the computation's: no narrowing store to judge)"),
              std::string::npos)
        << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex(R"(\n\d+ instances, \d+ applicable, 3 not applicable\n)"
                                                    R"(plan digest sha256:[0-9a-f]{64}\n$)")))
        << r.out;
    EXPECT_EQ(r.out.find("/softmax/"), std::string::npos) << "--op matmul lists matmul only";
}

// A vendor's adapter out of tree, named by its path (the plan does not load it).
TEST(PlanCli, AnAdapterWithoutClaimsFileGetsTheCatalogDefaults) {
    const Outcome r = kcs("plan --adapter /opt/acme/libkcs-adapter-acme.so --op reduce_sum --depth smoke");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("claims   catalog defaults"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("does not accept oob_policy: undefined, the catalog default"), std::string::npos) << r.out;
    EXPECT_NE(line_of(r.out, "v1/C-ORD-02/reduce_sum/f32-f32/shapes-sweep")
                  .find("N/A (claim deterministic is not declared true)"),
              std::string::npos)
        << r.out;
}

TEST(PlanCli, AGivenClaimsFileIsUsedAndTheSameInputsGiveTheSameDigest) {
    const std::string claims = kSource + "/vendors/calibration/claims.yaml";
    const Outcome a = kcs("plan --adapter /some/where/libkcs-adapter-x.so --claims " + claims + " --op softmax");
    const Outcome b = kcs("plan --adapter other --claims " + claims + " --op softmax");
    ASSERT_EQ(a.exit_code, 0) << a.err;
    ASSERT_EQ(b.exit_code, 0) << b.err;
    EXPECT_NE(a.out.find("claims   " + claims + "  sha256:"), std::string::npos) << a.out;
    const auto digest = [](const std::string& out) { return out.substr(out.rfind("plan digest ")); };
    EXPECT_EQ(digest(a.out), digest(b.out));
    const Outcome full = kcs("plan --adapter other --claims " + claims + " --op softmax --depth full");
    EXPECT_NE(digest(full.out), digest(a.out));
}

TEST(PlanCli, AnUnknownProfileExitsTwoWithAHint) {
    const Outcome r = kcs("plan --adapter reference-cpu --profile cor");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("--profile: error: unknown profile 'cor'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("did you mean 'core'?"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(PlanCli, AnUnknownDepthOrOperatorExitsTwo) {
    const Outcome depth = kcs("plan --adapter reference-cpu --depth fast");
    EXPECT_EQ(depth.exit_code, 2);
    EXPECT_NE(depth.err.find("unknown depth 'fast'"), std::string::npos) << depth.err;
    const Outcome op = kcs("plan --adapter reference-cpu --op matmull");
    EXPECT_EQ(op.exit_code, 2);
    EXPECT_NE(op.err.find("did you mean 'matmul'?"), std::string::npos) << op.err;
}

TEST(PlanCli, ABadClaimsFileExitsTwoWithItsPlace) {
    const std::string file = ::testing::TempDir() + "/kcs-plan-cli-claims-" + std::to_string(::getpid()) + ".yaml";
    std::ofstream(file) << "oob_policy: raise\ndeterminstic: \"true\"\n";
    const Outcome r = kcs("plan --adapter reference-cpu --claims " + file);
    std::remove(file.c_str());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(file + ":2:1: error: unknown claim 'determinstic'"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("did you mean 'deterministic'?"), std::string::npos) << r.err;
}

TEST(PlanCli, TheAdapterIsRequired) {
    EXPECT_EQ(kcs("plan --op matmul").exit_code, 2);
}

}  // namespace
