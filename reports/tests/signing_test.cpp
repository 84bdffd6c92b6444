// Keys, DSSE envelopes and verification (reports.md, "Signing"): the DSSE
// PAE vector, RFC 8032's Ed25519 vectors, canonical base64, and tampering:
// every bit of a small envelope's payload and every byte of the envelope,
// and 2000 random bit flips of a full signed report, each refused.
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <random>
#include <string>

#include "kcs/reports/dsse.hpp"
#include "kcs/reports/keys.hpp"
#include "kcs/reports/report.hpp"
#include "kcs/reports/verify.hpp"
#include "report_test_support.hpp"

namespace kcs::reports {
namespace {

std::string from_hex(const std::string& hex) {
    std::string out;
    for (std::size_t i = 0; i < hex.size(); i += 2) out += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
    return out;
}

std::string to_hex(std::string_view bytes) {
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    for (const unsigned char b : bytes) {
        out += kDigits[b >> 4];
        out += kDigits[b & 0xF];
    }
    return out;
}

std::array<unsigned char, 32> seed_of(const std::string& hex) {
    const std::string bytes = from_hex(hex);
    std::array<unsigned char, 32> seed{};
    std::copy(bytes.begin(), bytes.end(), seed.begin());
    return seed;
}

TEST(Dsse, PaeIsTheSpecTestVector) {
    EXPECT_EQ(pae("http://example.com/HelloWorld", "hello world"), "DSSEv1 29 http://example.com/HelloWorld 11 hello world");
    EXPECT_EQ(pae("", ""), "DSSEv1 0  0 ");
}

struct Rfc8032Vector {
    const char* secret;
    const char* public_key;
    const char* message;
    const char* signature;
};

// RFC 8032 section 7.1, TEST 1, 2 and 3.
const Rfc8032Vector kVectors[] = {
    {"9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60",
     "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
     "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"},
    {"4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
     "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
     "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"},
    {"c5aa8df43f9f837bedb7442f31dcb7b166d38535076f094b85ce3a2e0b4458f7",
     "fc51cd8e6218a1a38da47ed00230f0580816ed13ba3303ac5deb911548908025", "af82",
     "6291d657deec24024827e69c3abe01a30ce548a284743a445e3680d7db5ac3ac18ff9b538d16f290ae67f760984dc6594a7c15e9716ed28dc027beceea1ec40a"},
};

TEST(Ed25519, Rfc8032Vectors) {
    for (const auto& v : kVectors) {
        const SecretKey key = key_from_seed(seed_of(v.secret), "rfc 8032", false);
        EXPECT_EQ(to_hex(std::string_view(reinterpret_cast<const char*>(key.public_key.bytes.data()), 32)), v.public_key);
        const std::string message = from_hex(v.message);
        const std::string signature = ed25519_sign(key, message);
        EXPECT_EQ(to_hex(signature), v.signature);
        EXPECT_TRUE(ed25519_verify(key.public_key, message, signature));
        EXPECT_FALSE(ed25519_verify(key.public_key, message + "x", signature));
        std::string bent = signature;
        bent[10] = static_cast<char>(bent[10] ^ 1);
        EXPECT_FALSE(ed25519_verify(key.public_key, message, bent));
    }
}

TEST(Base64, DecodesOnlyTheCanonicalForm) {
    EXPECT_EQ(base64_encode("a"), "YQ==");
    EXPECT_EQ(base64_decode("YQ=="), "a");
    EXPECT_EQ(base64_decode("aGVsbG8gd29ybGQ="), "hello world");
    EXPECT_EQ(base64_decode(""), "");
    for (const char* bad : {"YR==", "YQ", "YQ=", "Y Q==", "YQ==\n", "Y*==", "YQ===", "aGVsbG8gd29ybGR="})
        EXPECT_THROW(base64_decode(bad), EnvelopeError) << bad;
}

TEST(Envelope, SignedEnvelopeParsesAndVerifiesWithItsKeyOnly) {
    const SecretKey key = generate_key("test", true);
    const SecretKey other = generate_key("other", true);
    const std::string text = sign_envelope("{\"x\": 1}", kInTotoPayloadType, key);
    const Envelope e = parse_envelope(text);
    EXPECT_EQ(e.payload, "{\"x\": 1}");
    EXPECT_EQ(e.payload_type, kInTotoPayloadType);
    ASSERT_EQ(e.signatures.size(), 1u);
    EXPECT_EQ(e.signatures[0].keyid, key.public_key.keyid());
    EXPECT_TRUE(signature_verifies(e, e.signatures[0], key.public_key));
    EXPECT_FALSE(signature_verifies(e, e.signatures[0], other.public_key));
}

TEST(Envelope, MalformedEnvelopesAreRefusedSayingWhy) {
    const auto refusal = [](const std::string& text) {
        try {
            parse_envelope(text);
        } catch (const EnvelopeError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refusal("{\"payload\": \"YQ==\", \"payloadType\": \"t\"").find("not JSON"), std::string::npos);
    EXPECT_NE(refusal("[]").find("not a JSON object"), std::string::npos);
    EXPECT_NE(refusal(R"({"payloadType": "t", "signatures": []})").find("no \"payload\""), std::string::npos);
    EXPECT_NE(refusal(R"({"payload": "YQ==", "payloadType": "t", "signatures": [], "extra": 1})").find("unknown field"),
              std::string::npos);
    EXPECT_NE(refusal(R"({"payload": "YR==", "payloadType": "t", "signatures": []})").find("base64"),
              std::string::npos);
    EXPECT_NE(refusal(R"({"payload": "YQ==", "payloadType": "t", "signatures": [{"keyid": "k", "sig": "YQ=="}]})")
                  .find("not an Ed25519 signature"),
              std::string::npos);
}

// What a verifier trusts in these tests: one key and the carried catalog.
VerifyInputs trusting(const SecretKey& key) {
    VerifyInputs inputs;
    inputs.keys.push_back(key.public_key);
    inputs.catalogs.push_back(&testing::catalog());
    return inputs;
}

TEST(Tamper, EveryBitOfASmallPayloadAndEveryByteOfItsEnvelope) {
    const SecretKey key = generate_key("test", true);
    const std::string payload = R"({"_type":"https://in-toto.io/Statement/v1","subject":[],"predicateType":"x"})";
    const std::string text = sign_envelope(payload, kInTotoPayloadType, key);
    const VerifyInputs inputs = trusting(key);
    ASSERT_TRUE(verify_envelope_text(text, inputs).signature_valid);

    const Envelope envelope = parse_envelope(text);
    std::size_t refused = 0;
    for (std::size_t i = 0; i < payload.size(); ++i)
        for (int bit = 0; bit < 8; ++bit) {
            Envelope tampered = envelope;
            tampered.payload[i] = static_cast<char>(tampered.payload[i] ^ (1 << bit));
            EXPECT_FALSE(signature_verifies(tampered, tampered.signatures[0], key.public_key)) << i << ":" << bit;
            ++refused;
        }
    EXPECT_EQ(refused, payload.size() * 8);

    for (std::size_t i = 0; i < text.size(); ++i) {
        std::string tampered = text;
        tampered[i] = static_cast<char>(tampered[i] ^ 0x01);
        EXPECT_FALSE(verify_envelope_text(tampered, inputs).signature_valid) << "byte " << i << " of " << text.size();
    }
}

// The sample report of a real run (reduce_max at smoke depth on
// reference-cpu, written by the kcs_sample_report fixture), made to name
// `key` as its signer and signed with it.
std::string signed_sample_report(const SecretKey& key) {
    std::ifstream in(KCS_SAMPLE_REPORT);
    EXPECT_TRUE(in.good()) << KCS_SAMPLE_REPORT << " is missing: run the reports.sample-report-is-written test";
    Json statement = Json::parse(std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()});
    testing::name_signer(statement, key.public_key);
    return sign_envelope(report_text(statement), kInTotoPayloadType, key);
}

TEST(Tamper, AFullSignedReportVerifiesAndAnyFlippedBitIsRefused) {
    const SecretKey key = generate_key("test", true);
    const std::string text = signed_sample_report(key);
    const VerifyInputs inputs = trusting(key);
    const Verification clean = verify_envelope_text(text, inputs);
    for (const auto& f : clean.failures) ADD_FAILURE() << f;
    ASSERT_TRUE(clean.valid()) << clean.signature_problem;

    std::mt19937_64 random(20261129);
    std::uniform_int_distribution<std::size_t> position(0, text.size() - 1);
    std::uniform_int_distribution<int> bit(0, 7);
    for (int i = 0; i < 2000; ++i) {
        std::string tampered = text;
        const std::size_t at = position(random);
        const int b = bit(random);
        tampered[at] = static_cast<char>(tampered[at] ^ (1 << b));
        EXPECT_FALSE(verify_envelope_text(tampered, inputs).valid()) << "bit " << b << " of byte " << at;
    }
}

TEST(Verify, AnotherKeyADuplicatedSignatureAndAnotherPayloadTypeAreRefused) {
    const SecretKey key = generate_key("test", true);
    const SecretKey other = generate_key("other", true);
    const std::string text = signed_sample_report(key);

    const Verification wrong_key = verify_envelope_text(text, trusting(other));
    EXPECT_FALSE(wrong_key.signature_valid);
    EXPECT_NE(wrong_key.signature_problem.find("no signature verifies"), std::string::npos) << wrong_key.signature_problem;

    Json doubled = Json::parse(text);
    doubled["signatures"].push_back(doubled["signatures"][0]);
    const Verification duplicated = verify_envelope_text(doubled.dump(), trusting(key));
    EXPECT_FALSE(duplicated.valid());
    ASSERT_FALSE(duplicated.failures.empty());
    EXPECT_NE(duplicated.failures[0].find("duplicated signature"), std::string::npos) << duplicated.failures[0];

    const Envelope envelope = parse_envelope(text);
    const std::string retyped = sign_envelope(envelope.payload, "application/json", key);
    const Verification wrong_type = verify_envelope_text(retyped, trusting(key));
    EXPECT_FALSE(wrong_type.valid());
    ASSERT_FALSE(wrong_type.failures.empty());
    EXPECT_NE(wrong_type.failures[0].find("payloadType"), std::string::npos) << wrong_type.failures[0];

    const Verification truncated = verify_envelope_text(text.substr(0, text.size() / 2), trusting(key));
    EXPECT_FALSE(truncated.valid());
    ASSERT_FALSE(truncated.failures.empty());
    EXPECT_NE(truncated.failures[0].find("not JSON"), std::string::npos) << truncated.failures[0];
}

// A report whose recorded verdicts do not follow from its evidence, signed
// by a trusted key all the same: re-judging refuses it.
TEST(Verify, ReJudgingRefusesVerdictsTheEvidenceDoesNotSupport) {
    const SecretKey key = generate_key("test", true);
    const Envelope envelope = parse_envelope(signed_sample_report(key));
    const auto resign = [&](const std::function<void(Json&)>& edit) {
        Json statement = Json::parse(envelope.payload);
        edit(statement);
        return verify_envelope_text(sign_envelope(report_text(statement), kInTotoPayloadType, key), trusting(key));
    };
    const auto mentions = [](const Verification& v, const std::string& what) {
        for (const auto& f : v.failures)
            if (f.find(what) != std::string::npos) return true;
        return false;
    };
    // A PASS case whose figure breaks its bound.
    const Verification inflated = resign([](Json& s) {
        for (auto& inst : s["predicate"]["instances"])
            for (auto& c : inst["cases"])
                if (c["verdict"] == "PASS" && c["evidence"]["figure"].is_number() && c["evidence"]["bound"].is_number()) {
                    c["evidence"]["figure"] = c["evidence"]["bound"].get<double>() + 1e9;
                    return;
                }
    });
    EXPECT_TRUE(mentions(inflated, "breaks its bound"));
    // A PASS case whose evidence shows nothing judged (SPEC.md section 5).
    for (const char* field : {"judged", "adapter_calls"}) {
        const Verification empty = resign([field](Json& s) {
            for (auto& inst : s["predicate"]["instances"])
                for (auto& c : inst["cases"])
                    if (c["verdict"] == "PASS") {
                        if (std::string(field) == "judged") c["evidence"]["judged"]["count"] = 0;
                        else c["evidence"]["adapter_calls"] = 0;
                        return;
                    }
        });
        EXPECT_TRUE(mentions(empty, "its evidence shows nothing judged")) << field;
    }
    // A cited tolerance that is not the catalog's.
    const Verification loosened = resign([](Json& s) {
        for (auto& inst : s["predicate"]["instances"])
            for (auto& c : inst["cases"])
                if (c["evidence"].is_object() && c["evidence"]["details"].contains("bound")) {
                    c["evidence"]["details"]["bound"]["params"]["loosened"] = 1;
                    return;
                }
    });
    EXPECT_TRUE(mentions(loosened, "the catalog says"));
    // An instance recorded PASS whose case FAILed, and a summary that does not count it.
    const Verification flipped = resign([](Json& s) {
        auto& inst = s["predicate"]["instances"][0];
        auto& c = inst["cases"][0];
        c["verdict"] = "FAIL";
        c["violated_class"] = inst["class"];
        c["signature"] = "unmatched";
    });
    EXPECT_TRUE(mentions(flipped, "recorded \"PASS\", its cases give FAIL")) << ::testing::PrintToString(flipped.failures);
    // A summary count changed.
    const Verification miscounted = resign([](Json& s) { s["predicate"]["summary"]["profile"]["counts"]["pass"] = 0; });
    EXPECT_TRUE(mentions(miscounted, "summary: profile counts: recorded"));
    // Another catalog digest.
    const Verification other_catalog = resign([](Json& s) { s["predicate"]["spec"]["digest"] = "sha256:" + std::string(64, 'a'); });
    EXPECT_TRUE(mentions(other_catalog, "is not one this kcs carries"));
}

}  // namespace
}  // namespace kcs::reports
