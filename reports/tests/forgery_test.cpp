// Reports edited by someone who holds a trusted signing key and signed
// again (SPEC.md section 9): every forgery here is consistent in what the
// report says of itself (the summary recounted, the certificate claimed
// where the forger wants it), so only re-judging from the catalog can
// refuse it. The failing report is a real run: fast-exp on unary at
// smoke, 147 instances, 6 FAIL (written by the kcs_failing_report fixture).
#include <gtest/gtest.h>

#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <string>

#include "kcs/reports/dsse.hpp"
#include "kcs/reports/keys.hpp"
#include "kcs/reports/report.hpp"
#include "kcs/reports/verify.hpp"
#include "report_test_support.hpp"

namespace kcs::reports {
namespace {

Json read_json(const char* file) {
    std::ifstream in(file);
    EXPECT_TRUE(in.good()) << file << " is missing: run its fixture test";
    return Json::parse(std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()});
}

// What a forger does after editing verdicts: recount every class and the
// profile, and call them CONFORMANT where nothing FAILs.
void recount(Json& statement, bool grant_certificate) {
    Json& p = statement["predicate"];
    std::map<std::string, std::map<std::string, std::size_t>> by_class;
    std::map<std::string, std::size_t> all;
    for (const auto& inst : p["instances"]) {
        const std::string v = inst["verdict"];
        ++by_class[inst["class"]][v];
        ++all[v];
    }
    const auto fill = [](Json& group, std::map<std::string, std::size_t>& n) {
        std::size_t planned = 0;
        for (const auto& [v, k] : n) planned += k;
        const std::size_t executed = n["PASS"] + n["FAIL"] + n["CRASH"] + n["TIMEOUT"];
        group["counts"] = {{"planned", planned},        {"applicable", planned - n["NOT_APPLICABLE"]},
                           {"not_applicable", n["NOT_APPLICABLE"]}, {"executed", executed},
                           {"pass", n["PASS"]},         {"fail", n["FAIL"]}, {"consequence", 0},
                           {"crash", n["CRASH"]},       {"timeout", n["TIMEOUT"]},
                           {"error", n["ERROR"]},       {"unsupported", n["UNSUPPORTED"]},
                           {"missing", 0}};
        const bool breaks = n["FAIL"] + n["CRASH"] + n["TIMEOUT"] > 0;
        if (planned == n["NOT_APPLICABLE"]) {
            group["verdict"] = "NOT_APPLICABLE";
            return;
        }
        group["verdict"] = breaks ? "NON-CONFORMANT" : "CONFORMANT";
        group["reasons"] = breaks ? Json::array({std::to_string(n["FAIL"]) + " FAIL"}) : Json::array();
        group["coverage"] = static_cast<double>(executed) / static_cast<double>(planned - n["NOT_APPLICABLE"]);
        group["pass_rate"] = executed ? Json(static_cast<double>(n["PASS"]) / static_cast<double>(executed)) : Json();
    };
    for (auto& c : p["summary"]["classes"]) fill(c, by_class[c["class"]]);
    fill(p["summary"]["profile"], all);
    p["summary"]["certificate"] = {{"granted", grant_certificate},
                                   {"reasons", grant_certificate ? Json::array() : Json::array({"not claimed"})}};
}

// A case made to read PASS, as a forger would write one.
void pass_case(Json& c) {
    c["verdict"] = "PASS";
    c["violated_class"] = "";
    c["signature"] = "";
    c["message"] = "within the bound";
}

class Forgery : public ::testing::Test {
protected:
    // Signs the edited statement with `key` (the vendor's own, trusted) and verifies it.
    Verification sign_and_verify(const Json& statement, const SecretKey& key) const {
        Json named = statement;
        if (!statement["predicate"]["signer"].is_object()) testing::name_signer(named, key.public_key);
        named["predicate"]["signed"] = true;
        named["predicate"]["signer"]["keyid"] = key.public_key.keyid();
        VerifyInputs inputs;
        inputs.keys.push_back(key.public_key);
        inputs.catalogs.push_back(&testing::catalog());
        return verify_envelope_text(sign_envelope(report_text(named), kInTotoPayloadType, key), inputs);
    }
    Verification forge(const std::function<void(Json&)>& edit, bool grant = false) const {
        return forge_from(failing_, edit, grant);
    }
    Verification forge_from(const Json& real, const std::function<void(Json&)>& edit, bool grant) const {
        Json statement = real;
        edit(statement);
        recount(statement, grant);
        return sign_and_verify(statement, vendor_);
    }
    static bool mentions(const Verification& v, const std::string& what) {
        for (const auto& f : v.failures)
            if (f.find(what) != std::string::npos) return true;
        return false;
    }
    static std::string failures(const Verification& v) {
        std::string out;
        for (const auto& f : v.failures) out += "\n  " + f;
        return out;
    }
    // The FAIL instance of C-CMP-01 on unary.exp f32: 67 of 9034 results over 3 ulp.
    static Json& exp_f32(Json& s) {
        for (auto& inst : s["predicate"]["instances"])
            if (inst["id"] == "v1/C-CMP-01/unary.exp/f32-f32/shapes-sweep") return inst;
        throw std::runtime_error("the failing report lacks unary.exp f32");
    }

    const Json failing_ = read_json(KCS_FAILING_REPORT);
    const Json passing_ = read_json(KCS_SAMPLE_REPORT);  // reduce_max at smoke on reference-cpu, every instance PASS
    const SecretKey vendor_ = generate_key("vendor", false);
};

TEST_F(Forgery, TheRealReportVerifiesAndTheRecountAloneChangesNothing) {
    Json statement = failing_;
    ASSERT_EQ(statement["predicate"]["instances"].size(), 147u);
    const Verification real = sign_and_verify(statement, vendor_);
    EXPECT_TRUE(real.valid()) << failures(real);
    // Every forgery below is refused for what it changed, not for the recount.
    const Verification recounted = forge([](Json&) {});
    EXPECT_FALSE(recounted.valid());  // the forger's reasons are not certify's
    EXPECT_TRUE(mentions(recounted, "summary:")) << failures(recounted);
    EXPECT_FALSE(mentions(recounted, "verdicts:")) << failures(recounted);
    EXPECT_FALSE(mentions(recounted, "instance ")) << failures(recounted);
}

// A primary FAIL relabelled a consequence of another FAIL (which would make
// its class INCOMPLETE instead of NON-CONFORMANT): the primary causes are
// remade from the recorded FAILs and what their cases assumed.
TEST_F(Forgery, AConsequenceTheRecordedFailsDoNotGiveIsRefused) {
    Json statement = failing_;
    Json& inst = exp_f32(statement);
    ASSERT_EQ(inst["verdict"], "FAIL");
    ASSERT_TRUE(inst["consequence_of"].is_null()) << "the exp f32 FAIL assumed nothing";
    inst["consequence_of"] = {{"instance", "v1/C-CMP-01/unary.log/f32-f32/shapes-sweep"}, {"reason", "forged"}};
    const Verification v = sign_and_verify(statement, vendor_);
    EXPECT_FALSE(v.valid());
    EXPECT_TRUE(mentions(v, "v1/C-CMP-01/unary.exp/f32-f32/shapes-sweep: consequence_of: recorded")) << failures(v);
}

// 1. FAIL -> PASS with the figure set to its bound; the worst element and
// the count over the bound still show the failure.
TEST_F(Forgery, APassWhoseEvidenceShowsElementsOverTheBoundIsRefused) {
    const Verification v = forge([](Json& s) {
        Json& inst = exp_f32(s);
        inst["verdict"] = "PASS";
        for (auto& c : inst["cases"]) {
            pass_case(c);
            c["evidence"]["figure"] = c["evidence"]["bound"];
        }
    });
    EXPECT_FALSE(v.valid());
    EXPECT_TRUE(mentions(v, "details.elements_over_bound is 67")) << failures(v);
    EXPECT_TRUE(mentions(v, "its worst element's error 8388582.0 breaks its bound")) << failures(v);
}

// 2. The bound rewritten: FAIL -> PASS under a raised bound, and a PASS
// whose figure grew to 100 ulp under a bound of 200.
TEST_F(Forgery, ABoundTheCatalogDoesNotGiveIsRefused) {
    const Verification raised = forge([](Json& s) {
        Json& inst = exp_f32(s);
        inst["verdict"] = "PASS";
        for (auto& c : inst["cases"]) {
            pass_case(c);
            c["evidence"]["bound"] = 1e7;
            c["evidence"]["worst"]["bound"] = 1e7;
            c["evidence"]["details"]["elements_over_bound"] = 0;
        }
    });
    EXPECT_FALSE(raised.valid());
    EXPECT_TRUE(mentions(raised, "bound 10000000.0 is not one spec")) << failures(raised);
    EXPECT_TRUE(mentions(raised, "ulp_table gives this instance (3.0)")) << failures(raised);

    const Verification widened = forge([](Json& s) {
        for (auto& inst : s["predicate"]["instances"])
            if (inst["id"] == "v1/C-CMP-01/unary.log/f32-f32/shapes-sweep")
                for (auto& c : inst["cases"]) {
                    c["evidence"]["figure"] = 100.0;
                    c["evidence"]["bound"] = 200.0;
                    c["evidence"]["worst"]["error"] = 100.0;
                    c["evidence"]["worst"]["bound"] = 200.0;
                }
    });
    EXPECT_FALSE(widened.valid());
    EXPECT_TRUE(mentions(widened, "unary.log/f32-f32/shapes-sweep seed 1: bound 200.0 is not one spec")) << failures(widened);
}

// 2b. An INCONCLUSIVE C-ORD-03 relabelled PASS: reduce_max at smoke
// compares 64 distinct rows, far from the 92102 elements the class's power
// needs, and the catalog, not the report, says how many.
TEST_F(Forgery, APassWithoutTheClassPowerIsRefused) {
    std::string id;
    const Verification v = forge_from(
        passing_,
        [&](Json& s) {
            for (auto& inst : s["predicate"]["instances"])
                if (inst["verdict"] == "INCONCLUSIVE" && id.empty()) {
                    id = inst["id"].get<std::string>();
                    inst["verdict"] = "PASS";
                    for (auto& c : inst["cases"]) pass_case(c);
                }
        },
        false);
    ASSERT_EQ(id.rfind("v1/C-ORD-03/reduce_max/", 0), 0u) << "the sample report has no INCONCLUSIVE C-ORD-03";
    EXPECT_FALSE(v.valid());
    EXPECT_TRUE(mentions(v, id + " seed 1: PASS, but its distinct elements compared (64) fall short of the 92102"))
        << failures(v);
}

// 3. FAIL instances relabelled NOT_APPLICABLE, or UNSUPPORTED with the
// profile called CONFORMANT.
TEST_F(Forgery, ApplicabilityAndPartialSupportAreRemadeFromTheCatalog) {
    const Verification excluded = forge([](Json& s) {
        for (auto& inst : s["predicate"]["instances"])
            if (inst["verdict"] == "FAIL") {
                inst["verdict"] = "NOT_APPLICABLE";
                inst["applicable"] = false;
                inst["not_applicable_reason"] = "the adapter's claims exclude it";
                inst["cases"] = Json::array();
            }
    });
    EXPECT_FALSE(excluded.valid());
    EXPECT_TRUE(mentions(excluded, "instance v1/C-CMP-01/unary.exp/f32-f32/shapes-sweep: applicable: recorded false, remade true"))
        << failures(excluded);

    const Verification declined = forge([](Json& s) {
        for (auto& inst : s["predicate"]["instances"])
            if (inst["verdict"] == "FAIL") {
                inst["verdict"] = "UNSUPPORTED";
                for (auto& c : inst["cases"]) {
                    c["verdict"] = "UNSUPPORTED";
                    c["violated_class"] = "";
                    c["signature"] = "";
                    c["evidence"] = {{"figure_name", ""}, {"figure", 0.0}, {"bound", 0.0}, {"worst", nullptr},
                                     {"details", Json::object()}, {"judged", {{"count", 0}, {"unit", ""}}},
                                     {"adapter_calls", 0}};  // as an UNSUPPORTED case records it
                }
            }
    });
    EXPECT_FALSE(declined.valid());
    EXPECT_TRUE(mentions(declined, "summary: profile verdict: recorded \"CONFORMANT\", remade \"INCOMPLETE\""))
        << failures(declined);
}

// 4. The FAIL instances deleted and the counts recomputed.
TEST_F(Forgery, EveryPlannedInstanceMustBeListed) {
    const Verification v = forge([](Json& s) {
        Json kept = Json::array();
        for (auto& inst : s["predicate"]["instances"])
            if (inst["verdict"] != "FAIL") kept.push_back(inst);
        s["predicate"]["instances"] = kept;
    });
    EXPECT_FALSE(v.valid());
    EXPECT_TRUE(mentions(v, "plan: 147 instances planned, 141 listed; missing v1/C-CMP-01/unary.exp/f32-f32/shapes-sweep"))
        << failures(v);
}

// 5. A smoke report of every PASS relabelled certifiable, or full depth,
// restricted to no operator, its certificate claimed.
TEST_F(Forgery, TheDepthIsTheCatalogs) {
    const auto promote = [](Json& s) { s["predicate"]["operators"] = Json::array(); };
    const Verification certifiable = forge_from(
        passing_,
        [&](Json& s) {
            promote(s);
            s["predicate"]["depth"]["certifiable"] = true;
        },
        true);
    EXPECT_FALSE(certifiable.valid());
    EXPECT_TRUE(mentions(certifiable, "depth.certifiable: recorded true, depth smoke is not certifiable"))
        << failures(certifiable);

    const spec::Depth* full = testing::catalog().find_depth("full");
    ASSERT_NE(full, nullptr);
    const Verification deeper = forge_from(
        passing_,
        [&](Json& s) {
            promote(s);
            s["predicate"]["depth"] = {{"id", "full"}, {"seeds", full->seeds}, {"certifiable", true}};
            s["predicate"]["seeds"]["per_instance"] = full->seeds;
        },
        true);
    EXPECT_FALSE(deeper.valid());
    EXPECT_TRUE(mentions(deeper, "plan.digest: recorded")) << failures(deeper);
    EXPECT_TRUE(mentions(deeper, "shapes-sweep: measures: recorded")) << failures(deeper);  // smoke's shapes
    EXPECT_TRUE(mentions(deeper, "2 cases, not one for each of the depth's 3 seeds")) << failures(deeper);
}

// 6. Signed with a development key, relabelled signer.development: false,
// certifiable, its certificate claimed.
TEST_F(Forgery, ADevelopmentKeyNeverCertifiesWhateverTheReportSays) {
    const SecretKey development = generate_key("lab", true);
    Json statement = passing_;
    statement["predicate"]["operators"] = Json::array();
    statement["predicate"]["depth"]["certifiable"] = true;
    statement["predicate"]["signer"] = {{"keyid", development.public_key.keyid()},
                                        {"label", "lab"},
                                        {"development", false}};
    recount(statement, true);
    const Verification v = sign_and_verify(statement, development);
    EXPECT_FALSE(v.valid());
    EXPECT_TRUE(mentions(v, "signer.development: recorded false, but the trusted key file says the key is a "
                            "development key"))
        << failures(v);
}

}  // namespace
}  // namespace kcs::reports
