// What the C-EXC-01 probes of the row operators (special_values.cpp,
// norm_special_values.cpp) share in building their probes: the special
// values of a format, lines of a probe (a row, or a column of B) holding
// them at the first, middle and last positions, and the rows of normal(0, 1)
// they are placed in. special_values_judge.hpp judges the outputs.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "exactness_common.hpp"
#include "kcs/harness/probe.hpp"
#include "kcs/reference/special_values.hpp"

namespace kcs::suites::special_cases {

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

// Lines are `length` long (the reduced axis, or K for matmul's columns):
// first, middle and last are 0, floor(length / 2) and length - 1.
std::size_t at(ref::Position p, std::size_t length);  // its index in a line of `length`
std::string at_name(ref::Position p);
constexpr std::array<ref::Position, 3> kPositions{ref::Position::first, ref::Position::middle, ref::Position::last};

SpecialLine single(const SpecialValues& s, std::uint32_t bits, ref::Position p, std::size_t length);
// Where the line is too short for the two positions to differ, b wins and
// the label says so.
SpecialLine pair(const SpecialValues& s, std::uint32_t a, ref::Position pa, std::uint32_t b, ref::Position pb,
                 std::size_t length);
// A line whose every entry is special, cycling through `cycle`.
SpecialLine filled(std::string label, std::vector<std::uint32_t> cycle, std::size_t length);

// Every value of the nans and infinities sets at every named position, the
// pairs +inf with -inf and NaN with inf, and a line without specials.
std::vector<SpecialLine> singles_and_pairs(const SpecialValues& s, std::size_t length);

// `count` lines of `lines` from `first` on, cyclically: the rows (or columns)
// of one call, so that calls of any row count cover every line.
std::vector<SpecialLine> cycle_of(const std::vector<SpecialLine>& lines, std::size_t first, std::size_t count);

// Rows of normal(0, 1) (input tensor 0, the case seed), `length` long, with
// the lines' specials in place. The normal(0, 1) background is read as the
// claims say (operator_io.hpp).
harness::HostTensor rows_with(const exactness::ConfigFormats& f, const harness::ProbeContext& context,
                              const std::vector<SpecialLine>& lines, std::size_t length);

// One call of a row operator's probe: its rows, x [rows, length], and the
// shape's text for the labels.
struct RowCall {
    std::vector<SpecialLine> lines;
    harness::HostTensor x;
    std::size_t length;
    std::string shape;
};

// At each shape [rows, L] of the instance's `shapes`: the lines made for
// length L, `rows` to a call (cyclically), in as many calls as cover them all.
std::vector<RowCall> row_calls(const exactness::ConfigFormats& f, const harness::ProbeContext& context,
                               const std::function<std::vector<SpecialLine>(std::size_t)>& lines_of);

}  // namespace kcs::suites::special_cases
