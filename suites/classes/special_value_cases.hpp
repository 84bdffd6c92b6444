// What the C-EXC-01 probes of the row operators (special_values.cpp,
// norm_special_values.cpp) share in building their probes: the special
// values of a format, lines of a probe (a row, or a column of B) holding
// them at the first, middle and last positions, and the rows of normal(0, 1)
// they are placed in. special_values_judge.hpp judges the outputs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "exactness_common.hpp"
#include "kcs/harness/probe.hpp"
#include "kcs/reference/special_values.hpp"

namespace kcs::suites::special_cases {

// A row length whose middle, floor(L/2), is distinct from first and last.
constexpr std::size_t kRowLength = 17;

struct Placement {
    std::size_t position;
    std::uint32_t bits;
};

// One row (or one column of B) of a probe: the special values it holds.
struct SpecialLine {
    std::string label;
    std::vector<Placement> specials;
};

struct SpecialValues {
    std::uint32_t plus_nan, minus_nan, plus_inf, minus_inf, plus_zero, minus_zero;
};

SpecialValues special_values_of(ref::Format f);
std::string name_of(const SpecialValues& s, std::uint32_t bits);  // "+qNaN", "-inf", ...

std::size_t at(ref::Position p);  // its index in a row of kRowLength
std::string at_name(ref::Position p);
constexpr std::array<ref::Position, 3> kPositions{ref::Position::first, ref::Position::middle, ref::Position::last};

SpecialLine single(const SpecialValues& s, std::uint32_t bits, ref::Position p);
SpecialLine pair(const SpecialValues& s, std::uint32_t a, ref::Position pa, std::uint32_t b, ref::Position pb);
// A row whose every entry is special, cycling through `cycle`.
SpecialLine filled(std::string label, std::vector<std::uint32_t> cycle);

// Every value of the nans and infinities sets at every named position, the
// pairs +inf with -inf and NaN with inf, and a line without specials.
std::vector<SpecialLine> singles_and_pairs(const SpecialValues& s);

// Rows of normal(0, 1) (input tensor 0, the case seed), `length` long, with
// the lines' specials in place. The normal(0, 1) background is read as the
// claims say (operator_io.hpp).
harness::HostTensor rows_with(const exactness::ConfigFormats& f, const harness::ProbeContext& context,
                              const std::vector<SpecialLine>& lines, std::size_t length = kRowLength);

// A line of a kRowLength probe placed in a reduced axis of `length`: first,
// middle and last keep their names (0, length / 2, length - 1). Where the
// axis is too short for them to be distinct the later placement wins, and
// the label says so.
SpecialLine placed_in(const SpecialLine& line, std::size_t length);

}  // namespace kcs::suites::special_cases
