#include "arguments.hpp"

#include <bit>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "format_constants.hpp"

namespace kcs::ref::unary_detail {

double decode_argument(Format format, std::uint32_t x_bits) {
    if ((x_bits & ~constants_of(format).width_mask) != 0) {
        throw std::invalid_argument("kcs::ref: " + std::to_string(x_bits) +
                                    " is not an encoding of " + std::string(info(format).name));
    }
    // The exact fast conversions of kcs_numerics (the generic decode is
    // several times slower, and a sweep decodes every argument).
    switch (format) {
        case Format::f32: return std::bit_cast<float>(x_bits);
        case Format::f16: return f16_to_f32(static_cast<std::uint16_t>(x_bits));
        case Format::bf16: return bf16_to_f32(static_cast<std::uint16_t>(x_bits));
    }
    return decode(format, x_bits);
}

std::uint32_t encode_argument(Format format, double x) {
    const std::uint32_t x_bits = encode(format, x);
    if (!std::isnan(x) && decode(format, x_bits) != x) {
        char value[32];
        std::snprintf(value, sizeof value, "%a", x);  // hexadecimal: exact
        throw std::invalid_argument("kcs::ref: " + std::string(value) + " is not a value of " +
                                    std::string(info(format).name));
    }
    return x_bits;
}

}  // namespace kcs::ref::unary_detail
