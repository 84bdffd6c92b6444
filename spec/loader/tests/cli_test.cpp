// The kcs command line, run as a user would: output and exit codes.
#include <cstdio>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <unistd.h>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include "catalog_copy.hpp"
#include "run_kcs.hpp"

namespace kcs::spec {
namespace {

using CliRun = kcs::testing::Outcome;
CliRun kcs(const std::string& args) { return kcs::testing::run_kcs(args); }

const std::string kV1 = testing::source_catalog().string();

TEST(Cli, LintOfTheRealCatalogSucceeds) {
    const CliRun r = kcs("spec lint " + kV1);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(": ok: spec_version 1.1.0, 12 classes, 11 operators"), std::string::npos) << r.out;
}

TEST(Cli, LintRefusesAClassWithoutPostconditionWithFileAndLine) {
    testing::CatalogCopy copy;
    std::string text = copy.read("classes/C-PRC-01.yaml");
    const auto a = text.find("postcondition:");
    text.erase(a, text.find("tolerance:") - a);
    copy.write("classes/C-PRC-01.yaml", text);
    const CliRun r = kcs("spec lint " + copy.dir().string());
    EXPECT_EQ(r.exit_code, 1);
    EXPECT_NE(r.err.find("classes/C-PRC-01.yaml:1:1: error: class C-PRC-01 is missing 'postcondition'"),
              std::string::npos) << r.err;
}

TEST(Cli, LintOfUnreadableInputExitsTwo) {
    testing::CatalogCopy copy;
    copy.write("classes/C-PRC-01.yaml", "identifier: [\n");
    const CliRun r = kcs("spec lint " + copy.dir().string());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("YAML syntax error"), std::string::npos) << r.err;
    EXPECT_EQ(kcs("spec lint /nonexistent/catalog").exit_code, 2);
}

TEST(Cli, ListClassesShowsTheTwelve) {
    const CliRun r = kcs("spec list --classes --spec " + kV1);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    const std::regex line("C-(PRC|ORD|CMP|EXC)-0[0-9] +\\w+ +\\w+ +.+");
    int count = 0;
    std::istringstream lines(r.out);
    for (std::string l; std::getline(lines, l);) count += std::regex_match(l, line);
    EXPECT_EQ(count, 12) << r.out;
}

TEST(Cli, ListWithoutFlagsShowsEverySection) {
    const CliRun r = kcs("spec list");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    for (const char* heading : {"Contract classes", "Operators", "Profiles", "Incidents"})
        EXPECT_NE(r.out.find(heading), std::string::npos) << heading;
}

TEST(Cli, ShowPrintsTheEightPartsInOrder) {
    const CliRun r = kcs("spec show C-PRC-01");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::size_t at = 0;
    for (const char* part : {"1. Identifier", "2. Scope", "3. Precondition", "4. Postcondition", "5. Tolerance",
                             "6. Reference oracle", "7. Measurement protocol", "8. Violation signature"}) {
        const auto found = r.out.find(part, at);
        ASSERT_NE(found, std::string::npos) << part << "\n" << r.out;
        at = found;
    }
    EXPECT_NE(r.out.find("model dot_bound"), std::string::npos);
}

TEST(Cli, ShowOfAnUnknownIdExitsTwo) {
    const CliRun r = kcs("spec show C-PRC-99");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("no class, operator, profile or incident 'C-PRC-99'"), std::string::npos) << r.err;
}

TEST(Cli, DigestMatchesTheLibrary) {
    const CliRun r = kcs("spec digest " + kV1);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.out, catalog_digest(load_catalog(kV1).catalog) + "\n");
}

TEST(Cli, VersionNamesTheCarriedCatalog) {
    const CliRun r = kcs("--version");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_TRUE(std::regex_search(r.out, std::regex("kcs [0-9]+\\.[0-9]+\\.[0-9]+\n")));
    EXPECT_NE(r.out.find("\ncarried catalogs (" KCS_SOURCE_DIR "/spec):\n"), std::string::npos) << r.out;
    EXPECT_TRUE(std::regex_search(r.out, std::regex("v1  spec_version 1\\.1\\.0  sha256:[0-9a-f]{64}"))) << r.out;
}

TEST(Cli, UsageErrorsExitTwoAndHelpExitsZero) {
    EXPECT_EQ(kcs("").exit_code, 2);
    EXPECT_EQ(kcs("spec frobnicate").exit_code, 2);
    EXPECT_EQ(kcs("spec list --no-such-flag").exit_code, 2);
    const CliRun help = kcs("spec lint --help");
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_NE(help.out.find("DIR"), std::string::npos);
}

}  // namespace
}  // namespace kcs::spec

namespace kcs::spec {
namespace {

TEST(CliSpecDiff, TheReleasedOneZeroToTheCurrentCatalogIsACompatibleMinorStep) {
    const CliRun r = kcs("spec diff 1.0.0 1.1.0 --check-compat");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("version step: minor; the changes need: minor"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("minor  operator matmul, C-ORD-01: superseded: parameter K by shapes"), std::string::npos)
        << r.out;
    EXPECT_NE(r.err.find("compatible: a minor step allows every change"), std::string::npos) << r.err;
}

TEST(CliSpecDiff, CheckCompatFailsOnALoosenedBoundInAMinorRelease) {
    testing::CatalogCopy copy;
    copy.replace("classes/C-CMP-01.yaml", "exp:     {f32: 3,", "exp:     {f32: 4,");
    copy.replace("catalog.yaml", "spec_version: 1.1.0", "spec_version: 1.2.0");
    const CliRun minor = kcs("spec diff 1.1.0 " + copy.dir().string() + " --check-compat");
    EXPECT_EQ(minor.exit_code, 1) << minor.out << minor.err;
    EXPECT_NE(minor.err.find("incompatible: 1 change(s) need a major release; 1.1.0 -> 1.2.0 is a minor step"),
              std::string::npos)
        << minor.err;
    EXPECT_NE(minor.err.find("class C-CMP-01: loosened: tolerance table.exp.f32: 3 -> 4"), std::string::npos)
        << minor.err;
    // Without --check-compat it lists; as a major release it is allowed.
    EXPECT_EQ(kcs("spec diff 1.1.0 " + copy.dir().string()).exit_code, 0);
    copy.replace("catalog.yaml", "spec_version: 1.2.0", "spec_version: 2.0.0");
    EXPECT_EQ(kcs("spec diff 1.1.0 " + copy.dir().string() + " --check-compat").exit_code, 0);
}

TEST(CliSpecDiff, JsonAndUnknownVersions) {
    const CliRun json = kcs("spec diff 1.0.0 1.1.0 --format json");
    EXPECT_EQ(json.exit_code, 0) << json.err;
    const Json doc = Json::parse(json.out);
    EXPECT_EQ(doc["from"]["version"], "1.0.0");
    EXPECT_EQ(doc["version_step"], "minor");
    EXPECT_EQ(doc["needs"], "minor");
    EXPECT_FALSE(doc["changes"].empty());
    const CliRun unknown = kcs("spec diff 0.9.0 1.1.0");
    EXPECT_EQ(unknown.exit_code, 2);
    EXPECT_NE(unknown.err.find("0.9.0 is neither a catalog folder"), std::string::npos) << unknown.err;
    EXPECT_NE(unknown.err.find("released: 1.0.0"), std::string::npos) << unknown.err;
    // Backwards is no version step.
    EXPECT_EQ(kcs("spec diff 1.1.0 1.0.0 --check-compat").exit_code, 1);
}

}  // namespace
}  // namespace kcs::spec

namespace kcs::spec {
namespace {

TEST(CliSpecMustpass, TheCommittedListsAreWhatTheCatalogsGenerate) {
    for (const char* profile : {"core", "strict"}) {
        const CliRun current = kcs(std::string("spec mustpass --check --profile ") + profile);
        EXPECT_EQ(current.exit_code, 0) << current.err;
        const CliRun released =
            kcs(std::string("spec mustpass --check --profile ") + profile + " --spec " +
                (testing::source_catalog().parent_path() / "releases" / "1.0.0").string());
        EXPECT_EQ(released.exit_code, 0) << released.err;
    }
}

TEST(CliSpecMustpass, AStaleListIsRefusedAndTheListIsTheRequiredInstances) {
    testing::CatalogCopy copy;
    copy.replace("operators/cast.yaml", "  - {inputs: [f16], output: f32}\n", "");
    const CliRun stale = kcs("spec mustpass --check --profile core --spec " + copy.dir().string());
    EXPECT_EQ(stale.exit_code, 1);
    EXPECT_NE(stale.err.find("is not the list the catalog generates"), std::string::npos) << stale.err;
    const CliRun list = kcs("spec mustpass --profile strict");
    EXPECT_EQ(list.exit_code, 0);
    EXPECT_NE(list.out.find("profile strict\n# The 568 instances"), std::string::npos) << list.out.substr(0, 300);
    EXPECT_NE(list.out.find("\nv1/C-EXC-02/gather/f32xi64-f32/shapes-sweep\n"), std::string::npos);
    EXPECT_EQ(kcs("spec mustpass --profile nonesuch").exit_code, 2);
}

}  // namespace
}  // namespace kcs::spec

namespace kcs::spec {
namespace {

// The published torch report (catalog 1.1.0), judged again from its evidence.
std::string published_torch_report() {
    const std::string file = ::testing::TempDir() + "/kcs-rejudge-torch-" + std::to_string(::getpid()) + ".dsse.json";
    const std::string source = (testing::source_catalog().parent_path().parent_path() / "reports" / "published" /
                                "torch.dsse.json.gz").string();
    EXPECT_EQ(std::system(("gzip -dc '" + source + "' > '" + file + "'").c_str()), 0);
    return file;
}

TEST(CliRejudge, UnderItsOwnVersionNothingChanges) {
    const CliRun r = kcs("rejudge " + published_torch_report() + " --spec-version 1.1.0");
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("0 verdict(s) would change, 568 would stay, 0 need a rerun"), std::string::npos) << r.out;
}

TEST(CliRejudge, ALoosenedBoundTurnsAFailIntoAPassAndNewParametersNeedARerun) {
    testing::CatalogCopy copy;
    copy.replace("classes/C-CMP-01.yaml", "gelu:    {f32: 33,", "gelu:    {f32: 20000000,");
    copy.replace("catalog.yaml", "spec_version: 1.1.0", "spec_version: 2.0.0");
    const CliRun loosened = kcs("rejudge " + published_torch_report() + " --spec-version " + copy.dir().string());
    EXPECT_EQ(loosened.exit_code, 0) << loosened.err;
    // gelu f32's worst case is 16777202 ulp: within 2e7, beyond 33.
    EXPECT_NE(loosened.out.find("changed  v1/C-CMP-01/unary.gelu/f32-f32/shapes-sweep: FAIL -> PASS (ulp_table bound "
                                "20000000 in 2.0.0)"),
              std::string::npos)
        << loosened.out;
    EXPECT_NE(loosened.out.find("1 verdict(s) would change"), std::string::npos) << loosened.out;
    // Under the released 1.0.0, whose protocols took other parameters, the instances that changed need a rerun.
    const CliRun released = kcs("rejudge " + published_torch_report() + " --spec-version 1.0.0 --format json");
    EXPECT_EQ(released.exit_code, 0) << released.err;
    const Json doc = Json::parse(released.out);
    EXPECT_EQ(doc["report_version"], "1.1.0");
    EXPECT_EQ(doc["target_version"], "1.0.0");
    EXPECT_FALSE(doc["rerun"].empty());
    EXPECT_GT(doc["unchanged"].get<int>(), 0);
    EXPECT_EQ(kcs("rejudge " + published_torch_report() + " --spec-version 0.9.0").exit_code, 2);
}

}  // namespace
}  // namespace kcs::spec

namespace kcs::spec {
namespace {

// Certifying under the released 1.0.0 (reference-cpu, matmul, smoke): the
// probes implement 1.1.0's protocols, which supply the parameters and the
// preconditions as data that 1.0.0 left to the implementation, so every
// applicable instance is judged and none is ERROR. kcs verify finds 1.0.0
// and 1.1.0 by the report's digests and remakes the plan with both; kcs
// rejudge under 1.1.0 keeps every verdict whose protocol and bound are the
// same and asks for a rerun where 1.1.0 measures more: C-ORD-01, whose
// 1.0.0 parameter K 1.1.0 superseded, and C-ORD-03, whose tolerance 1.1.0
// gave a power that 1.0.0's evidence (no pool step) does not show.
TEST(CliRejudge, AReportCertifiedUnderTheReleaseIsJudgedVerifiesAndRejudgesUnderTheCurrent) {
    const std::string dir = ::testing::TempDir() + "/kcs-release-report-" + std::to_string(::getpid());
    std::filesystem::create_directories(dir);
    ASSERT_EQ(kcs("keygen --out " + dir + "/key --label test").exit_code, 0);
    const CliRun run = kcs("certify --adapter reference-cpu --depth smoke --op matmul --spec-version 1.0.0 --key " +
                           dir + "/key.key --out " + dir + "/run");
    ASSERT_EQ(run.exit_code, 0) << run.out << run.err;
    std::ifstream envelope(dir + "/run/report.json");
    const Json report = Json::parse(envelope);
    const Json& predicate = report["predicate"];
    EXPECT_EQ(predicate["spec"]["version"], "1.0.0");
    EXPECT_EQ(predicate["spec"]["protocols"]["version"], "1.1.0");
    const auto supplied = predicate["spec"]["protocols"]["supplied"].get<std::vector<std::string>>();
    for (const char* expected : {"C-ORD-01 matmul: shapes", "C-ORD-03 matmul: pool_shape", "C-PRC-04 matmul: requires"})
        EXPECT_NE(std::find(supplied.begin(), supplied.end(), expected), supplied.end()) << expected;
    // 1.0.0 states C-ORD-02's runs itself: its own value is kept.
    EXPECT_EQ(std::find(supplied.begin(), supplied.end(), "C-ORD-02 matmul: runs"), supplied.end());
    std::size_t passed = 0, not_applicable = 0;
    for (const auto& instance : predicate["instances"]) {
        const std::string verdict = instance["verdict"];
        EXPECT_TRUE(verdict == "PASS" || verdict == "NOT_APPLICABLE") << instance["id"] << ": " << verdict;
        (verdict == "PASS" ? passed : not_applicable)++;
        if (instance["id"].get<std::string>().find("C-ORD-03") != std::string::npos && verdict == "PASS") {
            EXPECT_TRUE(instance["cases"][0]["evidence"]["details"]["pool"].is_null()) << "1.0.0 states no power";
        }
    }
    EXPECT_EQ(passed, 42u);
    EXPECT_EQ(not_applicable, 3u);  // C-PRC-04 where the output is the computation's dtype (1.1.0's requires)

    const CliRun verified = kcs("verify " + dir + "/run/report.dsse.json --pubkey " + dir + "/key.pub");
    EXPECT_EQ(verified.exit_code, 0) << verified.out << verified.err;
    EXPECT_NE(verified.out.find("re-judged from their evidence with spec 1.0.0's tolerance models"), std::string::npos)
        << verified.out;
    EXPECT_NE(verified.out.find("parameters spec 1.0.0 leaves unstated taken from spec 1.1.0"), std::string::npos)
        << verified.out;

    const CliRun judged = kcs("rejudge " + dir + "/run/report.dsse.json --spec-version 1.1.0 --format json");
    EXPECT_EQ(judged.exit_code, 0) << judged.err;
    const Json doc = Json::parse(judged.out);
    EXPECT_EQ(doc["report_version"], "1.0.0");
    EXPECT_TRUE(doc["changed"].empty());
    EXPECT_EQ(doc["unchanged"], 35);
    ASSERT_EQ(doc["rerun"].size(), 10u);
    for (const auto& rerun : doc["rerun"]) {
        const std::string id = rerun["instance"], why = rerun["why"];
        if (id.find("/C-ORD-01/") != std::string::npos) {
            EXPECT_NE(why.find("{\"K\":[256]"), std::string::npos) << id << ": " << why;
        } else {
            EXPECT_NE(id.find("/C-ORD-03/"), std::string::npos) << id << ": " << why;
        }
    }
    EXPECT_TRUE(doc["lacking"].empty());
    std::filesystem::remove_all(dir);
}

// A release from which the step to the newest catalog is not one the
// policy allows (here a 1.0.0 whose exp bound is tighter than 1.1.0's)
// cannot be certified by probes of the newest protocols: exit 2, and why.
TEST(CliCertify, AReleaseTheCurrentProtocolsCannotJudgeIsRefused) {
    testing::CatalogCopy copy(testing::source_catalog().parent_path() / "releases" / "1.0.0");
    copy.replace("classes/C-CMP-01.yaml", "exp:     {f32: 3,", "exp:     {f32: 2,");
    const CliRun run = kcs("certify --adapter reference-cpu --depth smoke --op unary --spec " + copy.dir().string() +
                           " --out " + (copy.dir() / "run").string());
    EXPECT_EQ(run.exit_code, 2) << run.out << run.err;
    EXPECT_NE(run.err.find("1.0.0 -> 1.1.0 is not a compatible step (class C-CMP-01: loosened: tolerance "
                           "table.exp.f32: 2 -> 3)"),
              std::string::npos)
        << run.err;
    EXPECT_FALSE(std::filesystem::exists(copy.dir() / "run" / "report.json"));
}

}  // namespace
}  // namespace kcs::spec
