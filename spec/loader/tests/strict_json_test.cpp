// Strict JSON (strict_json.hpp) and the textual patterns (text_patterns.hpp).
#include <gtest/gtest.h>

#include <string>

#include "kcs/spec/strict_json.hpp"
#include "kcs/spec/text_patterns.hpp"

namespace kcs::spec {
namespace {

std::string refusal(const std::string& text, const JsonLimits& limits = {}) {
    try {
        parse_json_strict(text, limits);
    } catch (const JsonError& e) {
        return e.what();
    }
    return "";
}

TEST(StrictJson, AMemberNamedTwiceInOneObjectIsRefusedAtAnyDepth) {
    EXPECT_EQ(refusal(R"({"a": 1, "a": 2})"), "the member \"a\" appears twice in one object");
    EXPECT_EQ(refusal(R"({"x": [{"b": 1}, {"c": {"d": 0, "d": 0}}]})"), "the member \"d\" appears twice in one object");
    // The same name in different objects is no duplicate.
    EXPECT_EQ(parse_json_strict(R"({"a": {"a": 1}, "b": [{"a": 2}, {"a": 3}]})")["b"][1]["a"], 3);
}

TEST(StrictJson, SizeAndNestingAreBounded) {
    EXPECT_NE(refusal(std::string(100, ' ') + "1", {.max_bytes = 64}).find("101 bytes, over the limit of 64"),
              std::string::npos);
    const std::string deep = std::string(65, '[') + std::string(65, ']');
    EXPECT_EQ(refusal(deep), "nested deeper than 64 levels");
    EXPECT_EQ(refusal(std::string(64, '[') + std::string(64, ']')), "");
    EXPECT_EQ(refusal(std::string(200000, '[')).rfind("nested deeper", 0), 0u);  // no recursion on the way
}

TEST(StrictJson, NotJsonSaysWhere) { EXPECT_EQ(refusal("{\"a\": }").rfind("not JSON: ", 0), 0u); }

// Found by fuzzing kcs verify: a number past double's range escaped as
// nlohmann's out_of_range instead of a refusal.
TEST(StrictJson, ANumberPastTheRangeOfDoubleIsRefused) {
    EXPECT_NE(refusal(R"({"payload": 1E97641049})").find("number overflow"), std::string::npos);
    EXPECT_NE(refusal("-1e400").find("not JSON"), std::string::npos);
}

TEST(TextPatterns, MatchWhatTheRegularExpressionsMatched) {
    EXPECT_TRUE(is_plain_id("reduce_max"));
    EXPECT_TRUE(is_plain_id("f16-f32"));
    EXPECT_FALSE(is_plain_id("_x"));
    EXPECT_FALSE(is_plain_id("Matmul"));
    EXPECT_FALSE(is_plain_id(""));
    EXPECT_TRUE(is_class_id("C-PRC-01"));
    EXPECT_FALSE(is_class_id("C-PRC-1"));
    EXPECT_FALSE(is_class_id("C-XYZ-01"));
    EXPECT_FALSE(is_class_id("C-PRC-012"));
    EXPECT_TRUE(is_semantic_version("1.10.0"));
    EXPECT_FALSE(is_semantic_version("1.0"));
    EXPECT_FALSE(is_semantic_version("1.0.0-rc1"));
    EXPECT_TRUE(is_distribution("normal(0,1)"));
    EXPECT_TRUE(is_distribution("uniform(-1e-3, 2.5E+2)"));
    EXPECT_FALSE(is_distribution("normal(0 ,1)"));
    EXPECT_FALSE(is_distribution("normal(0,1) "));
    EXPECT_FALSE(is_distribution("cauchy(0,1)"));
    // Long inputs take a loop, not a stack frame per character.
    EXPECT_TRUE(is_plain_id(std::string(1 << 20, 'a')));
    EXPECT_FALSE(is_semantic_version(std::string(1 << 20, '1')));
}

}  // namespace
}  // namespace kcs::spec
