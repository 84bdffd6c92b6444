// kcs keygen, certify --key, sign and verify, run as a vendor and a reader
// run them: the key files, a signed run verified, and every way a report
// is refused with the exit code that says why (1 invalid, 2 unreadable).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "kcs/reports/dsse.hpp"
#include "kcs/reports/keys.hpp"
#include "kcs/reports/report.hpp"
#include "run_kcs.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;
using kcs::testing::run_kcs;
using kcs::testing::slurp;

void write(const fs::path& file, const std::string& text) { std::ofstream(file, std::ios::binary) << text; }

unsigned mode_of(const fs::path& file) {
    struct stat info {};
    EXPECT_EQ(::stat(file.c_str(), &info), 0) << file;
    return info.st_mode & 07777;
}

// One key pair and one signed run (reduce_max at smoke depth) shared by the tests.
class SigningCli : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        dir_ = fs::path(::testing::TempDir()) / ("kcs-signing-cli-" + std::to_string(::getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
        keygen_ = run_kcs("keygen --out " + (dir_ / "vendor").string() + " --label 'ACME lab'");
        other_ = run_kcs("keygen --out " + (dir_ / "other").string() + " --development");
        certify_ = run_kcs("certify --adapter reference-cpu --depth smoke --op reduce_max --key " +
                           (dir_ / "vendor.key").string() + " --out " + (dir_ / "run").string());
    }
    static void TearDownTestSuite() { fs::remove_all(dir_); }

    static std::string path(const std::string& name) { return (dir_ / name).string(); }
    static kcs::testing::Outcome verify(const std::string& file, const std::string& pubkey = "vendor.pub",
                                        const std::string& extra = "") {
        return run_kcs("verify " + file + " --pubkey " + path(pubkey) + " " + extra);
    }
    // The signed envelope with its payload replaced (same signature).
    static std::string with_payload(const std::string& payload) {
        Json envelope = Json::parse(slurp(path("run/report.dsse.json")));
        envelope["payload"] = kcs::reports::base64_encode(payload);
        return envelope.dump();
    }

    static inline fs::path dir_;
    static inline kcs::testing::Outcome keygen_, other_, certify_;
};

TEST_F(SigningCli, KeygenWritesAPrivateSecretKeyAndNeverPrintsIt) {
    ASSERT_EQ(keygen_.exit_code, 0) << keygen_.err;
    EXPECT_EQ(mode_of(dir_ / "vendor.key"), 0600u);
    const Json secret = Json::parse(slurp(dir_ / "vendor.key"));
    const Json pub = Json::parse(slurp(dir_ / "vendor.pub"));
    EXPECT_EQ(pub["kcs_key"], "ed25519-public-v1");
    EXPECT_EQ(pub["label"], "ACME lab");
    EXPECT_EQ(pub["development"], false);
    EXPECT_EQ(keygen_.out.find(secret["seed"].get<std::string>()), std::string::npos) << "the seed was printed";
    EXPECT_NE(keygen_.out.find(pub["keyid"].get<std::string>()), std::string::npos);

    const auto again = run_kcs("keygen --out " + path("vendor"));
    EXPECT_EQ(again.exit_code, 2);
    EXPECT_NE(again.err.find("never overwritten"), std::string::npos) << again.err;
    EXPECT_EQ(Json::parse(slurp(dir_ / "vendor.key")), secret) << "an existing key was changed";
}

TEST_F(SigningCli, ASignedRunVerifiesWithItsKeyAdapterAndClaims) {
    // 1: INCOMPLETE, C-ORD-03 on reduce_max being INCONCLUSIVE at smoke; the report is signed all the same.
    ASSERT_EQ(certify_.exit_code, 1) << certify_.out << certify_.err;
    const auto v = verify(path("run/report.dsse.json"), "vendor.pub",
                          "--adapter reference-cpu --claims " + std::string(KCS_SOURCE_DIR) + "/vendors/reference-cpu/claims.yaml");
    EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
    EXPECT_NE(v.out.find("VALID"), std::string::npos) << v.out;
    EXPECT_NE(v.out.find("ok      verdicts:"), std::string::npos) << v.out;
    const Json statement = Json::parse(slurp(dir_ / "run/report.json"));
    EXPECT_EQ(statement["predicate"]["signed"], true);
    EXPECT_EQ(statement["predicate"]["signer"]["label"], "ACME lab");
}

TEST_F(SigningCli, AnotherKeyOrAnotherAdapterMakesItInvalid) {
    const auto wrong_key = verify(path("run/report.dsse.json"), "other.pub");
    EXPECT_EQ(wrong_key.exit_code, 1);
    EXPECT_NE(wrong_key.out.find("FAILED  signature: no signature verifies"), std::string::npos) << wrong_key.out;
    const auto wrong_adapter = verify(path("run/report.dsse.json"), "vendor.pub", "--adapter calibration");
    EXPECT_EQ(wrong_adapter.exit_code, 1);
    EXPECT_NE(wrong_adapter.out.find("FAILED  adapter:"), std::string::npos) << wrong_adapter.out;
}

TEST_F(SigningCli, AChangedPayloadByteMakesItInvalid) {
    std::string payload = kcs::reports::parse_envelope(slurp(dir_ / "run/report.dsse.json")).payload;
    payload[payload.size() / 2] = static_cast<char>(payload[payload.size() / 2] ^ 0x01);
    write(dir_ / "tampered.dsse.json", with_payload(payload));
    const auto v = verify(path("tampered.dsse.json"));
    EXPECT_EQ(v.exit_code, 1) << v.out;
    EXPECT_NE(v.out.find("changed after signing"), std::string::npos) << v.out;
}

TEST_F(SigningCli, TruncatedMalformedAndBareReportsAreRefusedSayingWhy) {
    const std::string envelope = slurp(dir_ / "run/report.dsse.json");
    write(dir_ / "truncated.dsse.json", envelope.substr(0, envelope.size() / 3));
    const auto truncated = verify(path("truncated.dsse.json"));
    EXPECT_EQ(truncated.exit_code, 2);
    EXPECT_NE(truncated.err.find("not JSON"), std::string::npos) << truncated.err;

    write(dir_ / "malformed.dsse.json", "{\"payload\": 1, \"payloadType\": \"x\", \"signatures\": []}");
    const auto malformed = verify(path("malformed.dsse.json"));
    EXPECT_EQ(malformed.exit_code, 1);
    EXPECT_NE(malformed.out.find("FAILED  envelope: the envelope \"payload\" is not a string"), std::string::npos)
        << malformed.out;

    const auto bare = verify(path("run/report.json"));
    EXPECT_EQ(bare.exit_code, 1);
    EXPECT_NE(bare.out.find("a bare Statement"), std::string::npos) << bare.out;

    const auto missing = verify(path("no-such-file.json"));
    EXPECT_EQ(missing.exit_code, 2);
}

// Sizes are bounded before anything is read: a sparse 600 MiB file is
// refused at once, exit 2, saying so.
TEST_F(SigningCli, AFileOverTheSizeLimitIsRefusedUnread) {
    const auto huge = dir_ / "huge.dsse.json";
    write(huge, "{");
    fs::resize_file(huge, std::uintmax_t{600} << 20);
    const auto v = verify(huge.string());
    EXPECT_EQ(v.exit_code, 2);
    EXPECT_NE(v.err.find("629145600 bytes, over the limit of 536870912"), std::string::npos) << v.err;
    fs::remove(huge);
}

// A payload that is JSON but not a Statement, signed by the trusted key:
// refused as a report (exit 1) with a clear message, never an internal one.
TEST_F(SigningCli, ASignedPayloadThatIsNotAStatementIsRefusedWithExit1) {
    const auto key = kcs::reports::read_secret_key(path("vendor.key"));
    for (const std::string payload : {"[1, 2, 3]", "42", "\"text\"", "null"}) {
        write(dir_ / "odd.dsse.json", kcs::reports::sign_envelope(payload, kcs::reports::kInTotoPayloadType, key));
        const auto v = verify(path("odd.dsse.json"));
        EXPECT_EQ(v.exit_code, 1) << payload << ": " << v.err;
        EXPECT_NE(v.out.find(", not a KCS report (an in-toto Statement is a JSON object)"), std::string::npos)
            << payload << ": " << v.out;
        EXPECT_EQ(v.err.find("json.exception"), std::string::npos) << v.err;
        const auto render = run_kcs("render " + path("odd.dsse.json") + " --format md --pubkey " + path("vendor.pub"));
        EXPECT_EQ(render.exit_code, 1) << payload << ": " << render.err;
        EXPECT_EQ(render.err.find("json.exception"), std::string::npos) << render.err;
    }
}

// RFC 8259 leaves a member named twice open; a verifier refuses it in the
// envelope, in the signed payload, in a bare report and in a key file.
TEST_F(SigningCli, AMemberNamedTwiceIsRefusedWherever) {
    const std::string envelope = slurp(dir_ / "run/report.dsse.json");
    std::string doubled_envelope = envelope;
    doubled_envelope.insert(1, "\"payloadType\": \"application/json\", ");
    write(dir_ / "twice.dsse.json", doubled_envelope);
    const auto outer = verify(path("twice.dsse.json"));
    EXPECT_EQ(outer.exit_code, 2) << outer.out;
    EXPECT_NE(outer.err.find("the member \"payloadType\" appears twice in one object"), std::string::npos) << outer.err;

    std::string report = slurp(dir_ / "run/report.json");
    report.insert(report.find('{') + 1, "\"_type\": \"other\",");
    const auto key = kcs::reports::read_secret_key(path("vendor.key"));
    write(dir_ / "inner.dsse.json", kcs::reports::sign_envelope(report, kcs::reports::kInTotoPayloadType, key));
    const auto inner = verify(path("inner.dsse.json"));
    EXPECT_EQ(inner.exit_code, 1) << inner.err;
    EXPECT_NE(inner.out.find("FAILED  payload: the member \"_type\" appears twice in one object"), std::string::npos)
        << inner.out;
    write(dir_ / "inner.json", report);
    const auto bare = verify(path("inner.json"));
    EXPECT_EQ(bare.exit_code, 2);
    EXPECT_NE(bare.err.find("appears twice"), std::string::npos) << bare.err;

    std::string pub = slurp(dir_ / "vendor.pub");
    pub.insert(pub.find('{') + 1, "\"label\": \"someone else\",");
    write(dir_ / "twice.pub", pub);
    const auto keyfile = verify(path("run/report.dsse.json"), "twice.pub");
    EXPECT_EQ(keyfile.exit_code, 2);
    EXPECT_NE(keyfile.err.find("appears twice"), std::string::npos) << keyfile.err;
}

// What verification cannot prove (SPEC.md section 12): evidence a key
// holder fabricated consistently verifies; running the cases again on the
// adapter tells it.
TEST_F(SigningCli, AConsistentFabricationVerifiesButARerunTellsIt) {
    const auto clean = verify(path("run/report.dsse.json"), "vendor.pub", "--adapter reference-cpu --rerun 3");
    EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
    EXPECT_NE(clean.out.find("RERUN SAME    3 cases run again"), std::string::npos) << clean.out;

    Json statement = Json::parse(slurp(dir_ / "run/report.json"));
    for (auto& inst : statement["predicate"]["instances"])
        for (auto& c : inst["cases"])
            if (c["verdict"] == "PASS") c["evidence"]["judged"]["count"] = c["evidence"]["judged"]["count"].get<int>() + 1;
    const auto key = kcs::reports::read_secret_key(path("vendor.key"));
    write(dir_ / "fabricated.dsse.json",
          kcs::reports::sign_envelope(kcs::reports::report_text(statement), kcs::reports::kInTotoPayloadType, key));
    const auto checked = verify(path("fabricated.dsse.json"));
    EXPECT_EQ(checked.exit_code, 0) << checked.out;  // consistent: nothing in the report contradicts it
    const auto rerun = verify(path("fabricated.dsse.json"), "vendor.pub", "--adapter reference-cpu --rerun 2");
    EXPECT_EQ(rerun.exit_code, 1) << rerun.out << rerun.err;
    EXPECT_NE(rerun.out.find("DIFFERS rerun v1/"), std::string::npos) << rerun.out;
    EXPECT_NE(rerun.out.find(": evidence.judged: recorded"), std::string::npos) << rerun.out;
    EXPECT_NE(rerun.out.find("RERUN DIFFERS 2 cases run again"), std::string::npos) << rerun.out;

    const auto no_adapter = verify(path("run/report.dsse.json"), "vendor.pub", "--rerun 2");
    EXPECT_EQ(no_adapter.exit_code, 2);
    EXPECT_NE(no_adapter.err.find("--rerun: needs --adapter"), std::string::npos) << no_adapter.err;
}

TEST_F(SigningCli, AWrongPayloadTypeOrADuplicatedSignatureIsRefused) {
    Json envelope = Json::parse(slurp(dir_ / "run/report.dsse.json"));
    Json retyped = envelope;
    retyped["payloadType"] = "application/json";
    write(dir_ / "retyped.dsse.json", retyped.dump());
    const auto type = verify(path("retyped.dsse.json"));
    EXPECT_EQ(type.exit_code, 1);
    EXPECT_NE(type.out.find("payloadType is \"application/json\""), std::string::npos) << type.out;

    envelope["signatures"].push_back(envelope["signatures"][0]);
    write(dir_ / "doubled.dsse.json", envelope.dump());
    const auto doubled = verify(path("doubled.dsse.json"));
    EXPECT_EQ(doubled.exit_code, 1);
    EXPECT_NE(doubled.out.find("duplicated signature"), std::string::npos) << doubled.out;
}

TEST_F(SigningCli, ASecretKeyOthersCanReadIsRefusedBeforeTheRunStarts) {
    fs::copy_file(dir_ / "vendor.key", dir_ / "loose.key", fs::copy_options::overwrite_existing);
    ::chmod((dir_ / "loose.key").c_str(), 0644);
    const auto run = run_kcs("certify --adapter reference-cpu --depth smoke --op reduce_max --key " + path("loose.key") +
                             " --out " + path("loose-run"));
    EXPECT_EQ(run.exit_code, 2);
    EXPECT_NE(run.err.find("chmod 600"), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(dir_ / "loose-run")) << "a run started without a usable key";
}

TEST_F(SigningCli, SignerNamedAtCertifyThenSignedElsewhere) {
    const auto run = run_kcs("certify --adapter reference-cpu --depth smoke --op reduce_max --signer " +
                             path("vendor.pub") + " --out " + path("offline"));
    ASSERT_EQ(run.exit_code, 1) << run.out << run.err;  // INCOMPLETE, as above
    EXPECT_FALSE(fs::exists(dir_ / "offline/report.dsse.json"));
    const auto other = run_kcs("sign " + path("offline/report.json") + " --key " + path("other.key"));
    EXPECT_EQ(other.exit_code, 2);
    EXPECT_NE(other.err.find("names signer"), std::string::npos) << other.err;
    const auto sign = run_kcs("sign " + path("offline/report.json") + " --key " + path("vendor.key"));
    ASSERT_EQ(sign.exit_code, 0) << sign.err;
    const auto v = verify(path("offline/report.dsse.json"));
    EXPECT_EQ(v.exit_code, 0) << v.out;
}

}  // namespace
