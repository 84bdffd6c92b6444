#include "render_common.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

#include "kcs/harness/figures.hpp"
#include "kcs/reports/report.hpp"
#include "kcs/reports/repro.hpp"
#include "cited_tolerance.hpp"
#include "table_figures.hpp"

namespace kcs::reports {

std::optional<RenderFormat> parse_render_format(std::string_view name) {
    if (name == "html") return RenderFormat::html;
    if (name == "md" || name == "markdown") return RenderFormat::markdown;
    if (name == "csv") return RenderFormat::csv;
    if (name == "junit") return RenderFormat::junit;
    return std::nullopt;
}

std::string unmeasured_error_text(double error, double bound) {
    return error == 0 && bound == 0 ? "its bits differ from every value allowed (the case counts such elements: no "
                                      "distance to measure)"
                                    : "";
}

std::string signature_line(const RenderContext& context) {
    switch (context.signature) {
        case SignatureStatus::verified: {
            std::string who = context.signer_label.empty() ? "a trusted key" : context.signer_label;
            if (!context.signer_keyid.empty()) who += " (keyid " + context.signer_keyid + ")";
            return "SIGNED and verified: " + who;
        }
        case SignatureStatus::not_checked:
            return "UNVERIFIED: an envelope whose signature was not checked (kcs verify, or kcs render --pubkey, checks it)";
        case SignatureStatus::unsigned_statement:
            break;
    }
    return "UNSIGNED (a bare Statement: no signature travels with it)";
}

void check_renderable(const spec::Json& statement) {
    using render::text;
    if (!statement.is_object()) throw NotAReportError("not a KCS report: the document is not a JSON object");
    if (text(statement, "_type") != kStatementType)
        throw NotAReportError("not a KCS report: _type is \"" + text(statement, "_type") + "\", not " +
                              std::string(kStatementType));
    if (text(statement, "predicateType") != kPredicateType)
        throw NotAReportError("not a KCS report: predicateType is \"" + text(statement, "predicateType") + "\", not " +
                              std::string(kPredicateType));
    const auto& predicate = render::member(statement, "predicate");
    if (!predicate.is_object()) throw NotAReportError("not a KCS report: it has no predicate object");
    if (!render::member(predicate, "instances").is_array())
        throw NotAReportError("not a KCS report: the predicate has no instances array");
    if (!render::member(predicate, "summary").is_object())
        throw NotAReportError("not a KCS report: the predicate has no summary object");
}

std::string render_report(const spec::Json& statement, RenderFormat format, const RenderContext& context) {
    check_renderable(statement);
    switch (format) {
        case RenderFormat::html:
            return render::render_html(statement, context);
        case RenderFormat::markdown:
            return render::render_markdown(statement, context);
        case RenderFormat::csv:
            return render::render_csv(statement);
        case RenderFormat::junit:
            return render::render_junit(statement, context);
    }
    return {};
}

}  // namespace kcs::reports

namespace kcs::reports::render {

namespace {

// XML 1.0 allows no control character but tab, newline and carriage return,
// not even as a character reference; U+FFFD shows where one was.
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

bool forbidden_control(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 && c != '\t' && c != '\n' && c != '\r';
}

// & < > as references: the markup HTML, XML and Markdown's inline HTML share.
bool append_markup_reference(std::string& out, char c) {
    switch (c) {
        case '&':
            out += "&amp;";
            return true;
        case '<':
            out += "&lt;";
            return true;
        case '>':
            out += "&gt;";
            return true;
        default:
            return false;
    }
}

// `c` as is, but a control character XML 1.0 forbids as U+FFFD.
void append_allowed(std::string& out, char c) {
    if (forbidden_control(c))
        out += kReplacement;
    else
        out += c;
}

std::string escaped(std::string_view text, bool attribute) {
    std::string out;
    out.reserve(text.size() + text.size() / 8);
    for (const char c : text) {
        if (append_markup_reference(out, c)) continue;
        switch (c) {
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            case '\t':
                out += attribute ? "&#9;" : "\t";
                break;
            case '\n':
                out += attribute ? "&#10;" : "\n";
                break;
            case '\r':
                out += attribute ? "&#13;" : "\r";
                break;
            default:
                append_allowed(out, c);
        }
    }
    return out;
}

}  // namespace

std::string escape_html(std::string_view text) { return escaped(text, false); }

std::string escape_xml_attribute(std::string_view text) { return escaped(text, true); }

namespace {

// What std::from_chars reads whole as a double ("-1.5", "-inf"): a
// spreadsheet reads it as a number too, never as a formula.
bool is_number(std::string_view text) {
    double value = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    return result.ec == std::errc() && result.ptr == text.data() + text.size();
}

// A spreadsheet takes a field that starts with one of these for a formula.
bool formula_like(std::string_view text) {
    return !text.empty() && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos &&
           !is_number(text);
}

}  // namespace

std::string csv_field(std::string_view text) {
    std::string field = formula_like(text) ? std::string("'").append(text) : std::string(text);
    const bool quote = field.find_first_of(",\"\r\n") != std::string::npos ||
                       (!field.empty() && (field.front() == ' ' || field.back() == ' '));
    if (!quote) return field;
    std::string out = "\"";
    for (const char c : field) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + "\"";
}

std::string escape_markdown(std::string_view text) {
    std::string out;
    for (const char c : text) {
        if (append_markup_reference(out, c)) continue;
        switch (c) {
            case '\n':
            case '\r':
                out += ' ';
                break;
            case '\\':
            case '`':
            case '*':
            case '_':
            case '[':
            case ']':
            case '|':
            case '~':
            case '#':
                out += '\\';
                out += c;
                break;
            default:
                append_allowed(out, c);
        }
    }
    // A line that starts with these would become a list item or a heading.
    if (!out.empty() && (out.front() == '-' || out.front() == '+' || out.front() == '=')) out.insert(0, "\\");
    return out;
}

std::string markdown_code(std::string_view text) {
    std::string body;
    std::size_t run = 0, longest = 0;
    for (const char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
        body += (c == '\n' || c == '\r') ? ' ' : (forbidden_control(c) ? '?' : c);
    }
    const std::string fence(longest + 1, '`');
    // A span that starts or ends with a backtick needs a space against the fence.
    const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
    return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

const Json& member(const Json& object, std::string_view key) {
    static const Json null_json;
    if (!object.is_object()) return null_json;
    const auto it = object.find(key);
    return it == object.end() ? null_json : *it;
}

std::string text(const Json& object, std::string_view key) {
    const Json& value = member(object, key);
    if (value.is_string()) return value.get<std::string>();
    if (value.is_number_float()) return exact_number(value);
    if (value.is_number() || value.is_boolean()) return value.dump();
    return "";
}

std::optional<double> number(const Json& value) {
    if (value.is_number()) return value.get<double>();
    if (value.is_string()) {
        const auto& s = value.get_ref<const std::string&>();
        if (s == "nan") return std::numeric_limits<double>::quiet_NaN();
        if (s == "inf") return std::numeric_limits<double>::infinity();
        if (s == "-inf") return -std::numeric_limits<double>::infinity();
    }
    return std::nullopt;
}

std::string number_text(const Json& value) {
    const auto n = number(value);
    return n ? ref::number_text(*n) : "";
}

std::string exact_number(const Json& value) {
    if (value.is_number_integer()) return value.dump();
    const auto n = number(value);
    return n ? ref::round_trip_text(*n) : "";
}

std::string percent(const Json& fraction) {
    const auto n = number(fraction);
    if (!n || !std::isfinite(*n)) return "n/a";
    return table_detail::percent_text(*n);
}

std::string joined(const Json& array, std::string_view separator) {
    std::string out;
    if (!array.is_array()) return out;
    for (const auto& item : array) {
        if (!out.empty()) out += separator;
        out += item.is_string() ? item.get<std::string>() : item.dump();
    }
    return out;
}

std::string verdict_of(const Json& instance) {
    const Json& v = member(instance, "verdict");
    return v.is_string() ? v.get<std::string>() : "MISSING";
}

std::string verdict_label(std::string_view verdict) {
    if (verdict == "NOT_APPLICABLE") return "N/A";
    return std::string(verdict);
}

namespace {

// `prefix`, then `name` in lower case with _ as - and anything but letters
// and digits dropped: a safe class name whatever the report holds.
std::string css_class(std::string_view prefix, std::string_view name) {
    std::string out(prefix);
    for (const char c : name) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalnum(u))
            out += static_cast<char>(std::tolower(u));
        else if (c == '_' || c == '-')
            out += '-';
    }
    return out;
}

}  // namespace

std::string verdict_css(std::string_view verdict) { return css_class("v-", verdict); }

int verdict_severity(std::string_view verdict) {
    static const std::vector<std::string_view> order = {"PASS",    "NOT_APPLICABLE", "UNSUPPORTED", "INCONCLUSIVE",
                                                        "MISSING", "ERROR",          "TIMEOUT",     "CRASH",
                                                        "FAIL"};
    const auto it = std::find(order.begin(), order.end(), verdict);
    // Anything the schema does not know is treated as the worst there is.
    return it == order.end() ? static_cast<int>(order.size()) : static_cast<int>(it - order.begin());
}

std::string judgement_css(std::string_view judgement) { return css_class("j-", judgement); }

std::string class_css(std::string_view class_id) { return css_class("k-", class_id); }

const Json* deciding_case(const Json& instance) {
    const Json& cases = member(instance, "cases");
    if (!cases.is_array() || cases.empty()) return nullptr;
    const Json& worst = member(instance, "worst_case");
    if (worst.is_number_integer() && worst.get<long long>() >= 0 &&
        static_cast<std::size_t>(worst.get<long long>()) < cases.size())
        return &cases[static_cast<std::size_t>(worst.get<long long>())];
    return &cases[0];
}

std::string figure_text(const Json& case_json) {
    const Json& evidence = member(case_json, "evidence");
    const std::string name = text(evidence, "figure_name");
    const auto figure = number(member(evidence, "figure"));
    if (name.empty() || !figure) return "";
    // The figure by its one name, then what it measures.
    std::string out =
        harness::figure_statement(name, *figure, ref::number_text(*figure), number_text(member(evidence, "bound")));
    // What the case judged, so that a reader sees a PASS rests on something.
    const Json& judged = member(evidence, "judged");
    const Json& count = member(judged, "count");
    const Json& calls = member(evidence, "adapter_calls");
    if (count.is_number_unsigned() && calls.is_number_unsigned())
        out += "; judged " + std::to_string(count.get<std::uint64_t>()) + " " + text(judged, "unit") + " on " +
               std::to_string(calls.get<std::uint64_t>()) + " adapter calls";
    return out;
}

const Cell* Matrix::cell(const std::string& class_id, const std::string& op) const {
    const auto it = cells.find({class_id, op});
    return it == cells.end() ? nullptr : &it->second;
}

namespace {

// The case whose figure came closest to, or went furthest past, its bound
// (the comparison tables' reading of a figure, so both show the same text).
void set_key_figure(Cell& cell) {
    std::optional<table_detail::FigureReading> best;
    const Json* best_case = nullptr;
    const Json* best_instance = nullptr;
    for (const Json* instance : cell.instances) {
        const Json* decider = deciding_case(*instance);
        if (!decider) continue;
        const Json& evidence = member(*decider, "evidence");
        const auto figure = number(member(evidence, "figure"));
        const auto bound = number(member(evidence, "bound"));
        if (text(evidence, "figure_name").empty() || !figure || !bound) continue;
        auto reading = table_detail::read_figure(text(evidence, "figure_name"), *figure, *bound,
                                                 detail::figure_holds_at_least(evidence, text(*instance, "class")));
        if (!best || reading.ratio > best->ratio || (reading.ratio == best->ratio && reading.excess > best->excess)) {
            best = std::move(reading);
            best_case = decider;
            best_instance = instance;
        }
    }
    if (!best) return;
    cell.key_figure = best->text;
    cell.key_figure_title = figure_text(*best_case) + " in " + text(*best_instance, "id");
}

}  // namespace

Matrix build_matrix(const Json& predicate) {
    Matrix m;
    std::set<std::string> seen_classes, operators;
    for (const auto& c : member(member(predicate, "summary"), "classes")) {
        const std::string id = text(c, "class");
        if (!id.empty() && seen_classes.insert(id).second) m.classes.push_back(id);
    }
    std::set<std::string> other_classes;
    for (const auto& instance : member(predicate, "instances")) {
        const std::string class_id = text(instance, "class");
        const std::string op = text(instance, "operator");
        if (!seen_classes.count(class_id)) other_classes.insert(class_id);
        operators.insert(op);
        Cell& cell = m.cells[{class_id, op}];
        cell.instances.push_back(&instance);
        const std::string verdict = verdict_of(instance);
        ++cell.verdicts[verdict];
        if (cell.worst.empty() || verdict_severity(verdict) > verdict_severity(cell.worst)) cell.worst = verdict;
    }
    m.classes.insert(m.classes.end(), other_classes.begin(), other_classes.end());
    m.operators.assign(operators.begin(), operators.end());
    for (auto& [key, cell] : m.cells) set_key_figure(cell);
    return m;
}

std::string cell_label(const Cell& cell) {
    if (cell.instances.empty()) return "—";
    const std::string n = std::to_string(cell.instances.size());
    if (cell.verdicts.size() == 1) return n + "/" + n + " " + verdict_label(cell.worst);
    return verdict_label(cell.worst) + " " + std::to_string(cell.verdicts.at(cell.worst)) + "/" + n;
}

std::string cell_rest(const Cell& cell) {
    if (cell.verdicts.size() < 2) return "";
    std::vector<std::pair<std::string, int>> rest;
    for (const auto& [verdict, count] : cell.verdicts)
        if (verdict != cell.worst) rest.emplace_back(verdict, count);
    std::sort(rest.begin(), rest.end(),
              [](const auto& a, const auto& b) { return verdict_severity(a.first) > verdict_severity(b.first); });
    std::string out;
    for (const auto& [verdict, count] : rest)
        out += (out.empty() ? "" : ", ") + std::to_string(count) + " " + verdict_label(verdict);
    return out;
}

const Json& class_summary(const Json& predicate, const std::string& class_id) {
    static const Json null_json;
    for (const auto& c : member(member(predicate, "summary"), "classes"))
        if (text(c, "class") == class_id) return c;
    return null_json;
}

namespace {

std::string adapter_fact(const Json& adapter) {
    std::string out = text(adapter, "argument");
    const Json& info = member(adapter, "info");
    if (info.is_object()) out += " — " + text(info, "adapter_name") + " " + text(info, "adapter_version");
    if (!text(adapter, "library").empty()) out += "; library " + text(adapter, "library");
    if (!member(adapter, "options").empty()) out += "; options " + joined(member(adapter, "options"), " ");
    return out;
}

std::string device_fact(const Json& adapter) {
    const Json& info = member(adapter, "info");
    if (!info.is_object()) {
        const std::string error = text(adapter, "info_error");
        return "unknown" + (error.empty() ? std::string() : " (info() failed: " + error + ")");
    }
    std::string out = text(info, "vendor") + " " + text(info, "device");
    if (!text(info, "driver_version").empty()) out += ", driver " + text(info, "driver_version");
    if (!text(info, "notes").empty()) out += " (" + text(info, "notes") + ")";
    return out;
}

std::string environment_fact(const Json& environment) {
    const Json& os = member(environment, "os");
    const Json& cpu = member(environment, "cpu");
    std::string out = text(os, "name");
    if (!text(os, "release").empty()) out += " " + text(os, "release");
    if (!text(os, "machine").empty()) out += " " + text(os, "machine");
    if (!text(cpu, "model").empty()) out += "; " + text(cpu, "model") + " (" + text(cpu, "logical_cpus") + " CPUs)";
    if (!text(environment, "compiler").empty()) out += "; " + text(environment, "compiler");
    if (!text(environment, "libc").empty()) out += "; " + text(environment, "libc");
    return out;
}

std::string command_fact(const Json& invocation) {
    std::string out;
    for (const auto& word : member(invocation, "command_line"))
        if (word.is_string()) out += (out.empty() ? "" : " ") + shell_quoted(word.get<std::string>());
    return out;
}

}  // namespace

std::vector<std::pair<std::string, std::string>> header_facts(const Json& p) {
    std::vector<std::pair<std::string, std::string>> facts;
    const Json& spec = member(p, "spec");
    const Json& depth = member(p, "depth");
    const Json& claims = member(p, "claims");
    facts.emplace_back("Adapter", adapter_fact(member(p, "adapter")));
    facts.emplace_back("Device", device_fact(member(p, "adapter")));
    facts.emplace_back("Spec", "v" + text(spec, "version") + ", " + text(spec, "digest") +
                                   (text(spec, "catalog").empty() ? "" : " (" + text(spec, "catalog") + ")"));
    facts.emplace_back("Profile", text(member(p, "profile"), "id") + " — " + text(member(p, "profile"), "title"));
    facts.emplace_back("Depth", text(depth, "id") + ", " + text(depth, "seeds") + " seeds per instance, " +
                                    (member(depth, "certifiable") == true ? "certifiable" : "not certifiable"));
    facts.emplace_back("Operators",
                       member(p, "operators").empty() ? "every operator" : joined(member(p, "operators"), ", "));
    const Json& filter = member(p, "filter");
    if (!member(filter, "include").empty() || !member(filter, "exclude").empty())
        facts.emplace_back("Instances", "only ids matching " +
                                            (member(filter, "include").empty() ? std::string("anything")
                                                                               : joined(member(filter, "include"), ", ")) +
                                            (member(filter, "exclude").empty()
                                                 ? std::string()
                                                 : ", none matching " + joined(member(filter, "exclude"), ", ")));
    facts.emplace_back("Claims", member(claims, "file").is_string()
                                     ? text(claims, "file") + " (" + text(claims, "digest") + ")"
                                     : "catalog defaults (no claims file)");
    facts.emplace_back("Run", text(p, "state") + (member(p, "complete") == true ? "" : ", NOT complete") +
                                  "; started " + text(p, "started") + ", ended " + text(p, "ended"));
    const Json& signer = member(p, "signer");
    if (signer.is_object())
        facts.emplace_back("Signer", text(signer, "label") + " (keyid " + text(signer, "keyid") + ")" +
                                         (member(signer, "development") == true ? ", a development key" : "") +
                                         " — as the report names it; only verification proves it signed");
    facts.emplace_back("kcs", text(member(p, "kcs"), "version"));
    facts.emplace_back("Environment", environment_fact(member(p, "environment")));
    std::string variables;
    for (const auto& [name, value] : member(member(p, "environment"), "variables").items())
        variables += (variables.empty() ? "" : " ") + name + "=" + (value.is_string() ? value.get<std::string>() : "");
    if (!variables.empty()) facts.emplace_back("Device variables", variables);
    facts.emplace_back("Command", command_fact(member(p, "invocation")));
    return facts;
}

std::string report_title(const Json& p) {
    return text(member(p, "adapter"), "argument") + ", profile " + text(member(p, "profile"), "id") + ", depth " +
           text(member(p, "depth"), "id");
}

std::string adapter_name(const Json& p) {
    const std::string name = text(member(member(p, "adapter"), "info"), "adapter_name");
    return name.empty() ? text(member(p, "adapter"), "argument") : name;
}

std::string short_instance_id(const Json& instance) {
    const std::string id = text(instance, "id");
    const auto first = id.find('/');
    const auto second = first == std::string::npos ? std::string::npos : id.find('/', first + 1);
    return second == std::string::npos ? id : id.substr(second + 1);
}

}  // namespace kcs::reports::render
