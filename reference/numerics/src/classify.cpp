// Classification of encodings: IEEE 754-2019 class of each bit pattern.
#include <stdexcept>

#include "encoding_layout.hpp"
#include "kcs/reference/formats.hpp"

namespace kcs::ref {

FloatClass classify(Format format, std::uint32_t bits) {
    const auto layout = detail::EncodingLayout::of(format);
    const std::uint32_t exponent = bits & layout.exponent_mask;
    const std::uint32_t trailing = bits & layout.trailing_mask;
    if (exponent == layout.exponent_mask) {
        if (trailing == 0) return FloatClass::infinite;
        return (trailing & layout.quiet_bit) != 0 ? FloatClass::quiet_nan : FloatClass::signalling_nan;
    }
    if (exponent == 0) return trailing == 0 ? FloatClass::zero : FloatClass::subnormal;
    return FloatClass::normal;
}

bool is_nan(Format format, std::uint32_t bits) {
    const FloatClass c = classify(format, bits);
    return c == FloatClass::quiet_nan || c == FloatClass::signalling_nan;
}

bool sign_bit(Format format, std::uint32_t bits) {
    return (bits & detail::EncodingLayout::of(format).sign_mask) != 0;
}

std::string_view to_string(FloatClass value) {
    switch (value) {
        case FloatClass::zero: return "zero";
        case FloatClass::subnormal: return "subnormal";
        case FloatClass::normal: return "normal";
        case FloatClass::infinite: return "infinite";
        case FloatClass::quiet_nan: return "quiet_nan";
        case FloatClass::signalling_nan: return "signalling_nan";
    }
    throw std::invalid_argument("kcs::ref::to_string: unknown FloatClass value");
}

}  // namespace kcs::ref
