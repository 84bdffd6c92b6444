// Compares the library's result for one argument with the tests' own
// expectation: unary.yaml's special values where it fixes one, the 200-bit
// MPFR reference elsewhere. Exact equality of encodings (0 ulp); a NaN
// expectation accepts any NaN.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref::testing {

// The expected encoding; for a NaN expectation, the format's quiet NaN.
struct Expectation {
    std::uint32_t bits;
    bool is_nan;
};

Expectation expected_result(UnaryFunction function, Format format, std::uint32_t x_bits);

// nullopt when `actual` is the expected result; otherwise a one-line
// description of the mismatch (function, format, argument, both encodings).
std::optional<std::string> mismatch(UnaryFunction function, Format format, std::uint32_t x_bits,
                                    std::uint32_t actual);

}  // namespace kcs::ref::testing
