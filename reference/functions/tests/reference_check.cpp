#include "reference_check.hpp"

#include <cstdio>

#include "mpfr_reference.hpp"
#include "spec_special_values.hpp"

namespace kcs::ref::testing {

Expectation expected_result(UnaryFunction function, Format format, std::uint32_t x_bits) {
    const double x = decode(format, x_bits);
    if (const auto special = spec_special_value(function, x)) {
        return {encode(format, *special), std::isnan(*special)};
    }
    return {mpfr_reference_bits(function, format, x), false};
}

std::optional<std::string> mismatch(UnaryFunction function, Format format, std::uint32_t x_bits,
                                    std::uint32_t actual) {
    const Expectation expected = expected_result(function, format, x_bits);
    const bool agrees = expected.is_nan ? is_nan(format, actual) : actual == expected.bits;
    if (agrees) return std::nullopt;
    char line[256];
    std::snprintf(line, sizeof line, "%s %s x=0x%08x (%a): got 0x%08x (%a), expected 0x%08x (%a)",
                  std::string(unary_function_name(function)).c_str(),
                  std::string(info(format).name).c_str(), x_bits, decode(format, x_bits), actual,
                  decode(format, actual), expected.bits, decode(format, expected.bits));
    return std::string(line);
}

}  // namespace kcs::ref::testing
