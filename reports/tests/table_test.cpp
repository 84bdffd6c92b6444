// Comparison tables: what each cell says (outcome, counts, key figure),
// the order of rows and columns, the refusal to mix catalogs, and the
// three formats with hostile text in them.
#include <gtest/gtest.h>

#include <algorithm>

#include "kcs/harness/figures.hpp"
#include "kcs/reports/table.hpp"
#include "table_test_support.hpp"

namespace kcs::reports {
namespace {

using testing::entry_of;
using testing::MadeCase;
using testing::MadeInstance;
using testing::MadeReport;
using testing::measured;

// Figures as reports of earlier kcs named them: the table shows each by its
// one name (kcs/harness/figures.hpp).
constexpr const char* kDot = "max |y - y*| / dot_bound";
constexpr const char* kUlp = "max ulp error against cr";
constexpr const char* kHashes = "distinct output hashes";
constexpr const char* kPeff = "p_eff (effective input significand bits, at least the bound)";

// reference-cpu passes everything; calibration fails C-PRC-01 in one of
// two instances and passes determinism.
MadeReport conforming() {
    MadeReport r;
    r.instances = {measured("C-PRC-01", "matmul/f16xf16-f32/k-sweep", "PASS", kDot, 0.3, 1.0),
                   measured("C-PRC-01", "reduce_sum/f32-f32/k-sweep", "PASS", kDot, 0.5, 1.0),
                   measured("C-ORD-02", "matmul/f32xf32-f32/repeat", "PASS", kHashes, 1.0, 1.0)};
    return r;
}

MadeReport violating() {
    MadeReport r;
    r.adapter = {"calibration", "host CPU", "KCS", {"violation=f16-accumulate"}};
    r.instances = {measured("C-PRC-01", "matmul/f16xf16-f32/k-sweep", "FAIL", kDot, 1.1072426781942348, 1.0),
                   measured("C-PRC-01", "reduce_sum/f32-f32/k-sweep", "PASS", kDot, 0.9, 1.0),
                   measured("C-ORD-02", "matmul/f32xf32-f32/repeat", "PASS", kHashes, 1.0, 1.0)};
    return r;
}

const ClassRow& row(const ComparisonTable& table, const std::string& class_id) {
    const auto found =
        std::find_if(table.rows.begin(), table.rows.end(), [&](const ClassRow& r) { return r.class_id == class_id; });
    if (found == table.rows.end()) throw std::runtime_error("no row " + class_id);
    return *found;
}

std::string key_text(const TableCell& cell) { return cell.key ? cell.key->text : "(none)"; }

TEST(Table, TwoReportsWithDifferentVerdictsSideBySide) {
    const auto table = build_table({entry_of(conforming(), "ref.json"), entry_of(violating(), "cal.json")});

    ASSERT_EQ(table.columns.size(), 2u);
    EXPECT_EQ(table.columns[0].adapter, "reference-cpu");
    EXPECT_EQ(table.columns[1].adapter, "calibration");
    EXPECT_EQ(table.columns[1].source, "cal.json");
    EXPECT_EQ(table.columns[0].profile_verdict, "CONFORMANT");
    EXPECT_EQ(table.columns[1].profile_verdict, "NON-CONFORMANT");
    EXPECT_EQ(table.spec_version, "1.0.0");

    // Rows by class id, whatever order the instances came in.
    ASSERT_EQ(table.rows.size(), 2u);
    EXPECT_EQ(table.rows[0].class_id, "C-ORD-02");
    EXPECT_EQ(table.rows[0].title, "Run-to-run determinism");
    EXPECT_EQ(table.rows[1].class_id, "C-PRC-01");
    EXPECT_EQ(table.rows[1].title, "Accumulator preservation");

    const auto& prc = row(table, "C-PRC-01");
    EXPECT_EQ(prc.cells[0].outcome, CellOutcome::pass);
    EXPECT_EQ(prc.cells[0].counted, 2u);
    EXPECT_EQ(prc.cells[0].applicable, 2u);
    EXPECT_EQ(key_text(prc.cells[0]), "max |y-y*|/dot_bound 0.5 (≤1)");  // the larger of 0.3 and 0.5
    EXPECT_EQ(prc.cells[0].key->instance_id, "v1/C-PRC-01/reduce_sum/f32-f32/k-sweep");
    EXPECT_EQ(prc.cells[1].outcome, CellOutcome::fail);
    EXPECT_EQ(prc.cells[1].counted, 1u);
    EXPECT_EQ(key_text(prc.cells[1]), "max |y-y*|/dot_bound 1.11 (≤1)");
    EXPECT_EQ(key_text(row(table, "C-ORD-02").cells[1]), "1 distinct output hash (≤1)");

    const std::string md = render_table(table, TableFormat::markdown);
    EXPECT_NE(md.find("| **C-PRC-01** Accumulator preservation | **PASS 2/2**<br>max \\|y-y\\*\\|/dot\\_bound 0.5 (≤1) | "
                      "**FAIL 1/2**<br>max \\|y-y\\*\\|/dot\\_bound 1.11 (≤1) |"),
              std::string::npos)
        << md;
    EXPECT_LT(md.find("C-ORD-02"), md.find("C-PRC-01"));
    EXPECT_LT(md.find("**reference-cpu 0.1.0**"), md.find("**calibration 0.1.0 [violation=f16-accumulate]**"));
    EXPECT_NE(md.find("| Profile verdict | CONFORMANT | NON-CONFORMANT |"), std::string::npos) << md;
}

TEST(Table, FailCellShowsAFailingFigureEvenWhenAPassCameCloser) {
    MadeReport r;
    // A stalled sum of ones fails with its own signature while the ratio stays small.
    r.instances = {measured("C-PRC-01", "reduce_sum/f32-f32/ones", "FAIL", kDot, 0.25, 1.0),
                   measured("C-PRC-01", "matmul/f32xf32-f32/k-sweep", "PASS", kDot, 0.95, 1.0)};
    const auto table = build_table({entry_of(r, "r.json")});
    const auto& cell = row(table, "C-PRC-01").cells[0];
    EXPECT_EQ(cell.outcome, CellOutcome::fail);
    EXPECT_EQ(key_text(cell), "max |y-y*|/dot_bound 0.25 (≤1)");
}

TEST(Table, KeyFigureIsTheLargestRatioToItsBound) {
    MadeReport r;
    r.instances = {
        measured("C-CMP-01", "exp/f32-f32/range", "PASS", kUlp, 0.0, 2.0),
        measured("C-CMP-01", "tanh/f32-f32/range", "PASS", kUlp, 1.0, 3.0),
        // p_eff is a minimum: 11 bits against 24 is further off than 24 against 24.
        measured("C-PRC-03", "matmul/f32xf32-f32/probe", "PASS", kPeff, 24.0, 24.0),
        measured("C-PRC-03", "matmul/f16xf16-f32/probe", "FAIL", kPeff, 11.0, 24.0),
        measured("C-PRC-03", "matmul/bf16xbf16-f32/probe", "FAIL", kPeff, 8.0, 8.0),
        // Just past the bound must not read as the bound.
        measured("C-ORD-01", "reduce_sum/f32-f32/split", "FAIL",
                 "max D / B (path-dependence diameter over order_bound B)", 2.0004, 2.0),
        measured("C-ORD-02", "reduce_sum/f32-f32/repeat", "FAIL", kHashes, 2.0, 1.0),
        measured("C-EXC-01", "reduce_max/f32-f32/nan", "FAIL", "elements of the wrong IEEE class", 3.0, 0.0),
        measured("C-EXC-01", "softmax/f32-f32/inf", "FAIL", "elements of the wrong IEEE class", "nan", 0.0),
        measured("C-EXC-02", "gather/f32-f32/oob", "PASS", "a figure no form knows (its explanation)", 0.5, 1.0)};
    const auto table = build_table({entry_of(r, "r.json")});
    EXPECT_EQ(key_text(row(table, "C-CMP-01").cells[0]), "max ulp error 1 (≤3)");
    EXPECT_EQ(key_text(row(table, "C-PRC-03").cells[0]), "p_eff 11 bits (≥24)");
    EXPECT_EQ(key_text(row(table, "C-ORD-01").cells[0]), "max D/B 2.0004 (≤2)");
    EXPECT_EQ(key_text(row(table, "C-ORD-02").cells[0]), "2 distinct output hashes (≤1)");
    EXPECT_EQ(key_text(row(table, "C-EXC-01").cells[0]), "nan wrong-class elements (≤0)");  // NaN is the worst there is
    EXPECT_EQ(key_text(row(table, "C-EXC-02").cells[0]), "a figure no form knows 0.5 (≤1)");
}

// Which way a figure holds is its class's tolerance model's (cited in the
// evidence), never a guess from the figure's name.
TEST(Table, TheBoundsDirectionComesFromTheCitedModel) {
    MadeReport r;
    r.instances = {measured("C-PRC-01", "matmul/f32xf32-f32/k-sweep", "PASS", "a ratio, at least in name", 0.5, 1.0),
                   measured("C-PRC-03", "matmul/f32xf32-f32/probe", "PASS", "bits with no form", 24.0, 24.0)};
    const auto table = build_table({entry_of(r, "r.json")});
    EXPECT_EQ(key_text(row(table, "C-PRC-01").cells[0]), "a ratio, at least in name 0.5 (≤1)");
    EXPECT_EQ(key_text(row(table, "C-PRC-03").cells[0]), "bits with no form 24 (≥24)");
}

TEST(Table, NotApplicableCrashIncompleteErrorAndNotPlannedCells) {
    MadeReport a;
    MadeInstance na = measured("C-CMP-02", "exp/f32-f32/subnormal", "NOT_APPLICABLE", "", 0.0, 0.0);
    na.applicable = false;
    MadeInstance crash{"C-EXC-02", "gather/f32-f32/oob", "CRASH", {MadeCase{"CRASH", ""}}};
    MadeInstance timeout{"C-EXC-01", "softmax/f32-f32/inf", "TIMEOUT", {MadeCase{"TIMEOUT", ""}}};
    MadeInstance missing{"C-ORD-01", "reduce_sum/f32-f32/split", nullptr, {}};
    MadeInstance error{"C-PRC-03", "attention/f32-f32/probe", "ERROR", {MadeCase{"ERROR", ""}}};
    a.instances = {na, crash, measured("C-EXC-02", "gather/f32-f32/range", "PASS", "stale outputs (x)", 0.0, 0.0),
                   timeout, missing, measured("C-ORD-01", "reduce_sum/f32-f32/tree", "PASS", "max D / B (x)", 0.4, 1.0),
                   error,
                   // A FAIL outranks a CRASH in the same class.
                   crash, measured("C-PRC-01", "matmul/f16xf16-f32/k-sweep", "FAIL", kDot, 3.0, 1.0)};
    a.instances.back().class_id = "C-PRC-01";
    a.instances[7].class_id = "C-PRC-01";
    MadeReport b;
    b.instances = {measured("C-PRC-01", "matmul/f16xf16-f32/k-sweep", "PASS", kDot, 0.5, 1.0)};

    const auto table = build_table({entry_of(a, "a.json"), entry_of(b, "b.json")});
    const auto& na_cell = row(table, "C-CMP-02").cells[0];
    EXPECT_EQ(na_cell.outcome, CellOutcome::not_applicable);
    EXPECT_FALSE(na_cell.key);
    const auto& crash_cell = row(table, "C-EXC-02").cells[0];
    EXPECT_EQ(crash_cell.outcome, CellOutcome::crash);
    EXPECT_EQ(crash_cell.counted, 1u);
    EXPECT_EQ(crash_cell.applicable, 2u);
    EXPECT_EQ(key_text(crash_cell), "0 stale outputs (≤0)");                 // what the case that ran measured
    EXPECT_EQ(row(table, "C-EXC-01").cells[0].outcome, CellOutcome::crash);  // a timeout counts as one
    const auto& incomplete = row(table, "C-ORD-01").cells[0];
    EXPECT_EQ(incomplete.outcome, CellOutcome::incomplete);
    EXPECT_EQ(incomplete.counted, 1u);
    EXPECT_EQ(row(table, "C-PRC-03").cells[0].outcome, CellOutcome::error);
    EXPECT_EQ(row(table, "C-PRC-01").cells[0].outcome, CellOutcome::fail);
    EXPECT_EQ(row(table, "C-PRC-01").cells[1].outcome, CellOutcome::pass);
    // b plans nothing of the other classes.
    EXPECT_EQ(row(table, "C-EXC-02").cells[1].outcome, CellOutcome::not_planned);

    const std::string md = render_table(table, TableFormat::markdown);
    EXPECT_NE(md.find("| **C-CMP-02** Subnormal handling | **N/A** | **—** |"), std::string::npos) << md;
    EXPECT_NE(md.find("**CRASH 1/2**<br>0 stale outputs (≤0)"), std::string::npos) << md;
    EXPECT_NE(md.find("**INCOMPLETE 1/2**"), std::string::npos) << md;
}

TEST(Table, ReportsOfDifferentCatalogsAreRefused) {
    MadeReport newer = conforming();
    newer.spec_version = "1.1.0";
    try {
        build_table(
            {entry_of(conforming(), "old.json"), entry_of(violating(), "same.json"), entry_of(newer, "new.json")});
        FAIL() << "mixed spec versions were accepted";
    } catch (const TableError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("old.json"), std::string::npos) << what;
        EXPECT_NE(what.find("new.json"), std::string::npos) << what;
        EXPECT_NE(what.find("1.1.0"), std::string::npos) << what;
        EXPECT_EQ(what.find("same.json"), std::string::npos) << what;
    }

    MadeReport other_digest = conforming();
    other_digest.spec_digest = "sha256:" + std::string(64, '0');
    EXPECT_THROW(build_table({entry_of(conforming(), "a.json"), entry_of(other_digest, "b.json")}), TableError);
    EXPECT_NO_THROW(build_table({entry_of(conforming(), "a.json"), entry_of(violating(), "b.json")}));
}

TEST(Table, AShardsReportIsRefusedUntilMerged) {
    Json shard = testing::statement_of(conforming());
    shard["predicate"]["shard"] = {{"index", 2}, {"count", 4}};
    try {
        build_table({entry_of(conforming(), "whole.json"), {"part.json", shard, Admission::verified, ""}});
        FAIL() << "a shard's report was admitted";
    } catch (const TableError& e) {
        EXPECT_NE(std::string(e.what()).find("part.json: the report of one shard (2 of 4)"), std::string::npos)
            << e.what();
    }
}

TEST(Table, ADocumentThatIsNotAReportIsRefusedByName) {
    TableEntry bogus{"bogus.json", Json{{"_type", kStatementType}, {"predicateType", "urn:other"}}, Admission::verified,
                     ""};
    try {
        build_table({bogus});
        FAIL() << "accepted a Statement of another predicate type";
    } catch (const TableError& e) {
        EXPECT_NE(std::string(e.what()).find("bogus.json"), std::string::npos) << e.what();
    }
    Json broken = testing::statement_of(conforming());
    broken["predicate"]["instances"][0].erase("class");
    EXPECT_THROW(build_table({{"broken.json", broken, Admission::verified, ""}}), TableError);
    EXPECT_THROW(build_table({}), TableError);
}

TEST(Table, ReportRowsGiveVerdictCoveragePassRateSpecProfileAndDepth) {
    MadeReport partial = violating();
    partial.depth = "smoke";
    partial.instances.push_back({"C-ORD-02", "softmax/f32-f32/repeat", nullptr, {}});  // missing
    const auto table = build_table({entry_of(conforming(), "ref.json"), entry_of(partial, "cal.json")});
    EXPECT_EQ(table.columns[1].executed, 3u);
    EXPECT_EQ(table.columns[1].applicable, 4u);
    const std::string md = render_table(table, TableFormat::markdown);
    EXPECT_NE(md.find("| Coverage | 100% (3/3) | 75% (3/4) |"), std::string::npos) << md;
    EXPECT_NE(md.find("| Pass rate | 100% (3/3) | 66.7% (2/3) |"), std::string::npos) << md;
    EXPECT_NE(md.find("| Spec version | 1.0.0 | 1.0.0 |"), std::string::npos) << md;
    EXPECT_NE(md.find("| Profile | core | core |"), std::string::npos) << md;
    EXPECT_NE(md.find("| Depth | quick (not certifiable) | smoke (not certifiable) |"), std::string::npos) << md;
    EXPECT_NE(md.find("| Report | ref.json | cal.json |"), std::string::npos) << md;
}

// Each heading says what a publisher needs to tell runs apart: device,
// vendor, driver, profile and depth, scope, run date; a run restricted
// with --op says so in its heading and its verdict row, and is never a
// plain CONFORMANT.
TEST(Table, HeadingsTellRunsApartAndARestrictedRunIsPartial) {
    MadeReport restricted = conforming();
    restricted.operators = {"softmax"};
    restricted.driver_version = "Mesa 22.3.6";
    restricted.started = "2026-12-06T23:59:59.999Z";
    const auto table = build_table({entry_of(conforming(), "full.json"), entry_of(restricted, "op.json")});
    const std::string md = render_table(table, TableFormat::markdown);
    const std::string heading =
        md.substr(md.find("| Class |"), md.find('\n', md.find("| Class |")) - md.find("| Class |"));
    EXPECT_NE(heading.find("**reference-cpu 0.1.0**<br>host CPU<br>KCS<br>profile core, depth quick<br>every operator"
                           "<br>run 2026-12-07 |"),
              std::string::npos)
        << heading;
    EXPECT_NE(heading.find("<br>driver Mesa 22.3.6<br>profile core, depth quick<br>only --op softmax<br>run 2026-12-06 |"),
              std::string::npos)
        << heading;
    EXPECT_NE(md.find("| Profile verdict | CONFORMANT | CONFORMANT, PARTIAL<br>only --op softmax |"), std::string::npos)
        << md;
    const std::string html = render_table(table, TableFormat::html);
    EXPECT_NE(html.find("<td class=\"incomplete\" title=\"the run was restricted to some instances"), std::string::npos)
        << html;
    EXPECT_EQ(testing::parse_csv(render_table(table, TableFormat::csv))[0][4],
              "reference-cpu 0.1.0; host CPU; KCS; driver Mesa 22.3.6; profile core, depth quick; only --op softmax; "
              "run 2026-12-06");
}

// A run restricted by instance id is partial too.
TEST(Table, ARunRestrictedByIncludeIsPartial) {
    MadeReport restricted = conforming();
    restricted.include = {"v1/C-PRC-01/*"};
    const auto table = build_table({entry_of(restricted, "include.json")});
    const std::string md = render_table(table, TableFormat::markdown);
    EXPECT_NE(md.find("| Profile verdict | CONFORMANT, PARTIAL<br>only --include v1/C-PRC-01/\\* |"), std::string::npos)
        << md;
}

// Two runs alike in every heading line: their report files tell them apart.
TEST(Table, AlikeHeadingsNameTheirReportFiles) {
    const auto table = build_table({entry_of(conforming(), "monday.json"), entry_of(conforming(), "tuesday.json")});
    const auto records = testing::parse_csv(render_table(table, TableFormat::csv));
    EXPECT_NE(records[0][2], records[0][4]);
    EXPECT_NE(records[0][2].find("; report monday.json"), std::string::npos) << records[0][2];
    EXPECT_NE(records[0][4].find("; report tuesday.json"), std::string::npos) << records[0][4];
    const auto distinct = build_table({entry_of(conforming(), "a.json"), entry_of(violating(), "b.json")});
    EXPECT_EQ(render_table(distinct, TableFormat::csv).find("; report "), std::string::npos);
}

TEST(Table, AnUnsignedReportIsMarkedInItsHeadingAndSignatureRow) {
    const auto table = build_table(
        {entry_of(conforming(), "ref.json"), entry_of(violating(), "cal.json", Admission::unsigned_allowed)});
    const std::string md = render_table(table, TableFormat::markdown);
    const std::string heading =
        md.substr(md.find("| Class |"), md.find('\n', md.find("| Class |")) - md.find("| Class |"));
    EXPECT_EQ(heading.find("UNSIGNED"), heading.rfind("UNSIGNED")) << heading;  // once: the unsigned column only
    EXPECT_GT(heading.find("UNSIGNED"), heading.find("calibration")) << heading;
    EXPECT_NE(md.find("| Signature | verified: test key (keyid 0123abcd) | UNSIGNED |"), std::string::npos) << md;

    const std::string csv = render_table(table, TableFormat::csv);
    const auto records = testing::parse_csv(csv);
    EXPECT_EQ(records[0][4],
              "calibration 0.1.0 [violation=f16-accumulate]; host CPU; KCS; profile core, depth quick; every operator; "
              "run 2026-12-07; UNSIGNED");
    EXPECT_EQ(records[0][2], "reference-cpu 0.1.0; host CPU; KCS; profile core, depth quick; every operator; run 2026-12-07");

    const std::string html = render_table(table, TableFormat::html);
    EXPECT_NE(html.find("<span class=\"unsigned\">UNSIGNED</span>"), std::string::npos);
}

MadeReport hostile() {
    MadeReport r = violating();
    r.adapter.name = "<script>alert(\"x\")</script>&'| =1+1,\"q\"";
    r.adapter.device = "dev\r\nice, \"quoted\"";
    r.adapter.vendor = "=HYPERLINK(\"http://evil\")";
    return r;
}

TEST(Table, CsvParsesBackIntoTheSameTable) {
    const auto table = build_table({entry_of(conforming(), "ref.json"), entry_of(hostile(), "cal.json")});
    const std::string csv = render_table(table, TableFormat::csv);
    const auto records = testing::parse_csv(csv);

    // Header, two classes, eight report rows; every record as wide as the header.
    ASSERT_EQ(records.size(), 1u + 2u + 8u) << csv;
    for (const auto& record : records) EXPECT_EQ(record.size(), 2u + 2u * 2u) << csv;
    EXPECT_EQ(records[0][0], "class");
    EXPECT_EQ(records[0][4],
              "<script>alert(\"x\")</script>&'| =1+1,\"q\" 0.1.0 [violation=f16-accumulate]; "
              "dev\r\nice, \"quoted\"; =HYPERLINK(\"http://evil\"); profile core, depth quick; every operator; "
              "run 2026-12-07");
    EXPECT_EQ(records[0][5], records[0][4] + ": key figure");

    EXPECT_EQ(records[1], (std::vector<std::string>{"C-ORD-02", "Run-to-run determinism", "PASS 1/1", "1 distinct output hash (≤1)",
                                                    "PASS 1/1", "1 distinct output hash (≤1)"}));
    EXPECT_EQ(records[2],
              (std::vector<std::string>{"C-PRC-01", "Accumulator preservation", "PASS 2/2", "max |y-y*|/dot_bound 0.5 (≤1)",
                                        "FAIL 1/2", "max |y-y*|/dot_bound 1.11 (≤1)"}));
    EXPECT_EQ(records[3], (std::vector<std::string>{"Profile verdict", "", "CONFORMANT", "", "NON-CONFORMANT", ""}));
}

TEST(Table, CsvKeepsAFormulaAsText) {
    for (const std::string start : {"=", "+", "-", "@"}) {
        MadeReport r = conforming();
        r.adapter.name = start + "cmd|' /C calc'!A0";
        const auto records = testing::parse_csv(render_table(build_table({entry_of(r, "r.json")}), TableFormat::csv));
        EXPECT_EQ(records[0][2].substr(0, 5), std::string("'").append(start) + "cmd") << start;
        EXPECT_EQ(records[0][3].substr(0, 5), std::string("'").append(start) + "cmd") << start;
    }
}

TEST(Table, HtmlIsSelfContainedAndEscapesAHostileAdapter) {
    const auto table = build_table({entry_of(conforming(), "ref.json"), entry_of(hostile(), "<b>cal</b>.json")});
    const std::string html = render_table(table, TableFormat::html);

    EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_EQ(html.find("<script"), std::string::npos) << html;
    EXPECT_NE(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;| =1+1,&quot;q&quot;"),
              std::string::npos)
        << html;
    EXPECT_EQ(html.find("<b>cal</b>"), std::string::npos) << html;
    EXPECT_NE(html.find("&lt;b&gt;cal&lt;/b&gt;.json"), std::string::npos) << html;
    // Nothing is fetched from elsewhere: no external stylesheet, script, image or link.
    for (const char* external : {"<link", "src=", "href=", "@import", "url("})
        EXPECT_EQ(html.find(external), std::string::npos) << external;
    EXPECT_NE(html.find("<style>"), std::string::npos);
    EXPECT_NE(html.find("<td class=\"fail\""), std::string::npos);
    // A cell's title says what its figure measures.
    EXPECT_NE(html.find("title=\"v1/C-PRC-01/matmul/f16xf16-f32/k-sweep: " +
                        std::string(harness::figures::dot_error.meaning) + "\""),
              std::string::npos)
        << html;
}

TEST(Table, MarkdownKeepsAHostileAdapterInItsCell) {
    const auto table = build_table({entry_of(conforming(), "ref.json"), entry_of(hostile(), "cal.json")});
    const std::string md = render_table(table, TableFormat::markdown);
    EXPECT_EQ(md.find("<script"), std::string::npos) << md;
    // The heading line keeps three cells: every pipe of the name is escaped, and the CR LF is gone.
    const auto start = md.find("| Class |");
    const std::string heading = md.substr(start, md.find('\n', start) - start);
    std::size_t cells = 0;
    for (std::size_t i = 0; i < heading.size(); ++i)
        if (heading[i] == '|' && (i == 0 || heading[i - 1] != '\\')) ++cells;
    EXPECT_EQ(cells, 4u) << heading;
    EXPECT_EQ(heading.find('\r'), std::string::npos);
}

TEST(Table, FormatNames) {
    EXPECT_EQ(parse_table_format("md"), TableFormat::markdown);
    EXPECT_EQ(parse_table_format("markdown"), TableFormat::markdown);
    EXPECT_EQ(parse_table_format("html"), TableFormat::html);
    EXPECT_EQ(parse_table_format("csv"), TableFormat::csv);
    EXPECT_FALSE(parse_table_format("junit"));
    EXPECT_FALSE(parse_table_format(""));
}

}  // namespace
}  // namespace kcs::reports
