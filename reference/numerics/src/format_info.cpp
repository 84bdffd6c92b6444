// The parameters of each format (SPEC.md section 1, dtype parameters).
#include <stdexcept>

#include "kcs/reference/formats.hpp"

namespace kcs::ref {
namespace {

// Every field follows from (storage bits, exponent bits, precision); the
// values are powers of two, written with hex-float literals so they are exact.
constexpr FormatInfo kF32{"f32", 32, 8, 24, 127, 0x1p-24, 0x1p-126, 0x1p-149, 0x1.fffffep127};
constexpr FormatInfo kF16{"f16", 16, 5, 11, 15, 0x1p-11, 0x1p-14, 0x1p-24, 65504.0};
constexpr FormatInfo kBf16{"bf16", 16, 8, 8, 127, 0x1p-8, 0x1p-126, 0x1p-133, 0x1.fep127};

}  // namespace

const FormatInfo& info(Format format) {
    switch (format) {
        case Format::f32: return kF32;
        case Format::f16: return kF16;
        case Format::bf16: return kBf16;
    }
    throw std::invalid_argument("kcs::ref::info: unknown Format value");
}

std::string_view to_string(Format format) { return info(format).name; }

std::string_view to_string(Rounding rounding) {
    switch (rounding) {
        case Rounding::nearest_even: return "nearest_even";
        case Rounding::toward_zero: return "toward_zero";
        case Rounding::nearest_away: return "nearest_away";
        case Rounding::truncate: return "truncate";
    }
    throw std::invalid_argument("kcs::ref::to_string: unknown Rounding value");
}

}  // namespace kcs::ref
