#include "special_value_cases.hpp"

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

std::size_t at(ref::Position p, std::size_t length) { return ref::position_index(p, length); }
std::string at_name(ref::Position p) {
    return p == ref::Position::first ? "first" : p == ref::Position::middle ? "middle" : "last";
}

SpecialLine single(const SpecialValues& s, std::uint32_t bits, ref::Position p, std::size_t length) {
    return {name_of(s, bits) + " at " + at_name(p), {{at(p, length), bits}}};
}

SpecialLine pair(const SpecialValues& s, std::uint32_t a, ref::Position pa, std::uint32_t b, ref::Position pb,
                 std::size_t length) {
    SpecialLine line{name_of(s, a) + " at " + at_name(pa) + " with " + name_of(s, b) + " at " + at_name(pb), {}};
    if (at(pa, length) == at(pb, length))
        line.label.append(" (one position at length ").append(std::to_string(length)).append(")");
    else
        line.specials.push_back({at(pa, length), a});
    line.specials.push_back({at(pb, length), b});
    return line;
}

SpecialLine filled(std::string label, std::vector<std::uint32_t> cycle, std::size_t length) {
    SpecialLine line{std::move(label), {}};
    for (std::size_t j = 0; j < length; ++j) line.specials.push_back({j, cycle[j % cycle.size()]});
    return line;
}

// Every value of the nans and infinities sets at every named position, and
// the pairs +inf with -inf and NaN with inf.
std::vector<SpecialLine> singles_and_pairs(const SpecialValues& s, std::size_t length) {
    using P = ref::Position;
    std::vector<SpecialLine> lines;
    for (const std::uint32_t v : {s.plus_nan, s.minus_nan, s.plus_inf, s.minus_inf})
        for (const P p : kPositions) lines.push_back(single(s, v, p, length));
    lines.push_back(pair(s, s.plus_inf, P::first, s.minus_inf, P::last, length));
    lines.push_back(pair(s, s.minus_inf, P::middle, s.plus_inf, P::last, length));
    lines.push_back(pair(s, s.plus_nan, P::first, s.plus_inf, P::last, length));
    lines.push_back(pair(s, s.minus_inf, P::first, s.minus_nan, P::middle, length));
    lines.push_back({"normal(0, 1) only", {}});
    return lines;
}

std::vector<SpecialLine> cycle_of(const std::vector<SpecialLine>& lines, std::size_t first, std::size_t count) {
    std::vector<SpecialLine> out;
    for (std::size_t i = 0; i < count; ++i) out.push_back(lines[(first + i) % lines.size()]);
    return out;
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

std::vector<RowCall> row_calls(const ConfigFormats& f, const harness::ProbeContext& context,
                               const std::function<std::vector<SpecialLine>(std::size_t)>& lines_of) {
    std::vector<RowCall> calls;
    for (const auto& s : probe_shapes(context.instance(), 2, "[rows, L]")) {
        const auto rows = static_cast<std::size_t>(s[0]), length = static_cast<std::size_t>(s[1]);
        const auto lines = lines_of(length);
        for (std::size_t first = 0; first < lines.size(); first += rows) {
            auto call = cycle_of(lines, first, rows);
            HostTensor x = rows_with(f, context, call, length);
            calls.push_back({std::move(call), std::move(x), length, shape_text(s)});
        }
    }
    return calls;
}

}  // namespace kcs::suites::special_cases
