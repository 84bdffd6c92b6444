// kcs spec diff's judgement (catalog_diff.hpp): which changes a release
// may make at which version step (SPEC.md section 10), on the carried
// 1.0.0 release against the current catalog, and on copies of the current
// catalog with one change made.
#include <gtest/gtest.h>

#include <algorithm>

#include "catalog_copy.hpp"
#include "kcs/spec/catalog_diff.hpp"
#include "kcs/spec/text_patterns.hpp"

namespace kcs::spec {
namespace {

Catalog load(const std::filesystem::path& dir) {
    LoadResult r = load_catalog(dir);
    EXPECT_TRUE(r.ok()) << dir;
    return r.catalog;
}

const Catalog& current() {
    static const Catalog c = load(testing::source_catalog());
    return c;
}

// The changes whose subject and change are these (detail containing `detail`).
std::vector<CatalogChange> find(const CatalogDiff& diff, const std::string& subject, const std::string& change,
                                const std::string& detail = "") {
    std::vector<CatalogChange> found;
    for (const auto& c : diff.changes)
        if (c.subject == subject && c.change == change && c.detail.find(detail) != std::string::npos)
            found.push_back(c);
    return found;
}

std::string listing(const CatalogDiff& diff) {
    std::string out;
    for (const auto& c : diff.changes)
        out += std::string(to_string(c.needs)) + " " + c.subject + ": " + c.change + ": " + c.detail + "\n";
    return out;
}

TEST(Versions, OrderNumericallyAndNameTheirStep) {
    EXPECT_GT(compare_versions("1.10.0", "1.9.0"), 0);
    EXPECT_EQ(compare_versions("1.1.0", "1.1.0"), 0);
    EXPECT_LT(compare_versions("0.9.9", "1.0.0"), 0);
    EXPECT_EQ(version_step("1.0.0", "1.1.0"), VersionStep::minor);
    EXPECT_EQ(version_step("1.1.0", "1.1.3"), VersionStep::patch);
    EXPECT_EQ(version_step("1.9.2", "2.0.0"), VersionStep::major);
    EXPECT_FALSE(version_step("1.1.0", "1.0.0"));
    EXPECT_FALSE(version_step("1.1.0", "1.1.0"));
}

TEST(CatalogDiff, OfACatalogWithItselfIsEmpty) {
    const CatalogDiff diff = diff_catalogs(current(), current());
    EXPECT_TRUE(diff.changes.empty()) << listing(diff);
    EXPECT_EQ(diff.needed(), VersionStep::patch);
}

// The carried release 1.0.0 to the current catalog (1.1.0): a minor step,
// and what makes it one.
TEST(CatalogDiff, FromReleaseOneZeroIsMinor) {
    const Catalog released = load(testing::source_catalog().parent_path() / "releases" / "1.0.0");
    EXPECT_EQ(released.spec_version, "1.0.0");
    const CatalogDiff diff = diff_catalogs(released, current());
    EXPECT_EQ(diff.needed(), VersionStep::minor) << listing(diff);
    EXPECT_TRUE(diff.instances_removed.empty());
    // C-ORD-01's K became shapes whose K dimension holds every old K.
    EXPECT_EQ(find(diff, "operator matmul, C-ORD-01", "superseded", "parameter K by shapes").size(), 1u) << listing(diff);
    // C-ORD-03's power requirement: new evidence, minor.
    const auto evidence = find(diff, "class C-ORD-03", "added", "detection_probability");
    ASSERT_EQ(evidence.size(), 1u) << listing(diff);
    EXPECT_EQ(evidence[0].needs, VersionStep::minor);
    // Preconditions as data, for review.
    EXPECT_EQ(find(diff, "class C-PRC-01, requires accumulator on its scope", "added").size(), 1u) << listing(diff);
}

CatalogDiff diff_with(const std::string& file, const std::string& from, const std::string& to) {
    testing::CatalogCopy copy;
    copy.replace(file, from, to);
    return diff_catalogs(current(), load(copy.dir()));
}

TEST(CatalogDiff, AnyChangedBoundIsMajorAndSaysWhichWay) {
    const CatalogDiff looser = diff_with("classes/C-CMP-01.yaml", "exp:     {f32: 3,", "exp:     {f32: 4,");
    const auto loosened = find(looser, "class C-CMP-01", "loosened", "tolerance table.exp.f32: 3 -> 4");
    ASSERT_EQ(loosened.size(), 1u) << listing(looser);
    EXPECT_EQ(loosened[0].needs, VersionStep::major);
    EXPECT_EQ(looser.needed(), VersionStep::major);
    const CatalogDiff tighter = diff_with("classes/C-CMP-01.yaml", "exp:     {f32: 3,", "exp:     {f32: 2,");
    EXPECT_EQ(find(tighter, "class C-CMP-01", "tightened", "table.exp.f32").size(), 1u) << listing(tighter);
    EXPECT_EQ(tighter.needed(), VersionStep::major);
}

TEST(CatalogDiff, MoreEvidenceIsMinorLessIsMajor) {
    const CatalogDiff stronger =
        diff_with("classes/C-ORD-03.yaml", "detection_probability: 0.99", "detection_probability: 0.999");
    EXPECT_EQ(find(stronger, "class C-ORD-03", "stronger", "detection_probability").size(), 1u) << listing(stronger);
    EXPECT_EQ(stronger.needed(), VersionStep::minor);
    const CatalogDiff weaker =
        diff_with("classes/C-ORD-03.yaml", "detection_probability: 0.99", "detection_probability: 0.9");
    EXPECT_EQ(find(weaker, "class C-ORD-03", "weaker", "detection_probability").size(), 1u) << listing(weaker);
    EXPECT_EQ(weaker.needed(), VersionStep::major);
    // A protocol parameter: more values is stronger, fewer weaker.
    const CatalogDiff more_runs = diff_with("operators/matmul.yaml", "runs: {smoke: 20, quick: 20, full: 50}",
                                            "runs: {smoke: 20, quick: 30, full: 50}");
    EXPECT_EQ(find(more_runs, "operator matmul, C-ORD-02", "stronger", "runs at quick: 20 -> 30").size(), 1u)
        << listing(more_runs);
    EXPECT_EQ(more_runs.needed(), VersionStep::minor);
    const CatalogDiff fewer_runs = diff_with("operators/matmul.yaml", "runs: {smoke: 20, quick: 20, full: 50}",
                                             "runs: {smoke: 20, quick: 10, full: 50}");
    EXPECT_EQ(fewer_runs.needed(), VersionStep::major) << listing(fewer_runs);
}

TEST(CatalogDiff, ARemovedConfigurationRemovesInstancesAndIsMajor) {
    testing::CatalogCopy copy;
    const std::string text = copy.read("operators/cast.yaml");
    const auto entry = text.find("- {inputs: [f16], output: f32}");
    ASSERT_NE(entry, std::string::npos) << text;
    const auto line = text.rfind('\n', entry) + 1;
    copy.write("operators/cast.yaml", text.substr(0, line) + text.substr(text.find('\n', entry) + 1));
    const CatalogDiff diff = diff_catalogs(current(), load(copy.dir()));
    EXPECT_EQ(find(diff, "operator cast, config f16-f32", "removed").size(), 1u) << listing(diff);
    EXPECT_NE(std::find(diff.instances_removed.begin(), diff.instances_removed.end(), "C-PRC-04/cast/f16-f32"),
              diff.instances_removed.end());
    EXPECT_EQ(diff.needed(), VersionStep::major);
}

TEST(CatalogDiff, ProseIsAPatch) {
    const CatalogDiff diff = diff_with("classes/C-CMP-01.yaml", "reference_oracle: >\n", "reference_oracle: >\n  Plainly:\n");
    ASSERT_EQ(diff.changes.size(), 1u) << listing(diff);
    EXPECT_EQ(diff.changes[0].change, "text");
    EXPECT_EQ(diff.needed(), VersionStep::patch);
}

}  // namespace
}  // namespace kcs::spec
