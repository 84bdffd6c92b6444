// Readable names for the parameterised tests: "exp_f16", "gelu_f32", ...
#pragma once

#include <ostream>
#include <string>

#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref::testing {

inline std::string case_name(UnaryFunction function, Format format) {
    return std::string(unary_function_name(function)) + "_" + std::string(info(format).name);
}

inline double percent(std::size_t part, std::size_t whole) {
    return whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace kcs::ref::testing

namespace kcs::ref {

// GoogleTest prints parameters with these (found by argument-dependent
// lookup), so test listings read "exp" rather than raw bytes.
inline void PrintTo(UnaryFunction function, std::ostream* os) { *os << unary_function_name(function); }
inline void PrintTo(Format format, std::ostream* os) { *os << info(format).name; }

}  // namespace kcs::ref
