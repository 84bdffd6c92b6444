// The loader's small text helpers.
#include <gtest/gtest.h>

#include "yaml_reader.hpp"

namespace kcs::spec::detail {
namespace {

TEST(Utf8, AcceptsValidTextIncludingMultibyte) {
    EXPECT_EQ(first_invalid_utf8("plain ascii"), std::string::npos);
    EXPECT_EQ(first_invalid_utf8("gamma \xce\xb3, euro \xe2\x82\xac, emoji \xf0\x9f\x98\x80"), std::string::npos);
}

TEST(Utf8, FindsTheFirstBadByte) {
    EXPECT_EQ(first_invalid_utf8("ab\xff"), 2u);            // never valid
    EXPECT_EQ(first_invalid_utf8("a\xc3"), 1u);             // truncated sequence
    EXPECT_EQ(first_invalid_utf8("\xc0\xaf"), 0u);          // overlong '/'
    EXPECT_EQ(first_invalid_utf8("x\xed\xa0\x80"), 1u);     // UTF-16 surrogate
    EXPECT_EQ(first_invalid_utf8("\xf4\x90\x80\x80"), 0u);  // past U+10FFFF
    EXPECT_EQ(first_invalid_utf8("ok\xe2\x82"), 2u);        // cut short at the end
}

TEST(DidYouMean, SuggestsOnlyCloseWords) {
    const std::vector<std::string> words{"postcondition", "precondition", "scope"};
    EXPECT_EQ(did_you_mean("postcondtion", words), "did you mean 'postcondition'?");
    EXPECT_EQ(did_you_mean("scop", words), "did you mean 'scope'?");
    EXPECT_EQ(did_you_mean("tolerance", words), "");
}

TEST(Ids, ClassAndEntityIdPatterns) {
    EXPECT_TRUE(is_class_id("C-PRC-01"));
    EXPECT_FALSE(is_class_id("C-XYZ-01"));
    EXPECT_FALSE(is_class_id("C-PRC-1"));
    EXPECT_TRUE(is_valid_id("f16-accumulate"));
    EXPECT_TRUE(is_valid_id("reduce_sum"));
    EXPECT_FALSE(is_valid_id("Matmul"));
    EXPECT_FALSE(is_valid_id("-leading-dash"));
}

}  // namespace
}  // namespace kcs::spec::detail
