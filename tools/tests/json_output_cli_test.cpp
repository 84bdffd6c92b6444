// --json on the listing commands (kcs adapter list and check, kcs plan,
// kcs incident list and show): one JSON document on standard output that
// says what the text says, for tools to read.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "run_kcs.hpp"

namespace {

using Json = nlohmann::json;
using kcs::testing::Outcome;
using kcs::testing::run_kcs;

Json json_of(const std::string& args) {
    const Outcome r = run_kcs(args);
    EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.err;
    return Json::parse(r.out);  // throws (and fails the test) on anything but one JSON document
}

TEST(JsonOutput, AdapterListAndCheck) {
    const Json list = json_of("adapter list reference-cpu --json");
    ASSERT_EQ(list.size(), 1u);
    EXPECT_EQ(list[0]["name"], "reference-cpu");
    EXPECT_EQ(list[0]["info"]["adapter_name"], "reference-cpu");
    EXPECT_EQ(list[0]["abi"], "1.1");
    EXPECT_TRUE(list[0]["info"]["notes"].is_array());

    const Json check = json_of("adapter check template --json");
    EXPECT_EQ(check["adapter"], "template");
    EXPECT_EQ(check["passed"], true);
    const Outcome text = run_kcs("adapter check template");
    EXPECT_NE(text.out.find(": " + std::to_string(check["steps"].size()) + " of " +
                            std::to_string(check["steps"].size()) + " steps passed"),
              std::string::npos)
        << text.out;
}

TEST(JsonOutput, PlanHasEveryInstanceAndTheDigestOfTheText) {
    const Json plan = json_of("plan --adapter reference-cpu --depth quick --op softmax --json");
    const Outcome text = run_kcs("plan --adapter reference-cpu --depth quick --op softmax");
    EXPECT_NE(text.out.find(std::to_string(plan["instances"].size()) + " instances, "), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("plan digest " + plan["plan_digest"].get<std::string>()), std::string::npos);
    EXPECT_EQ(plan["operators"], Json::array({"softmax"}));
    EXPECT_EQ(plan["depth"], "quick");
    for (const auto& i : plan["instances"]) {
        EXPECT_NE(text.out.find(i["id"].get<std::string>()), std::string::npos) << i["id"];
        EXPECT_EQ(i["not_applicable_reason"].is_null(), i["applicable"].get<bool>()) << i["id"];
    }
    EXPECT_EQ(run_kcs("plan --adapter reference-cpu --json --shards 2").exit_code, 2);
}

TEST(JsonOutput, IncidentListAndShow) {
    const Json all = json_of("incident list --json");
    ASSERT_FALSE(all.empty());
    const Outcome text = run_kcs("incident list");
    for (const auto& i : all) EXPECT_NE(text.out.find(i["id"].get<std::string>()), std::string::npos) << i["id"];
    const Json one = json_of("incident show sakana-memory-reuse --json");
    EXPECT_EQ(one["id"], "sakana-memory-reuse");
    EXPECT_FALSE(one["signature_text"].get<std::string>().empty());
    EXPECT_FALSE(one["references"].empty());
}

}  // namespace
