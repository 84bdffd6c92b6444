// Claims files: the vendors' real ones, defaults, and every way a file can
// be wrong, each reported at its line and column.
#include "kcs/harness/claims.hpp"

#include <fstream>
#include <unistd.h>

#include <gtest/gtest.h>

namespace kcs::harness {
namespace {

namespace fs = std::filesystem;

const spec::LoadResult& v1() {
    static const spec::LoadResult loaded = spec::load_catalog(fs::path(KCS_SOURCE_DIR) / "spec" / "v1");
    return loaded;
}
const spec::Catalog& catalog() { return v1().catalog; }

// A claims file in a folder of its own, removed with the test.
class ClaimsFile : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(v1().ok());
        dir_ = fs::path(::testing::TempDir()) / ("kcs-claims-" + std::to_string(::getpid()) + "-" +
                                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    fs::path write(const std::string& text, const std::string& name = "claims.yaml") const {
        const fs::path file = dir_ / name;
        std::ofstream(file, std::ios::binary) << text;
        return file;
    }
    ClaimsResult load(const std::string& text) const { return load_claims(write(text), catalog()); }

    fs::path dir_;
};

// The one diagnostic of a result, as "line:column: message".
std::string only_problem(const ClaimsResult& r) {
    if (r.diagnostics.all().size() != 1) {
        std::string all = std::to_string(r.diagnostics.all().size()) + " problems:";
        for (const auto& d : r.diagnostics.all()) all.append("\n").append(d.str());
        return all;
    }
    const auto& d = r.diagnostics.all().front();
    // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on "literal" + string.
    std::string out = std::to_string(d.where.line);
    out.append(":").append(std::to_string(d.where.column)).append(": ").append(d.message);
    return out;
}

TEST_F(ClaimsFile, EveryVendorsClaimsFileLoadsClean) {
    int files = 0;
    for (const auto& vendor : fs::directory_iterator(fs::path(KCS_SOURCE_DIR) / "vendors")) {
        const fs::path file = vendor.path() / "claims.yaml";
        if (!fs::is_regular_file(file)) continue;
        ++files;
        const auto r = load_claims(file, catalog());
        for (const auto& d : r.diagnostics.all()) ADD_FAILURE() << d.str();
        EXPECT_EQ(r.claims.file, file);
        EXPECT_EQ(r.claims.values.size(), catalog().claims.size()) << file;
        EXPECT_EQ(r.claims.digest.size(), std::string("sha256:").size() + 64) << r.claims.digest;
        EXPECT_TRUE(r.claims.digest.starts_with("sha256:"));
    }
    EXPECT_GE(files, 2) << "reference-cpu and calibration carry claims files";
}

TEST_F(ClaimsFile, ReferenceCpuClaimsWhatItsFileSays) {
    const auto r = load_claims(fs::path(KCS_SOURCE_DIR) / "vendors" / "reference-cpu" / "claims.yaml", catalog());
    ASSERT_TRUE(r.diagnostics.empty());
    EXPECT_EQ(r.claims.at("oob_policy"), "raise");
    EXPECT_TRUE(r.claims.is_true("deterministic"));
    EXPECT_TRUE(r.claims.is_true("batch_invariant"));
    EXPECT_EQ(r.claims.at("fp_contract"), "off");
    EXPECT_EQ(r.claims.declared.size(), catalog().claims.size());
}

TEST_F(ClaimsFile, AbsentClaimsTakeTheirCatalogDefault) {
    const auto r = load("oob_policy: clamp\n");
    ASSERT_TRUE(r.diagnostics.empty()) << only_problem(r);
    EXPECT_EQ(r.claims.declared, std::set<std::string>{"oob_policy"});
    for (const auto& claim : catalog().claims) {
        const std::string expected = claim.id == "oob_policy" ? "clamp" : claim.default_value;
        EXPECT_EQ(r.claims.at(claim.id), expected) << claim.id;
    }
}

TEST(DefaultClaims, AreTheCatalogDefaultsWithoutAFile) {
    const Claims c = default_claims(catalog());
    ASSERT_EQ(c.values.size(), catalog().claims.size());
    for (const auto& claim : catalog().claims) EXPECT_EQ(c.at(claim.id), claim.default_value);
    EXPECT_TRUE(c.file.empty());
    EXPECT_TRUE(c.digest.empty());
    EXPECT_TRUE(c.declared.empty());
    EXPECT_FALSE(c.is_true("deterministic"));
    EXPECT_FALSE(c.is_true("no_such_claim"));
}

TEST_F(ClaimsFile, AnUnknownClaimIsReportedAtItsKeyWithTheClosestId) {
    const auto r = load("oob_policy: raise\ndeterminstic: \"true\"\n");
    EXPECT_EQ(only_problem(r), "2:1: unknown claim 'determinstic'");
    ASSERT_EQ(r.diagnostics.all().size(), 1u);
    EXPECT_EQ(r.diagnostics.all()[0].hint, "did you mean 'deterministic'?");
    EXPECT_EQ(r.diagnostics.all()[0].severity, spec::Severity::input);
    EXPECT_EQ(r.diagnostics.exit_code(), 2);
}

TEST_F(ClaimsFile, AnUnknownClaimFarFromAnyIdListsTheCatalogsClaims) {
    const auto r = load("warp_size: 32\n");
    EXPECT_EQ(only_problem(r), "1:1: unknown claim 'warp_size'");
    ASSERT_EQ(r.diagnostics.all().size(), 1u);
    EXPECT_NE(r.diagnostics.all()[0].hint.find("oob_policy, deterministic"), std::string::npos)
        << r.diagnostics.all()[0].hint;
}

TEST_F(ClaimsFile, AValueOutsideTheClaimsValuesIsReportedAtTheValue) {
    const auto r = load("subnormals: preserve\nfp_contract: maybe\n");
    EXPECT_EQ(only_problem(r), "2:14: claim fp_contract: 'maybe' is not one of on, off");
    const auto close = load("# masked rows\nmasked_row: zeros\n");
    EXPECT_EQ(only_problem(close), "2:13: claim masked_row: 'zeros' is not one of nan, zero");
    ASSERT_EQ(close.diagnostics.all().size(), 1u);
    EXPECT_EQ(close.diagnostics.all()[0].hint, "did you mean 'zero'?");
    EXPECT_EQ(close.diagnostics.exit_code(), 2);
}

TEST_F(ClaimsFile, ValuesThatAreNotTextAreReported) {
    EXPECT_EQ(only_problem(load("oob_policy: [raise, clamp]\n")), "1:13: claim oob_policy must be text, found a list");
    EXPECT_EQ(only_problem(load("oob_policy:\n")), "1:1: claim oob_policy has no value");
    EXPECT_EQ(only_problem(load("masked_row: nan\noob_policy: ~\n")), "2:1: claim oob_policy has no value");
}

TEST_F(ClaimsFile, ASyntaxErrorIsAnInputErrorWithItsPlace) {
    const auto r = load("oob_policy: raise\ndeterministic: [true\n");
    ASSERT_EQ(r.diagnostics.all().size(), 1u) << only_problem(r);
    const auto& d = r.diagnostics.all()[0];
    EXPECT_NE(d.message.find("YAML syntax error"), std::string::npos) << d.str();
    EXPECT_GE(d.where.line, 2) << d.str();
    EXPECT_EQ(d.severity, spec::Severity::input);
}

TEST_F(ClaimsFile, AFileThatIsNotAMappingGetsAClaimsHint) {
    for (const std::string text : {"", "# nothing declared\n", "- oob_policy: raise\n"}) {
        const auto r = load(text);
        ASSERT_EQ(r.diagnostics.all().size(), 1u) << text;
        EXPECT_NE(r.diagnostics.all()[0].hint.find("claims file is one YAML mapping"), std::string::npos)
            << r.diagnostics.all()[0].str();
    }
}

TEST_F(ClaimsFile, ADuplicateClaimIsReported) {
    const auto r = load("oob_policy: raise\noob_policy: clamp\n");
    EXPECT_EQ(only_problem(r), "2:1: duplicate key 'oob_policy' in claims file (first at line 1)");
}

TEST_F(ClaimsFile, AMissingFileOrAFolderIsReported) {
    const auto missing = load_claims(dir_ / "absent.yaml", catalog());
    EXPECT_EQ(only_problem(missing), "0:0: cannot open the claims file");
    const auto folder = load_claims(dir_, catalog());
    EXPECT_EQ(only_problem(folder), "0:0: is a folder, not a claims file");
}

TEST_F(ClaimsFile, YamlBooleansAreReadAsTheStringsTrueAndFalse) {
    const auto r = load("deterministic: true\nbatch_invariant: False\nfp_contract: on\n");
    ASSERT_TRUE(r.diagnostics.empty()) << only_problem(r);
    EXPECT_EQ(r.claims.at("deterministic"), "true");
    EXPECT_EQ(r.claims.at("batch_invariant"), "false");
    // YAML 1.1 would read 'on' as a boolean; here it is fp_contract's value.
    EXPECT_EQ(r.claims.at("fp_contract"), "on");
    // Quoted text is taken as written.
    EXPECT_EQ(only_problem(load("deterministic: \"True\"\n")),
              "1:16: claim deterministic: 'True' is not one of true, false");
}

TEST_F(ClaimsFile, TheDigestIsOfTheFilesBytes) {
    const std::string text = "oob_policy: raise\n";
    const auto a = load_claims(write(text, "a.yaml"), catalog());
    const auto b = load_claims(write(text, "b.yaml"), catalog());
    const auto commented = load_claims(write("# raise\n" + text, "c.yaml"), catalog());
    ASSERT_TRUE(a.diagnostics.empty() && b.diagnostics.empty() && commented.diagnostics.empty());
    EXPECT_EQ(a.claims.digest, b.claims.digest);
    EXPECT_NE(a.claims.digest, commented.claims.digest);
    EXPECT_EQ(a.claims.values, commented.claims.values);
    // sha256 of the 18 bytes "oob_policy: raise\n", as sha256sum prints it.
    EXPECT_EQ(a.claims.digest, "sha256:8aad9524d2c784948b122aefeea22a8d2fb1c868435d3714dec0ad32e0e8d700");
}

TEST_F(ClaimsFile, ProfilesRejectClaimValuesTheyDoNotAccept) {
    const spec::Profile& core = *catalog().find_profile("core");
    const spec::Profile& strict = *catalog().find_profile("strict");

    // The default oob_policy, undefined, is not certifiable under either.
    const auto defaults = claims_not_accepted(core, default_claims(catalog()));
    ASSERT_EQ(defaults.size(), 1u);
    EXPECT_EQ(defaults[0].id, "oob_policy");
    EXPECT_EQ(defaults[0].value, "undefined");
    EXPECT_EQ(defaults[0].accepted, (std::vector<std::string>{"raise", "clamp", "zero"}));

    const auto reference =
        load_claims(fs::path(KCS_SOURCE_DIR) / "vendors" / "reference-cpu" / "claims.yaml", catalog()).claims;
    EXPECT_TRUE(claims_not_accepted(core, reference).empty());
    EXPECT_TRUE(claims_not_accepted(strict, reference).empty());

    const auto flush = load("oob_policy: raise\nsubnormals: flush\nfp_contract: \"on\"\n");
    ASSERT_TRUE(flush.diagnostics.empty()) << only_problem(flush);
    EXPECT_TRUE(claims_not_accepted(core, flush.claims).empty());
    std::vector<std::string> rejected;
    for (const auto& r : claims_not_accepted(strict, flush.claims)) rejected.push_back(r.id + "=" + r.value);
    EXPECT_EQ(rejected, (std::vector<std::string>{"batch_invariant=false", "deterministic=false", "fp_contract=on",
                                                  "subnormals=flush"}));
}

// A case is judged by the claims its profile accepts: under strict, a
// declared flush or contraction counts as preserve and off (spec/SPEC.md
// section 4); under core, which accepts them, the declared values stand.
TEST_F(ClaimsFile, ACaseIsJudgedByTheValuesItsProfileAccepts) {
    const spec::Profile& core = *catalog().find_profile("core");
    const spec::Profile& strict = *catalog().find_profile("strict");
    const auto flush = load("subnormals: flush\nfp_contract: \"on\"\nmasked_row: zero\n");
    ASSERT_TRUE(flush.diagnostics.empty()) << only_problem(flush);

    EXPECT_EQ(judged_under(core, flush.claims).values, flush.claims.values);
    const Claims judged = judged_under(strict, flush.claims);
    EXPECT_EQ(judged.at("subnormals"), "preserve");
    EXPECT_EQ(judged.at("fp_contract"), "off");
    EXPECT_EQ(judged.at("deterministic"), "true");
    EXPECT_EQ(judged.at("batch_invariant"), "true");
    EXPECT_EQ(judged.at("masked_row"), "zero");       // strict accepts it
    EXPECT_EQ(judged.at("oob_policy"), "undefined");  // refused, but strict accepts three values
    EXPECT_EQ(judged.declared, flush.claims.declared);
    EXPECT_EQ(judged.digest, flush.claims.digest);
}

}  // namespace
}  // namespace kcs::harness
