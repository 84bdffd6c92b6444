#include "special_value_cases.hpp"

#include <algorithm>

#include "kcs/suites/operator_io.hpp"

namespace kcs::suites::special_cases {

using namespace exactness;
using harness::HostTensor;

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
HostTensor rows_with(const ConfigFormats& f, const harness::ProbeContext& context, const std::vector<SpecialLine>& lines,
                     std::size_t length) {
    HostTensor x = generate(f.in_name, {static_cast<std::int64_t>(lines.size()), static_cast<std::int64_t>(length)},
                            ref::Normal{0, 1}, context.seed(), 0);
    read_as_claimed(x, context.claims());
    for (std::size_t r = 0; r < lines.size(); ++r)
        for (const auto& p : lines[r].specials) x.set_bits(r * length + p.position, p.bits);
    return x;
}

SpecialLine placed_in(const SpecialLine& line, std::size_t length) {
    SpecialLine out{line.label, {}};
    for (const auto& p : line.specials) {
        const std::size_t to = p.position == at(ref::Position::first)    ? 0
                               : p.position == at(ref::Position::last)   ? length - 1
                               : p.position == at(ref::Position::middle) ? length / 2
                                                                         : std::min(p.position, length - 1);
        std::erase_if(out.specials, [&](const Placement& q) { return q.position == to; });
        out.specials.push_back({to, p.bits});
    }
    if (out.specials.size() < line.specials.size())
        out.label += " (positions coincide at K = " + std::to_string(length) + ")";
    return out;
}

}  // namespace kcs::suites::special_cases
