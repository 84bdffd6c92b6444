// The catalog digest: unchanged by layout, comments, key order, file order
// and number spelling; changed by any edit of meaning.
#include <algorithm>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "catalog_copy.hpp"

namespace kcs::spec {
namespace {

using testing::CatalogCopy;

std::string digest_of(const CatalogCopy& copy) {
    const LoadResult result = copy.load();
    EXPECT_TRUE(result.ok()) << testing::dump(result);
    return catalog_digest(result.catalog);
}

// Re-emits a YAML node in block style with every mapping's keys in reverse
// order, strings double-quoted: the same data, laid out differently.
void emit_reordered(YAML::Emitter& out, const YAML::Node& node) {
    if (node.IsMap()) {
        // Copies only: assigning a YAML::Node (as std::reverse would) writes
        // through to the node it refers to.
        const std::vector<std::pair<YAML::Node, YAML::Node>> entries(node.begin(), node.end());
        out << YAML::BeginMap;
        for (auto it = entries.rbegin(); it != entries.rend(); ++it) {
            const auto& [k, v] = *it;
            out << YAML::Key << k.Scalar() << YAML::Comment("reordered") << YAML::Value;
            emit_reordered(out, v);
        }
        out << YAML::EndMap;
    } else if (node.IsSequence()) {
        out << YAML::BeginSeq;
        for (const auto& item : node) emit_reordered(out, item);
        out << YAML::EndSeq;
    } else if (node.IsScalar()) {
        // Quote only what is not a number: quoting 1.0 would make it text.
        double number = 0;
        if (YAML::convert<double>::decode(node, number) && node.Tag() != "!") out << node.Scalar();
        else out << YAML::DoubleQuoted << node.Scalar();
    } else {
        out << YAML::Null;
    }
}

std::vector<std::string> all_yaml_files(const CatalogCopy& copy) {
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(copy.dir()))
        if (e.path().extension() == ".yaml") files.push_back(std::filesystem::relative(e.path(), copy.dir()).string());
    return files;
}

TEST(CatalogDigest, HasTheSha256Form) {
    CatalogCopy copy;
    EXPECT_TRUE(std::regex_match(digest_of(copy), std::regex("sha256:[0-9a-f]{64}")));
}

TEST(CatalogDigest, CanonicalJsonIsAFixpoint) {
    const LoadResult result = load_catalog(testing::source_catalog());
    const std::string text = canonical_json(result.catalog);
    EXPECT_EQ(nlohmann::json::parse(text).dump(), text);
    EXPECT_EQ(text.find('\n'), std::string::npos);
}

TEST(CatalogDigest, StableUnderReformattingAndKeyReordering) {
    CatalogCopy original, reformatted;
    for (const auto& rel : all_yaml_files(reformatted)) {
        YAML::Emitter out;
        out.SetIndent(4);
        out << YAML::Comment("re-emitted with reversed keys");
        emit_reordered(out, YAML::LoadFile(reformatted.path(rel).string()));
        reformatted.write(rel, std::string(out.c_str()) + "\n");
    }
    ASSERT_NE(original.read("classes/C-PRC-01.yaml"), reformatted.read("classes/C-PRC-01.yaml"));
    EXPECT_EQ(digest_of(original), digest_of(reformatted));
}

TEST(CatalogDigest, StableUnderIncludeOrderCommentsAndNumberSpelling) {
    CatalogCopy original, edited;
    edited.replace("catalog.yaml", "    - operators/matmul.yaml\n", "");
    edited.replace("catalog.yaml", "    - operators/gather.yaml\n", "    - operators/gather.yaml\n    - operators/matmul.yaml\n");
    edited.replace("catalog.yaml", "rtol: 0.01", "rtol: 1e-2   # the same number");
    edited.replace("classes/C-PRC-01.yaml", "{c: 1.0,", "{c: 1,");
    edited.replace("operators/matmul.yaml", "id: matmul\n", "# leading comment\nid:   matmul\n\n");
    EXPECT_EQ(digest_of(original), digest_of(edited));
}

struct SemanticEdit {
    std::string name, file, from, to;
};
void PrintTo(const SemanticEdit& e, std::ostream* os) { *os << e.name; }

class CatalogDigestEdit : public ::testing::TestWithParam<SemanticEdit> {};

TEST_P(CatalogDigestEdit, ChangesTheDigest) {
    const SemanticEdit& e = GetParam();
    CatalogCopy original, edited;
    edited.replace(e.file, e.from, e.to);
    const std::string before = digest_of(original);
    const std::string after = digest_of(edited);
    EXPECT_NE(before, after);
}

INSTANTIATE_TEST_SUITE_P(
    Edits, CatalogDigestEdit,
    ::testing::Values(
        SemanticEdit{"ToleranceConstant", "classes/C-PRC-01.yaml", "{c: 1.0,", "{c: 1.5,"},
        SemanticEdit{"PostconditionWording", "classes/C-PRC-01.yaml", "Each output element", "Every output element"},
        SemanticEdit{"SweepValue", "operators/matmul.yaml", "smoke: [64, 512]", "smoke: [64, 1024]"},
        // The accumulator: the config keeps its id, which calibration entries name.
        SemanticEdit{"ConfigDtype", "operators/matmul.yaml", "{inputs: [bf16, bf16], output: bf16, accumulate: f32}",
                     "{inputs: [bf16, bf16], output: bf16, accumulate: f16}"},
        SemanticEdit{"SpecVersion", "catalog.yaml", "spec_version: 1.1.0", "spec_version: 1.1.1"},
        SemanticEdit{"DepthSeeds", "catalog.yaml", "seeds: 3", "seeds: 4"},
        SemanticEdit{"ProtocolStepOrder", "classes/C-PRC-01.yaml",
                     "  - Poison the outputs, run the operator on the adapter, read the outputs back.\n", ""},
        SemanticEdit{"ClaimDefault", "catalog.yaml", "default: preserve", "default: flush"}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace kcs::spec
