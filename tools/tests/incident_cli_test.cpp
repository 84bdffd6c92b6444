// kcs incident list|show|replay, run as a reader runs them: the catalog's
// incidents, and replays that show a violator caught with the incident's
// signature while reference-cpu passes.
#include <gtest/gtest.h>

#include <string>

#include "run_kcs.hpp"

namespace {

using kcs::testing::run_kcs;

TEST(IncidentCli, ListNamesEveryIncidentWithItsClassAndSignature) {
    const auto r = run_kcs("incident list");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("ascend-precision-coercion   C-PRC-03  reduced-input-mantissa"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("sakana-memory-reuse         C-EXC-02  stale-or-poison-left"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("amd-oob-silent-acceptance   C-EXC-02  zero-rows-under-raise"), std::string::npos) << r.out;
}

TEST(IncidentCli, ShowGivesTheSignatureTextAndAnUnknownIdExitsTwo) {
    const auto r = run_kcs("incident show sakana-memory-reuse");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("signature  stale-or-poison-left: Output elements still hold the poison"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("reproduced by the calibration violator stale-output"), std::string::npos) << r.out;
    const auto unknown = run_kcs("incident show no-such-incident");
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("known: ascend-precision-coercion"), std::string::npos) << unknown.err;
}

TEST(IncidentCli, ReplayCatchesEveryIncidentWhileReferenceCpuPasses) {
    for (const std::string id : {"ascend-precision-coercion", "sakana-memory-reuse", "amd-oob-silent-acceptance"}) {
        const auto r = run_kcs("incident replay " + id);
        EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
        EXPECT_NE(r.out.find("CAUGHT  " + id), std::string::npos) << r.out;
        EXPECT_NE(r.out.find("<- caught"), std::string::npos) << r.out;
        EXPECT_EQ(r.out.find("reference-cpu           FAIL"), std::string::npos) << r.out;
        EXPECT_EQ(r.out.find("no probe"), std::string::npos) << r.out;
    }
}

}  // namespace
