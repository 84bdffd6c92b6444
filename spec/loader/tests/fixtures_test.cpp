// Malformed catalogs: each breaks a copy of the real catalog in one way and
// expects the loader to say what is wrong, in which file, at which line, with
// the right exit code (1 for findings, 2 when the input cannot be read).
#include <functional>

#include <gtest/gtest.h>

#include "catalog_copy.hpp"

namespace kcs::spec {
namespace {

using testing::CatalogCopy;

const std::string kClass = "classes/C-PRC-01.yaml";
const std::string kMatmul = "operators/matmul.yaml";
const std::string kCatalog = "catalog.yaml";

struct Fixture {
    std::string name;
    std::function<void(const CatalogCopy&)> mutate;
    std::string file;     // the diagnostic's file (suffix)
    std::string needle;   // text at the expected line in the mutated file; "" = whole file (line 0)
    std::string message;  // substring of the expected message
    int exit_code;        // 1 finding, 2 input error
};

void PrintTo(const Fixture& f, std::ostream* os) { *os << f.name; }

void erase_between(const CatalogCopy& c, const std::string& rel, const std::string& from, const std::string& to) {
    std::string text = c.read(rel);
    const auto a = text.find(from);
    const auto b = text.find(to, a);
    ASSERT_TRUE(a != std::string::npos && b != std::string::npos) << from << " .. " << to << " in " << rel;
    text.erase(a, b - a);
    c.write(rel, text);
}

const std::vector<Fixture>& fixtures() {
    static const std::vector<Fixture> all{
        {"MissingPostcondition",
         [](auto& c) { erase_between(c, kClass, "postcondition:", "tolerance:"); },
         kClass, "identifier:", "class C-PRC-01 is missing 'postcondition'", 1},
        {"MisspeltPartIsAnUnknownKey",
         [](auto& c) { c.replace(kClass, "postcondition:", "postcondtion:"); },
         kClass, "postcondtion:", "unknown key 'postcondtion'", 1},
        {"UnknownClassInOperator",
         [](auto& c) { c.replace(kMatmul, "  C-PRC-01:", "  C-PRC-13:"); },
         kMatmul, "C-PRC-13:", "class 'C-PRC-13' does not exist", 1},
        {"DuplicateClaimId",
         [](auto& c) { c.replace(kCatalog, "- id: batch_invariant", "- id: deterministic"); },
         kCatalog, "- id: deterministic\n    values: [\"true\", \"false\"]\n    default: \"false\"\n    description: >\n      A row",
         "duplicate claim id 'deterministic'", 1},
        {"DuplicateSignatureId",
         [](auto& c) { c.replace(kClass, "- id: biased-rounding", "- id: narrow-accumulator"); },
         kClass, "- id: narrow-accumulator\n    text: >\n      Every", "duplicate signature id 'narrow-accumulator'", 1},
        {"BadEnumValue",
         [](auto& c) { c.replace(kClass, "family: precision", "family: precise"); },
         kClass, "family: precise", "'precise' is not one of precision", 1},
        {"DanglingOperatorInScope",
         [](auto& c) { c.replace(kClass, "operators: [matmul,", "operators: [matmull,"); },
         kClass, "operators: [matmull,", "operator 'matmull' does not exist", 1},
        {"YamlSyntaxError",
         [](auto& c) { c.replace(kClass, "title: Accumulator preservation", "title: [Accumulator preservation"); },
         kClass, "", "YAML syntax error", 2},
        {"WrongTypeInTolerance",
         [](auto& c) { c.replace(kClass, "min_outputs: 1000", "min_outputs: many"); },
         kClass, "min_outputs: many", "tolerance.params.min_outputs must be an integer", 1},
        {"EmptyFile",
         [](auto& c) { c.write(kClass, "# nothing here\n"); },
         kClass, "", "file is empty", 2},
        {"NonUtf8Bytes",
         [](auto& c) { c.replace(kClass, "title: Accumulator", "title: Accumulator\xff"); },
         kClass, "title: Accumulator", "byte 0xFF is not valid UTF-8", 2},
        {"VeryLargeFile",
         [](auto& c) { c.write(kClass, c.read(kClass) + "# " + std::string(2 << 20, 'x') + "\n"); },
         kClass, "", "over the 1048576-byte limit", 2},
        {"MissingIncludedFile",
         [](auto& c) { c.remove("classes/C-PRC-02.yaml"); },
         kCatalog, "classes/C-PRC-02.yaml", "included file 'classes/C-PRC-02.yaml' does not exist", 2},
        {"DuplicateKey",
         [](auto& c) { c.replace(kClass, "  title: Accumulator preservation\n",
                                 "  title: Accumulator preservation\n  title: Again\n"); },
         kClass, "title: Again", "duplicate key 'title'", 1},
        {"CalibrationNamesUnknownSignature",
         [](auto& c) { c.replace(kClass, "signature: narrow-accumulator", "signature: narrow-acumulator"); },
         kClass, "signature: narrow-acumulator", "signature 'narrow-acumulator' does not exist", 1},
        {"ViolatorListedAsConforming",
         [](auto& c) { c.replace(kClass, "conforming: [reference-cpu]", "conforming: [f16-accumulate]"); },
         kClass, "conforming: [f16-accumulate]", "listed as conforming but is of kind violating", 1},
        {"UnknownToleranceModel",
         [](auto& c) { c.replace(kClass, "model: dot_bound", "model: dot_bnd"); },
         kClass, "model: dot_bnd", "'dot_bnd' is not one of", 1},
        {"ParameterOfWrongType",
         [](auto& c) { c.replace(kMatmul, "      smoke: [64, 512]", "      smoke: 64"); },
         kMatmul, "smoke: 64", "contracts.C-PRC-01.K.smoke must be a non-empty list (int_list)", 1},
        {"ParameterMissingADepth",
         [](auto& c) { c.replace(kMatmul, "      full: [64, 256, 1024, 4096, 16384]\n", ""); },
         kMatmul, "smoke: [64, 512]", "is missing 'full'", 1},
        {"UnknownParameter",
         [](auto& c) { c.replace(kMatmul, "permutations:", "permutation:"); },
         kMatmul, "permutation:", "unknown key 'permutation'", 1},
        {"ScopeWithoutOperatorEntry",
         [](auto& c) { erase_between(c, kMatmul, "  C-PRC-01:", "  C-PRC-03:"); },
         kClass, "operators: [matmul,", "has no contracts entry for C-PRC-01", 1},
        {"ClassIdDoesNotMatchFileName",
         [](auto& c) { c.replace(kClass, "id: C-PRC-01", "id: C-PRC-09"); },
         kClass, "id: C-PRC-09", "does not match its file name", 1},
        {"FileIsAListNotAMapping",
         [](auto& c) { c.write(kClass, "- identifier\n- scope\n"); },
         kClass, "- identifier", "expected a mapping at the top of the file", 2},
        {"UnknownClaimInProfile",
         [](auto& c) { c.replace("profiles/strict.yaml", "subnormals:", "subnormal:"); },
         "profiles/strict.yaml", "subnormal:", "claim 'subnormal' does not exist", 1},
        {"IncidentSignatureNotInClass",
         [](auto& c) { c.replace("incidents/ascend-precision-coercion.yaml", "signature: reduced-input-mantissa",
                                 "signature: narrow-accumulator"); },
         "incidents/ascend-precision-coercion.yaml", "signature: narrow-accumulator",
         "signature of C-PRC-03 'narrow-accumulator' does not exist", 1},
        {"ViolatorConfigNotOfItsOperators",
         [](auto& c) { c.replace("classes/C-PRC-03.yaml", "configs: [f32xf32-f32]     #", "configs: [f32xf32-f16]     #"); },
         "classes/C-PRC-03.yaml", "configs: [f32xf32-f16]",
         "dtype configuration of the listed operators 'f32xf32-f16' does not exist", 1},
        {"UnknownRequirementCondition",
         [](auto& c) { c.replace(kClass, "condition: accumulator", "condition: accumulators"); },
         kClass, "condition: accumulators", "'accumulators' is not one of accumulator", 1},
        {"RequirementOperatorOutsideTheScope",
         [](auto& c) {
             c.replace("classes/C-CMP-03.yaml", "operators: [layernorm, rmsnorm]\n    reason",
                       "operators: [layernorm, gather]\n    reason");
         },
         "classes/C-CMP-03.yaml", "operators: [layernorm, gather]", "requires names operator 'gather', which is not in the scope", 1},
        {"RequirementWithoutReason",
         [](auto& c) { c.replace(kClass, "    reason: config declares no accumulator\n", ""); },
         kClass, "- condition: accumulator", "is missing 'reason'", 1},
        {"SeedsBelowTwo",
         [](auto& c) { c.replace(kCatalog, "seeds: 2", "seeds: 1"); },
         kCatalog, "seeds: 1", "has 1 seeds", 1},
    };
    return all;
}

class MalformedCatalog : public ::testing::TestWithParam<Fixture> {};

TEST_P(MalformedCatalog, IsReportedAtTheRightPlace) {
    const Fixture& f = GetParam();
    CatalogCopy copy;
    f.mutate(copy);
    if (::testing::Test::HasFatalFailure()) return;
    const LoadResult result = copy.load();

    EXPECT_EQ(result.diagnostics.exit_code(), f.exit_code) << testing::dump(result);
    const Diagnostic* d = testing::find_diagnostic(result, f.file, f.message);
    ASSERT_NE(d, nullptr) << "expected '" << f.message << "' in " << f.file << ", got:\n" << testing::dump(result);
    if (f.needle.empty()) {
        if (f.message != "YAML syntax error") EXPECT_EQ(d->where.line, 0) << d->str();
        else EXPECT_GT(d->where.line, 0) << d->str();
    } else {
        const int expected = copy.line_of(f.file, f.needle);
        ASSERT_GT(expected, 0) << "needle not in mutated file";
        EXPECT_EQ(d->where.line, expected) << d->str();
    }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, MalformedCatalog, ::testing::ValuesIn(fixtures()),
                         [](const auto& info) { return info.param.name; });

TEST(MalformedCatalogRun, ReportsEveryProblemInOneRunInFileOrder) {
    CatalogCopy copy;
    copy.replace(kClass, "family: precision", "family: precise");
    copy.replace(kMatmul, "permutations:", "permutation:");
    copy.replace(kCatalog, "seeds: 2", "seeds: 1");
    const LoadResult result = copy.load();
    EXPECT_NE(testing::find_diagnostic(result, kClass, "'precise'"), nullptr);
    EXPECT_NE(testing::find_diagnostic(result, kMatmul, "unknown key 'permutation'"), nullptr);
    EXPECT_NE(testing::find_diagnostic(result, kCatalog, "has 1 seeds"), nullptr);
    const auto& all = result.diagnostics.all();
    for (std::size_t i = 1; i < all.size(); ++i)
        EXPECT_LE(std::tie(all[i - 1].where.file, all[i - 1].where.line), std::tie(all[i].where.file, all[i].where.line));
}

TEST(MalformedCatalogRun, HintsNameTheClosestKnownWord) {
    CatalogCopy copy;
    copy.replace(kClass, "operators: [matmul,", "operators: [matmull,");
    const LoadResult result = copy.load();
    const Diagnostic* d = testing::find_diagnostic(result, kClass, "operator 'matmull'");
    ASSERT_NE(d, nullptr) << testing::dump(result);
    EXPECT_EQ(d->hint, "did you mean 'matmul'?");
}

TEST(MalformedCatalogRun, MissingFolderAndMissingCatalogFileAreInputErrors) {
    EXPECT_EQ(load_catalog("/nonexistent/kcs/spec").diagnostics.exit_code(), 2);
    CatalogCopy copy;
    copy.remove(kCatalog);
    const LoadResult result = copy.load();
    EXPECT_EQ(result.diagnostics.exit_code(), 2);
    EXPECT_NE(testing::find_diagnostic(result, "catalog.yaml", "no catalog.yaml"), nullptr) << testing::dump(result);
}

// A hostile catalog found by fuzzing: one 30,000-character claim id. The
// id checks are loops, not a backtracking regular expression that recurses
// once per character and overflowed the stack.
TEST(HostileCatalog, AVeryLongIdIsAFindingNotACrash) {
    CatalogCopy copy;
    const std::string long_id(30000, 'x');
    copy.replace(kCatalog, "- id: oob_policy", "- id: " + long_id + "_");
    copy.replace(kCatalog, "spec_version: ", "spec_version: 1." + std::string(30000, '1') + "x #");
    const LoadResult result = copy.load();
    EXPECT_NE(testing::find_diagnostic(result, kCatalog, "is not a semantic version"), nullptr) << testing::dump(result);
    std::string wrong_id = long_id + "_";
    wrong_id[15000] = 'X';
    copy.replace(kCatalog, long_id + "_", wrong_id);
    EXPECT_NE(testing::find_diagnostic(copy.load(), kCatalog, "is not a valid id"), nullptr);
}

// Found by fuzzing: an included name longer than the file system allows
// made the file test throw (ENAMETOOLONG) and ended the process. It is an
// input error at the include, like a missing file.
TEST(HostileCatalog, AnIncludedNameTooLongForTheFileSystemIsAnInputErrorNotACrash) {
    CatalogCopy copy;
    copy.replace(kCatalog, "operators/matmul.yaml", "operators/" + std::string(300, 'm') + ".yaml");
    const LoadResult result = copy.load();
    EXPECT_EQ(result.diagnostics.exit_code(), 2) << testing::dump(result);
    EXPECT_NE(testing::find_diagnostic(result, kCatalog, "cannot be read (File name too long)"), nullptr)
        << testing::dump(result);
}

// A file that cannot be parsed is the root cause of what follows in the
// files that refer to it: it is printed first, the cascade after it.
TEST(MalformedCatalogRun, TheRootCauseOfABrokenIncludedFileComesFirst) {
    CatalogCopy copy;
    copy.write(kMatmul, "id: matmul\n  bad: [unclosed\n");
    const LoadResult result = copy.load();
    const auto& all = result.diagnostics.all();
    ASSERT_GT(all.size(), 2u) << testing::dump(result);  // the cascade: classes naming matmul
    EXPECT_NE(all.front().where.file.find(kMatmul), std::string::npos) << testing::dump(result);
    EXPECT_NE(all.front().message.find("YAML syntax error"), std::string::npos) << testing::dump(result);
    EXPECT_EQ(all.front().severity, Severity::input);
    for (std::size_t i = 1; i < all.size(); ++i) EXPECT_EQ(all[i].severity, Severity::finding) << all[i].str();
}

}  // namespace
}  // namespace kcs::spec
