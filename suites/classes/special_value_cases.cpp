#include "special_value_cases.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "kcs/suites/operator_io.hpp"

namespace kcs::suites::special_cases {

using namespace exactness;
using harness::HostTensor;

namespace {

struct Miss {
    Element element;
    std::uint32_t got;
    std::vector<std::string> inputs;
};

}  // namespace

SpecialValues special_values_of(ref::Format f) {
    const auto nans = ref::special_subset(f, "nans");
    const auto infinities = ref::special_subset(f, "infinities");
    const auto zeros = ref::special_subset(f, "zeros");
    return {nans.at(0), nans.at(1), infinities.at(0), infinities.at(1), zeros.at(0), zeros.at(1)};
}

std::string name_of(const SpecialValues& s, std::uint32_t bits) {
    if (bits == s.plus_nan) return "+qNaN";
    if (bits == s.minus_nan) return "-qNaN";
    if (bits == s.plus_inf) return "+inf";
    if (bits == s.minus_inf) return "-inf";
    if (bits == s.plus_zero) return "+0";
    if (bits == s.minus_zero) return "-0";
    return "special";
}

std::size_t at(ref::Position p) { return ref::position_index(p, kRowLength); }
std::string at_name(ref::Position p) {
    return p == ref::Position::first ? "first" : p == ref::Position::middle ? "middle" : "last";
}

SpecialLine single(const SpecialValues& s, std::uint32_t bits, ref::Position p) {
    return {name_of(s, bits) + " at " + at_name(p), {{at(p), bits}}};
}

SpecialLine pair(const SpecialValues& s, std::uint32_t a, ref::Position pa, std::uint32_t b, ref::Position pb) {
    return {name_of(s, a) + " at " + at_name(pa) + " with " + name_of(s, b) + " at " + at_name(pb),
            {{at(pa), a}, {at(pb), b}}};
}

SpecialLine filled(std::string label, std::vector<std::uint32_t> cycle) {
    SpecialLine line{std::move(label), {}};
    for (std::size_t j = 0; j < kRowLength; ++j) line.specials.push_back({j, cycle[j % cycle.size()]});
    return line;
}

// Every value of the nans and infinities sets at every named position, and
// the pairs +inf with -inf and NaN with inf.
std::vector<SpecialLine> singles_and_pairs(const SpecialValues& s) {
    using P = ref::Position;
    std::vector<SpecialLine> lines;
    for (const std::uint32_t v : {s.plus_nan, s.minus_nan, s.plus_inf, s.minus_inf})
        for (const P p : kPositions) lines.push_back(single(s, v, p));
    lines.push_back(pair(s, s.plus_inf, P::first, s.minus_inf, P::last));
    lines.push_back(pair(s, s.minus_inf, P::middle, s.plus_inf, P::last));
    lines.push_back(pair(s, s.plus_nan, P::first, s.plus_inf, P::last));
    lines.push_back(pair(s, s.minus_inf, P::first, s.minus_nan, P::middle));
    lines.push_back({"normal(0, 1) only", {}});
    return lines;
}

// Rows of normal(0, 1) (input tensor 0, the case seed) with the lines' specials in place.
HostTensor rows_with(const ConfigFormats& f, std::uint64_t seed, const std::vector<SpecialLine>& lines) {
    HostTensor x = generate(f.in_name, {static_cast<std::int64_t>(lines.size()), static_cast<std::int64_t>(kRowLength)},
                            ref::Normal{0, 1}, seed, 0);
    for (std::size_t r = 0; r < lines.size(); ++r)
        for (const auto& p : lines[r].specials) x.set_bits(r * kRowLength + p.position, p.bits);
    return x;
}

// ---------------------------------------------------------------- judging



harness::CaseResult judge(const harness::ProbeContext& context, const HostTensor& output,
                          const std::vector<Element>& elements,
                          const std::function<std::vector<std::string>(std::size_t)>& inputs_of) {
    const auto& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    std::map<SpecialMismatch, Miss> first;
    std::map<std::string, std::size_t> by_kind, by_probe;
    std::set<SpecialMismatch> kinds;
    std::size_t misses = 0;
    for (const auto& e : elements) {
        const std::uint32_t got = bits_at(output, e.index);
        const SpecialMismatch m = judge_special(e.expected, f.out, got);
        if (m == SpecialMismatch::none) continue;
        ++misses;
        kinds.insert(m);
        ++by_kind[std::string(to_string(m))];
        ++by_probe[e.probe];
        if (!first.contains(m)) first.emplace(m, Miss{e, got, inputs_of(e.index)});
    }
    harness::Evidence evidence;
    evidence.figure_name = "elements of the wrong IEEE class";
    evidence.figure = static_cast<double>(misses);
    evidence.bound = 0;
    evidence.details = {{"bound", cite(*instance.contract)},
                        {"elements", elements.size()},
                        {"masked_row", context.claims().at("masked_row")},
                        {"mismatches_by_kind", by_kind},
                        {"mismatches_by_probe", by_probe}};
    if (misses == 0)
        return passed("all " + std::to_string(elements.size()) + " elements of the expected IEEE class",
                      std::move(evidence));
    const std::string signature = special_signature(kinds);
    const auto shown = std::find_if(first.begin(), first.end(), [&](const auto& entry) {
        return std::string(to_string(entry.first)) == signature;
    });
    const Miss& w = shown != first.end() ? shown->second : first.begin()->second;
    const double got_value = ref::decode(f.out, w.got);
    evidence.worst = harness::WorstElement{
        static_cast<std::int64_t>(w.element.index), w.inputs, w.element.y_star, got_value, hex(f.out, w.got), 0, 0};
    evidence.details["worst"] = {{"probe", w.element.probe}, {"expected", to_string(w.element.expected)}};
    return failed(instance, signature,
                  std::to_string(misses) + " elements of the wrong class; e.g. " + w.element.probe + ": expected " +
                      std::string(to_string(w.element.expected)) + ", got " + hex(f.out, w.got),
                  std::move(evidence));
}

}  // namespace kcs::suites::special_cases
