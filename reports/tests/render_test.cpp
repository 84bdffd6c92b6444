// The renderers: what each format shows, that counts agree with the
// report, and that no string from the report escapes its escaping.
#include "kcs/reports/render.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "render_common.hpp"
#include "svg_charts.hpp"
#include "render_test_support.hpp"

namespace kcs::reports {
namespace {

using testing::kAwkwardSignature;
using testing::kHostile;
using testing::render_statement;

std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

// What a report holds, counted straight from its JSON.
struct Expected {
    std::set<std::string> classes, operators;
    std::map<std::string, std::size_t> verdicts;  // "MISSING" for null
    std::size_t instances = 0;
};

Expected expected_of(const Json& statement) {
    Expected e;
    for (const auto& i : statement["predicate"]["instances"]) {
        e.classes.insert(i["class"].get<std::string>());
        e.operators.insert(i["operator"].get<std::string>());
        ++e.verdicts[i["verdict"].is_null() ? "MISSING" : i["verdict"].get<std::string>()];
        ++e.instances;
    }
    return e;
}

std::string html_of(const Json& statement, RenderContext context = {}) {
    return render_report(statement, RenderFormat::html, context);
}

// The part of `text` from the first `start` after `anchor` to the next `end`.
std::string section_after(const std::string& text, const std::string& anchor, const std::string& start,
                          const std::string& end) {
    const auto a = text.find(anchor);
    if (a == std::string::npos) return "";
    const auto s = text.find(start, a);
    if (s == std::string::npos) return "";
    const auto e = text.find(end, s);
    return text.substr(s, e == std::string::npos ? std::string::npos : e + end.size() - s);
}

// ---- HTML ---------------------------------------------------------------------------

TEST(RenderHtml, TheMatrixHasOneCellPerClassAndOperator) {
    const Json statement = render_statement();
    const Expected e = expected_of(statement);
    const std::string html = html_of(statement);
    ASSERT_EQ(e.operators.size(), 2u);
    EXPECT_EQ(occurrences(html, "<td class=\"cell "), e.classes.size() * e.operators.size());
    // C-CMP-01 applies to softmax only, C-PRC-03 to matmul only: empty cells are drawn, marked.
    EXPECT_GE(occurrences(html, "<td class=\"cell empty\""), 2u);
    for (const auto& op : e.operators)
        EXPECT_NE(html.find("<th class=\"operator\">" + op + "</th>"), std::string::npos);
}

TEST(RenderHtml, CellsCountTheirInstancesVerdicts) {
    const Json statement = render_statement();
    std::size_t accumulator_matmul = 0, batch_matmul = 0;
    for (const auto& i : statement["predicate"]["instances"]) {
        accumulator_matmul += i["class"] == "C-PRC-01" && i["operator"] == "matmul";
        batch_matmul += i["class"] == "C-ORD-03" && i["operator"] == "matmul";
    }
    const std::string html = html_of(statement);
    const std::string n = std::to_string(accumulator_matmul);
    EXPECT_NE(html.find("<span class=\"verdicts\">FAIL 1/" + n + "</span><span class=\"rest\">" +
                        std::to_string(accumulator_matmul - 1) + " PASS</span>"),
              std::string::npos);
    const std::string m = std::to_string(batch_matmul);
    EXPECT_NE(html.find("<span class=\"verdicts\">" + m + "/" + m + " PASS</span>"), std::string::npos);
    EXPECT_EQ(occurrences(html, "<td class=\"cell v-fail\""), 2u);   // C-PRC-01 and C-ORD-02, matmul
    EXPECT_EQ(occurrences(html, "<td class=\"cell v-crash\""), 1u);  // C-EXC-01 matmul
    EXPECT_EQ(occurrences(html, "<td class=\"cell v-error\""), 1u);
    EXPECT_EQ(occurrences(html, "<td class=\"cell v-timeout\""), 1u);
    EXPECT_EQ(occurrences(html, "<td class=\"cell v-unsupported\""), 1u);
    // The key figure of the failing cell is the infinite one, as the comparison tables write it.
    EXPECT_NE(html.find("max |y-y*|/dot_bound inf (≤1)"), std::string::npos);
}

// A figure has one name: the matrix cell, the instance's details and the
// comparison tables all use it (kcs/harness/figures.hpp).
TEST(RenderHtml, AFigureReadsTheSameInTheMatrixAndTheDetails) {
    const std::string html = html_of(render_statement());
    EXPECT_NE(html.find("2 distinct output hashes (≤1)"), std::string::npos);
    EXPECT_NE(html.find("<span class=\"fig\">2 distinct output hashes (bound 1): distinct hashes of the output"),
              std::string::npos);
    EXPECT_NE(html.find("<span class=\"fig\">max ulp error 2 (bound 3): the largest distance"), std::string::npos);
    EXPECT_EQ(html.find("max ulp error against cr"), std::string::npos);
}

TEST(RenderHtml, TheBannerGivesTheProfileVerdictCoverageAndPassRateApart) {
    const Json statement = render_statement();
    const Json& counts = statement["predicate"]["summary"]["profile"]["counts"];
    const std::string html = html_of(statement);
    const std::string banner = section_after(html, "<body>", "<header class=\"banner", "</header>");
    ASSERT_FALSE(banner.empty());
    EXPECT_NE(banner.find("class=\"banner j-non-conformant\""), std::string::npos);
    EXPECT_NE(banner.find("<p class=\"profile-verdict\">NON-CONFORMANT</p>"), std::string::npos);
    EXPECT_NE(banner.find("(executed / applicable: " + counts["executed"].dump() + " / " + counts["applicable"].dump()),
              std::string::npos);
    EXPECT_NE(banner.find("(PASS / executed: " + counts["pass"].dump() + " / " + counts["executed"].dump()),
              std::string::npos);
    const Json& profile = statement["predicate"]["summary"]["profile"];
    const std::string coverage = render::percent(profile["coverage"]),
                      pass_rate = render::percent(profile["pass_rate"]);
    ASSERT_NE(coverage, pass_rate);  // the report has ERROR and UNSUPPORTED instances and failures
    EXPECT_NE(banner.find("<span class=\"coverage\">coverage <strong>" + coverage + "</strong>"), std::string::npos);
    EXPECT_NE(banner.find("<span class=\"pass-rate\">pass rate <strong>" + pass_rate + "</strong>"), std::string::npos);
    EXPECT_NE(banner.find("Not a certificate:"), std::string::npos);
    EXPECT_NE(banner.find("<li>unsigned (a development run)</li>"), std::string::npos);
    EXPECT_NE(banner.find("UNSIGNED"), std::string::npos);
}

TEST(RenderHtml, TheBannerSaysWhatIsKnownOfTheSignature) {
    const Json statement = render_statement();
    RenderContext envelope;
    envelope.signature = SignatureStatus::not_checked;
    const std::string unchecked = html_of(statement, envelope);
    EXPECT_NE(unchecked.find("<p class=\"signature not-checked\">UNVERIFIED: an envelope whose signature was not checked"),
              std::string::npos);
    EXPECT_EQ(unchecked.find("SIGNED"), std::string::npos);  // nor UNSIGNED: an unverified envelope claims neither
    EXPECT_EQ(unchecked.find("UNSIGNED (a bare"), std::string::npos);

    RenderContext verified;
    verified.signature = SignatureStatus::verified;
    verified.signer_label = "vendor release key";
    verified.signer_keyid = "0123abcd";
    const std::string good = html_of(statement, verified);
    EXPECT_NE(good.find("<p class=\"signature verified\">SIGNED and verified: vendor release key (keyid 0123abcd)"),
              std::string::npos);
}

TEST(RenderHtml, AnUnfinishedRunIsIncompleteAndItsMissingInstancesShow) {
    const Json statement = render_statement({.finished = false, .failures = false});
    const std::string html = html_of(statement);
    EXPECT_NE(html.find("<header class=\"banner j-incomplete\""), std::string::npos);
    EXPECT_NE(html.find("<p class=\"profile-verdict\">INCOMPLETE</p>"), std::string::npos);
    EXPECT_NE(html.find("The run did not finish (state interrupted)"), std::string::npos);
    EXPECT_GE(occurrences(html, "<td class=\"cell v-missing\""), 1u);
    EXPECT_EQ(occurrences(html, "<td class=\"cell v-fail\""), 0u);
    EXPECT_EQ(occurrences(html, "<details class=\"instance v-missing\""), 3u);
}

TEST(RenderHtml, AFailureDecidesEvenAnUnfinishedRun) {
    const std::string html = html_of(render_statement({.finished = false}));
    EXPECT_NE(html.find("<p class=\"profile-verdict\">NON-CONFORMANT</p>"), std::string::npos);
    EXPECT_NE(html.find("The run did not finish (state interrupted)"), std::string::npos);
    EXPECT_EQ(occurrences(html, "<details class=\"instance v-missing\""), 3u);
}

TEST(RenderHtml, EveryStringFromTheReportIsEscaped) {
    const std::string html = html_of(render_statement({.hostile = true}));
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("<img"), std::string::npos);
    EXPECT_EQ(html.find('\x01'), std::string::npos);
    EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;quoted&quot; &#39;single&#39;"),
              std::string::npos);
    EXPECT_NE(html.find("&lt;img src=x onerror=alert(2)&gt;"), std::string::npos);
}

TEST(RenderHtml, ThePageFetchesNothing) {
    const std::string html = html_of(render_statement());
    EXPECT_EQ(html.find("<script"), std::string::npos);
    EXPECT_EQ(html.find("<link"), std::string::npos);
    EXPECT_EQ(html.find("<img"), std::string::npos);
    EXPECT_EQ(html.find("src="), std::string::npos);
    EXPECT_EQ(html.find("@import"), std::string::npos);
    EXPECT_EQ(html.find("url("), std::string::npos);
    EXPECT_EQ(html.find("@font-face"), std::string::npos);
    EXPECT_NE(html.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                        "style-src 'unsafe-inline'\">"),
              std::string::npos);
    // Links only to anchors in the page.
    const std::regex href("href=\"([^\"]*)\"");
    std::size_t links = 0;
    for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator(); ++it, ++links)
        EXPECT_EQ((*it)[1].str().front(), '#') << (*it)[1].str();
    EXPECT_GT(links, 0u);
}

TEST(RenderHtml, InstancesHaveDetailsWithTheirReproCommand) {
    const Json statement = render_statement();
    const std::string html = html_of(statement);
    EXPECT_EQ(occurrences(html, "<details class=\"instance "), statement["predicate"]["instances"].size());
    for (const auto& instance : statement["predicate"]["instances"]) {
        if (instance["cases"].empty()) continue;  // NOT_APPLICABLE: nothing ran, nothing to replay
        EXPECT_NE(
            html.find("<code class=\"repro\">" + render::escape_html(instance["repro"].get<std::string>()) + "</code>"),
            std::string::npos);
    }
    EXPECT_EQ(occurrences(html, "<strong>Worst element</strong>"), 1u);  // only the failing case recorded one
    EXPECT_NE(html.find("got 16 (<code>0x41800000</code>)"), std::string::npos);
}

// A worst element that fails by its bits (error and bound both 0: its case
// counts such elements) says so; "error 0 against bound 0" would read as
// no failure at all.
TEST(RenderHtml, AWorstElementThatDiffersInItsBitsSaysSo) {
    Json statement = render_statement();
    Json* worst = nullptr;
    for (auto& instance : statement["predicate"]["instances"])
        for (auto& c : instance["cases"])
            if (c["evidence"].contains("worst") && c["evidence"]["worst"].is_object()) worst = &c["evidence"]["worst"];
    ASSERT_NE(worst, nullptr);
    const double error = (*worst)["error"], bound = (*worst)["bound"];
    ASSERT_FALSE(error == 0 && bound == 0);
    EXPECT_NE(html_of(statement).find("; error "), std::string::npos);
    (*worst)["error"] = 0.0;
    (*worst)["bound"] = 0.0;
    const std::string html = html_of(statement);
    EXPECT_EQ(html.find("error 0 against bound 0"), std::string::npos);
    EXPECT_NE(html.find("its bits differ from every value allowed"), std::string::npos);
    EXPECT_EQ(unmeasured_error_text(0.5, 1.0), "");
    EXPECT_EQ(unmeasured_error_text(0.0, 1.0), "");
}

// The chart drawn in the details of the instance with this id.// The chart drawn in the details of the instance with this id.
std::string chart_of(const std::string& html, const std::string& instance_id) {
    return section_after(html, "<code class=\"id\">" + instance_id + "</code>", "<svg", "</svg>");
}

std::string first_id(const Json& statement, const std::string& class_id, const std::string& op) {
    for (const auto& i : statement["predicate"]["instances"])
        if (i["class"] == class_id && i["operator"] == op) return i["id"];
    return "";
}

TEST(RenderHtml, AccumulatorInstancesDrawErrorAgainstK) {
    const Json statement = render_statement();
    const std::string html = html_of(statement);
    const std::string chart = chart_of(html, first_id(statement, "C-PRC-01", "matmul"));
    ASSERT_FALSE(chart.empty());
    EXPECT_NE(chart.find("class=\"chart line-chart\""), std::string::npos);
    for (const char* k : {">64<", ">512<", ">4096<"}) EXPECT_NE(chart.find(k), std::string::npos) << k;
    EXPECT_EQ(occurrences(chart, "<g class=\"series\">"), 2u);       // one per seed
    EXPECT_EQ(occurrences(chart, "class=\"point off-scale\""), 1u);  // the infinite ratio at K = 4096
    EXPECT_NE(chart.find(">inf<"), std::string::npos);
    EXPECT_EQ(occurrences(chart, "class=\"reference\""), 1u);  // the bound
    EXPECT_NE(chart.find("K (reduction length)"), std::string::npos);
}

TEST(RenderHtml, ApproximationInstancesDrawUlpErrorPerBinadeAndSubdomain) {
    const Json statement = render_statement();
    const std::string html = html_of(statement);
    const std::string id = first_id(statement, "C-CMP-01", "softmax");
    // The binades as a line per sign over E (a sweep of 250 binades stays readable) ...
    const std::string binades = chart_of(html, id);
    ASSERT_FALSE(binades.empty());
    EXPECT_NE(binades.find("class=\"chart line-chart\""), std::string::npos);
    EXPECT_EQ(occurrences(binades, "<circle class=\"point\""), 3u);  // the 3 binades of x < 0
    EXPECT_NE(binades.find(">x &lt; 0<"), std::string::npos);
    EXPECT_NE(binades.find("max ulp error"), std::string::npos);
    // ... then the sub-domains as bars.
    const std::string subdomains =
        section_after(html, "<code class=\"id\">" + id + "</code>", "max ulp error per sub-domain", "</svg>");
    EXPECT_EQ(occurrences(subdomains, "<rect class=\"bar"), 3u);  // core, small arguments, underflow
    EXPECT_NE(subdomains.find(">underflow<"), std::string::npos);
}

TEST(RenderHtml, DeterminismInstancesDrawRunsPerDistinctHash) {
    const Json statement = render_statement();
    const std::string chart = chart_of(html_of(statement), first_id(statement, "C-ORD-02", "matmul"));
    ASSERT_FALSE(chart.empty());
    EXPECT_EQ(occurrences(chart, "<rect class=\"bar"), 2u);
    EXPECT_NE(chart.find(">aaaaaaaaaaaa<"), std::string::npos);
    EXPECT_NE(chart.find(">30<"), std::string::npos);
    EXPECT_NE(chart.find(">10<"), std::string::npos);
}

TEST(RenderHtml, PicturesSectionSummarisesTheClassesWithPictures) {
    const std::string html = html_of(render_statement());
    const std::string all = section_after(html, "<body>", "<section class=\"pictures\"", "</section>");
    ASSERT_FALSE(all.empty());
    // C-PRC-01: one chart per operator; C-ORD-02: one. C-CMP-01's instances
    // all have the same figure and bound: a chart could show no difference.
    EXPECT_EQ(occurrences(all, "<svg "), 3u);
    EXPECT_EQ(all.find("C-CMP-01: "), std::string::npos);
    EXPECT_NE(all.find("C-PRC-01 matmul: error against K"), std::string::npos);
    EXPECT_NE(all.find("C-ORD-02: distinct output hashes per instance"), std::string::npos);
}

// ---- the pictures themselves ---------------------------------------------------------

// Heights of the bars (<rect class="bar" ... height="H">), in order.
std::vector<double> bar_heights(const std::string& svg) {
    std::vector<double> out;
    const std::regex bar(R"re(<rect class="bar[^"]*"[^>]* height="([0-9.]+)")re");
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), bar); it != std::sregex_iterator(); ++it)
        out.push_back(std::stod((*it)[1]));
    return out;
}

// Values over 37 decades: a log axis, on which the small bars still show
// (on a linear one, 2.1e37 would flatten them to nothing); a 0 is a hollow
// marker at the axis.
using render::BarChart;
using render::LineChart;
using render::bar_chart_svg;
using render::line_chart_svg;

TEST(SvgCharts, BarsSpanningDecadesGetALogAxis) {
    BarChart chart{"ulp", "instance", "max ulp error", {{"a", 1, {}, ""}, {"b", 12, {}, ""}, {"c", 2.1e37, {}, ""},
                                                       {"d", 0, {}, ""}}, 3.0, "bound"};
    const std::string svg = bar_chart_svg(chart);
    EXPECT_NE(svg.find("max ulp error (log scale)"), std::string::npos);
    const auto heights = bar_heights(svg);
    ASSERT_EQ(heights.size(), 3u);
    EXPECT_GT(heights[0], 5.0) << "the bar of 1 vanished";
    EXPECT_GT(heights[1], heights[0]);
    EXPECT_EQ(occurrences(svg, "<circle class=\"bar zero\""), 1u);
    chart.bars = {{"a", 1, {}, ""}, {"b", 3, {}, ""}};
    EXPECT_EQ(bar_chart_svg(chart).find("(log scale)"), std::string::npos) << "two values a decade apart: linear";
}

// A picture that cannot show a difference is not drawn.
TEST(SvgCharts, NoPictureOfOneBarOrOfBarsAllAlike) {
    BarChart chart{"hashes", "instance", "distinct hashes", {}, std::nullopt, ""};
    for (int i = 0; i < 76; ++i) chart.bars.push_back({"instance " + std::to_string(i), 1, 1.0, ""});
    EXPECT_EQ(bar_chart_svg(chart), "");
    chart.bars.resize(1);
    EXPECT_EQ(bar_chart_svg(chart), "");
    chart.bars.push_back({"other", 2, 1.0, ""});
    EXPECT_NE(bar_chart_svg(chart), "");
}

// 250 binades on the x axis: their labels stay at least 40 px apart.
TEST(SvgCharts, LineChartLabelsDoNotOverlap) {
    LineChart chart{"binades", "E", "max ulp error", {{"x > 0", {}}}, std::nullopt, ""};
    for (int e = -126; e < 128; ++e) chart.series[0].points.push_back({static_cast<double>(e), 1.0 + (e % 7)});
    const std::string svg = line_chart_svg(chart);
    const std::regex label(R"re(<text x="([0-9.]+)" y="[0-9.]+" text-anchor="middle">-?[0-9]+</text>)re");
    std::vector<double> xs;
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), label); it != std::sregex_iterator(); ++it)
        xs.push_back(std::stod((*it)[1]));
    ASSERT_GE(xs.size(), 5u);
    EXPECT_LT(xs.size(), 40u);
    for (std::size_t i = 1; i < xs.size(); ++i) EXPECT_GE(xs[i] - xs[i - 1], 40.0);
}

// ---- Markdown -----------------------------------------------------------------------

TEST(RenderMarkdown, TheMatrixIsATableWithOneRowPerClass) {
    const Json statement = render_statement();
    const Expected e = expected_of(statement);
    const std::string md = render_report(statement, RenderFormat::markdown, {});
    EXPECT_NE(md.find("| Class | Verdict | matmul | softmax |"), std::string::npos);
    EXPECT_EQ(occurrences(md, "\n| C-"), e.classes.size());
    EXPECT_NE(md.find("**NON-CONFORMANT** (profile core)"), std::string::npos);
    EXPECT_NE(md.find("UNSIGNED"), std::string::npos);
}

TEST(RenderMarkdown, NonPassingInstancesAreListedWithTheirRepro) {
    const Json statement = render_statement();
    const Expected e = expected_of(statement);
    const std::string md = render_report(statement, RenderFormat::markdown, {});
    // NOT_APPLICABLE instances ran no case: they are counted, not listed.
    const std::size_t not_passing = e.instances - e.verdicts.at("PASS") - e.verdicts.at("NOT_APPLICABLE");
    EXPECT_NE(md.find("## Not passing (" + std::to_string(not_passing) + ")"), std::string::npos);
    EXPECT_EQ(occurrences(md, "\n- **"), not_passing);
    EXPECT_EQ(occurrences(md, "\n  `kcs run --adapter"), not_passing);
}

// `md` without its code spans (whose text Markdown shows as is, never as markup).
std::string without_code_spans(const std::string& md) {
    std::string out;
    for (std::size_t i = 0; i < md.size();) {
        if (md[i] != '`') {
            out += md[i++];
            continue;
        }
        const std::size_t run = md.find_first_not_of('`', i) - i;
        const std::size_t close = md.find(std::string(run, '`'), i + run);
        if (close == std::string::npos) return out + md.substr(i);
        i = close + run;
    }
    return out;
}

TEST(RenderMarkdown, HostileTextStaysText) {
    const std::string md = render_report(render_statement({.hostile = true}), RenderFormat::markdown, {});
    const std::string prose = without_code_spans(md);
    EXPECT_LT(prose.size(), md.size());
    EXPECT_EQ(prose.find("<script"), std::string::npos);
    EXPECT_EQ(prose.find("<img"), std::string::npos);
    EXPECT_NE(prose.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
    // Code spans hold the repro line exactly, on one line.
    EXPECT_NE(md.find("`kcs run --adapter 'reference-cpu <script>alert(1)</script> & \"quoted\" '\\''single'\\'' "),
              std::string::npos);
}

// ---- CSV ----------------------------------------------------------------------------

// RFC 4180, strictly: CRLF records, quoted fields with doubled quotes.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1, std::vector<std::string>(1));
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        std::string& field = rows.back().back();
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            EXPECT_TRUE(field.empty()) << "a quote inside an unquoted field";
            quoted = true;
        } else if (c == ',') {
            rows.back().emplace_back();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            rows.emplace_back(1);
            ++i;
        } else {
            EXPECT_NE(c, '\n') << "a bare newline outside quotes";
            field += c;
        }
    }
    EXPECT_FALSE(quoted);
    if (rows.back().size() == 1 && rows.back()[0].empty()) rows.pop_back();  // after the last CRLF
    return rows;
}

TEST(RenderCsv, OneRowPerInstanceThatReadsBack) {
    const Json statement = render_statement({.finished = false});
    const std::string csv = render_report(statement, RenderFormat::csv, {});
    const auto rows = parse_csv(csv);
    const Json& instances = statement["predicate"]["instances"];
    ASSERT_EQ(rows.size(), instances.size() + 1);
    EXPECT_EQ(rows[0], (std::vector<std::string>{"id", "class", "operator", "config", "variant", "verdict",
                                                 "figure_name", "figure", "bound", "signature", "repro"}));
    bool saw_awkward = false, saw_missing = false;
    for (std::size_t i = 0; i < instances.size(); ++i) {
        const auto& row = rows[i + 1];
        const Json& instance = instances[i];
        ASSERT_EQ(row.size(), 11u) << i;
        EXPECT_EQ(row[0], instance["id"]);
        EXPECT_EQ(row[1], instance["class"]);
        EXPECT_EQ(row[2], instance["operator"]);
        EXPECT_EQ(row[3], instance["config"]["id"]);
        EXPECT_EQ(row[5], instance["verdict"].is_null() ? "MISSING" : instance["verdict"].get<std::string>());
        if (instance["cases"].empty()) {  // missing, or NOT_APPLICABLE: no case ran
            saw_missing = saw_missing || instance["verdict"].is_null();
            EXPECT_EQ(row[7], "");
            EXPECT_EQ(row[10], "");
            continue;
        }
        const Json& decider = instance["cases"][instance["worst_case"].get<std::size_t>()];
        EXPECT_EQ(row[6], decider["evidence"]["figure_name"]);
        const Json& figure = decider["evidence"]["figure"];
        if (figure.is_number())
            EXPECT_EQ(std::stod(row[7]), figure.get<double>());
        else
            EXPECT_EQ(row[7], figure.get<std::string>());
        EXPECT_EQ(row[9], decider["signature"]);
        EXPECT_EQ(row[10], instance["repro"]);
        saw_awkward = saw_awkward || row[9] == kAwkwardSignature;
    }
    EXPECT_TRUE(saw_awkward);
    EXPECT_TRUE(saw_missing);
    EXPECT_NE(csv.find("\"narrow,\"\"accumulator\"\"\nsecond line\""), std::string::npos);
}

TEST(RenderCsv, FieldsAreQuotedOnlyWhereTheyMustBe) {
    EXPECT_EQ(render::csv_field("plain"), "plain");
    EXPECT_EQ(render::csv_field("a,b"), "\"a,b\"");
    EXPECT_EQ(render::csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(render::csv_field("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(render::csv_field("cr\r"), "\"cr\r\"");
    EXPECT_EQ(render::csv_field(""), "");
}

TEST(RenderCsv, TextThatLooksLikeAFormulaIsKeptAsText) {
    EXPECT_EQ(render::csv_field("=1+1"), "'=1+1");
    EXPECT_EQ(render::csv_field("+cmd"), "'+cmd");
    EXPECT_EQ(render::csv_field("-x"), "'-x");
    EXPECT_EQ(render::csv_field("-"), "'-");
    EXPECT_EQ(render::csv_field("@SUM(A1)"), "'@SUM(A1)");
    EXPECT_EQ(render::csv_field("\tx"), "'\tx");
    EXPECT_EQ(render::csv_field("\rx"), "\"'\rx\"");
    EXPECT_EQ(render::csv_field("=HYPERLINK(\"x\",\"y\")"), "\"'=HYPERLINK(\"\"x\"\",\"\"y\"\")\"");
    EXPECT_EQ(render::csv_field("-1.5e3x"), "'-1.5e3x");  // a number, then more: text
    EXPECT_EQ(render::csv_field("a=b"), "a=b");            // only the first character counts
}

TEST(RenderCsv, NegativeNumbersStayNumbers) {
    for (const char* number : {"-1.5", "-0", "-1e-300", "-1.7976931348623157e+308", "-inf"})
        EXPECT_EQ(render::csv_field(number), number);
}

TEST(RenderCsv, AHostileFigureNameIsTextAndANegativeFigureANumber) {
    Json statement = render_statement();
    Json* changed = nullptr;
    for (auto& instance : statement["predicate"]["instances"]) {
        if (!instance["cases"].empty()) {
            changed = &instance;
            break;
        }
    }
    ASSERT_NE(changed, nullptr);
    Json& evidence = (*changed)["cases"][(*changed)["worst_case"].get<std::size_t>()]["evidence"];
    evidence["figure_name"] = "=HYPERLINK(\"http://evil\")";
    evidence["figure"] = -1.5;
    evidence["bound"] = "-inf";

    const auto rows = parse_csv(render_report(statement, RenderFormat::csv, {}));
    const auto row = std::find_if(rows.begin(), rows.end(), [&](const auto& r) { return r[0] == (*changed)["id"]; });
    ASSERT_NE(row, rows.end());
    EXPECT_EQ((*row)[6], "'=HYPERLINK(\"http://evil\")");
    EXPECT_EQ((*row)[7], "-1.5");
    EXPECT_EQ((*row)[8], "-inf");
}

// ---- JUnit XML --------------------------------------------------------------------------

std::map<std::string, std::string> attributes_of(const std::string& xml, const std::string& tag) {
    const auto at = xml.find("<" + tag + " ");
    std::map<std::string, std::string> out;
    if (at == std::string::npos) return out;
    const std::string start = xml.substr(at, xml.find('>', at) - at);
    const std::regex attribute("([a-z_]+)=\"([^\"]*)\"");
    for (auto it = std::sregex_iterator(start.begin(), start.end(), attribute); it != std::sregex_iterator(); ++it)
        out[(*it)[1]] = (*it)[2];
    return out;
}

// Every <testsuite>'s attributes, in order.
std::vector<std::map<std::string, std::string>> suites_of(const std::string& xml) {
    std::vector<std::map<std::string, std::string>> out;
    for (auto at = xml.find("<testsuite "); at != std::string::npos; at = xml.find("<testsuite ", at + 1))
        out.push_back(attributes_of(xml.substr(at), "testsuite"));
    return out;
}

TEST(RenderJunit, CountsMatchTheVerdicts) {
    const Json statement = render_statement({.finished = false});
    const Expected e = expected_of(statement);
    const std::string xml = render_report(statement, RenderFormat::junit, {});
    std::map<std::string, std::size_t> totals;
    for (const auto& suite : suites_of(xml))
        for (const char* key : {"tests", "failures", "errors", "skipped"}) totals[key] += std::stoul(suite.at(key));
    const auto count = [&](std::initializer_list<const char*> verdicts) {
        std::size_t n = 0;
        for (const char* v : verdicts) n += e.verdicts.count(v) ? e.verdicts.at(v) : 0;
        return n;
    };
    EXPECT_EQ(totals["tests"], e.instances);
    EXPECT_EQ(totals["failures"], count({"FAIL"}));
    EXPECT_EQ(totals["errors"], count({"CRASH", "TIMEOUT", "ERROR"}));
    EXPECT_EQ(totals["skipped"], count({"UNSUPPORTED", "NOT_APPLICABLE", "MISSING"}));
    // one UNSUPPORTED, three missing, and the six NOT_APPLICABLE C-PRC-04 instances (f32 outputs)
    EXPECT_EQ(totals["skipped"], 10u);
    EXPECT_EQ(occurrences(xml, "<testsuite "), e.classes.size());
    EXPECT_EQ(occurrences(xml, "<testcase "), e.instances);
    EXPECT_EQ(occurrences(xml, "<failure "), e.verdicts.at("FAIL"));
    EXPECT_EQ(occurrences(xml, "<error "), 3u);
    EXPECT_EQ(occurrences(xml, "<skipped "), 10u);
    EXPECT_EQ(suites_of(xml).front().at("name"), *e.classes.begin());
}

// The root carries no attributes (Ant's schema allows none); each suite
// carries what Ant's schema requires, its timestamp without zone.
TEST(RenderJunit, SuitesCarryWhatBothSchemasRequire) {
    const Json statement = render_statement();
    const std::string xml = render_report(statement, RenderFormat::junit, {});
    EXPECT_NE(xml.find("\n<testsuites>\n"), std::string::npos);
    int id = 0;
    for (const auto& suite : suites_of(xml)) {
        EXPECT_EQ(suite.at("package"), "reference-cpu");
        EXPECT_EQ(suite.at("id"), std::to_string(id++));
        EXPECT_EQ(suite.at("hostname"), "localhost");
        EXPECT_TRUE(std::regex_match(suite.at("timestamp"), std::regex("[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}")))
            << suite.at("timestamp");
    }
    EXPECT_EQ(occurrences(xml, "<system-out/>\n    <system-err/>\n  </testsuite>"), suites_of(xml).size());
}

TEST(RenderJunit, TestcasesAreNamedByAdapterClassAndInstance) {
    const Json statement = render_statement();
    const std::string xml = render_report(statement, RenderFormat::junit, {});
    for (const auto& i : statement["predicate"]["instances"])
        EXPECT_NE(xml.find("<testcase classname=\"reference-cpu." + i["class"].get<std::string>() + "\" name=\"" +
                           i["id"].get<std::string>() + "\""),
                  std::string::npos)
            << i["id"];
}

// Debian's python3 parses the XML files (well-formed, hostile text included),
// checks them against the rules of Jenkins xunit's and Ant's schemas and
// each suite's counts against its testcases, and finds no test id twice
// across the files of two adapters; the same adapter's file twice, or a
// root attribute Ant's schema does not allow, it refuses.
TEST(RenderJunit, PythonValidatesItAgainstBothSchemasAndMergesAdapters) {
    Json other = render_statement({.finished = false});
    other["predicate"]["adapter"]["argument"] = "opencl";
    other["predicate"]["adapter"]["info"]["adapter_name"] = "opencl";
    const std::string xml =
        render_report(render_statement({.finished = false, .hostile = true}), RenderFormat::junit, {});
    EXPECT_EQ(xml.find("<script"), std::string::npos);
    const auto directory = std::filesystem::temp_directory_path() / ("kcs-render-junit-" + std::to_string(::getpid()));
    std::filesystem::create_directories(directory);
    const auto write = [&](const std::string& name, const std::string& text) {
        std::ofstream(directory / name, std::ios::binary) << text;
        return " " + (directory / name).string();
    };
    const std::string check = std::string(KCS_PYTHON3) + " " + KCS_CHECK_JUNIT;
    const std::string reference = write("reference.xml", xml);
    const std::string opencl = write("opencl.xml", render_report(other, RenderFormat::junit, {}));
    EXPECT_EQ(std::system((check + reference + opencl).c_str()), 0) << check + reference + opencl;
    EXPECT_NE(std::system((check + opencl + opencl + " 2>/dev/null").c_str()), 0) << "a repeated file went unnoticed";
    std::string rooted = xml;
    rooted.replace(rooted.find("<testsuites>"), 12, "<testsuites skipped=\"0\">");
    const std::string root_attribute = write("rooted.xml", rooted);
    EXPECT_NE(std::system((check + root_attribute + " 2>/dev/null").c_str()), 0) << "a root attribute went unnoticed";
    std::filesystem::remove_all(directory);
}

// ---- shared ---------------------------------------------------------------------------

TEST(Render, RefusesWhatIsNotAKcsReport) {
    Json statement = render_statement();
    statement["_type"] = "https://in-toto.io/Statement/v0.1";
    try {
        render_report(statement, RenderFormat::html, {});
        FAIL() << "rendered a Statement of another _type";
    } catch (const NotAReportError& e) {
        EXPECT_NE(std::string(e.what()).find("_type is \"https://in-toto.io/Statement/v0.1\""), std::string::npos);
    }
    statement = render_statement();
    statement["predicateType"] = "https://slsa.dev/provenance/v1";
    EXPECT_THROW(render_report(statement, RenderFormat::csv, {}), NotAReportError);
    statement = render_statement();
    statement["predicate"].erase("summary");
    EXPECT_THROW(render_report(statement, RenderFormat::junit, {}), NotAReportError);
    EXPECT_THROW(render_report(Json::array(), RenderFormat::markdown, {}), NotAReportError);
}

TEST(Render, ToleratesInstancesThatMissFields) {
    Json statement = render_statement();
    statement["predicate"]["instances"].push_back(Json::object());
    statement["predicate"]["instances"].push_back({{"class", 7}, {"cases", "none"}, {"worst_case", -1}});
    for (const auto format : {RenderFormat::html, RenderFormat::markdown, RenderFormat::csv, RenderFormat::junit})
        EXPECT_NO_THROW(render_report(statement, format, {}));
}

TEST(Render, FormatNames) {
    EXPECT_EQ(parse_render_format("html"), RenderFormat::html);
    EXPECT_EQ(parse_render_format("md"), RenderFormat::markdown);
    EXPECT_EQ(parse_render_format("markdown"), RenderFormat::markdown);
    EXPECT_EQ(parse_render_format("csv"), RenderFormat::csv);
    EXPECT_EQ(parse_render_format("junit"), RenderFormat::junit);
    EXPECT_FALSE(parse_render_format("pdf"));
}

TEST(Render, EscapingForEachFormat) {
    EXPECT_EQ(render::escape_html("<a href=\"x\">'&'</a>"), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
    EXPECT_EQ(render::escape_html("bell\x07"), "bell\xEF\xBF\xBD");
    EXPECT_EQ(render::escape_xml_attribute("a\nb\tc"), "a&#10;b&#9;c");
    EXPECT_EQ(render::escape_markdown("a|b *c* [d](e) <f>"), "a\\|b \\*c\\* \\[d\\](e) &lt;f&gt;");
    EXPECT_EQ(render::escape_markdown("- item"), "\\- item");
    EXPECT_EQ(render::markdown_code("kcs run"), "`kcs run`");
    EXPECT_EQ(render::markdown_code("a `b` c"), "``a `b` c``");
    EXPECT_EQ(render::markdown_code("`x`"), "`` `x` ``");
}

}  // namespace
}  // namespace kcs::reports
