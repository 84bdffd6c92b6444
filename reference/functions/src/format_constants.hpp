// Encodings the unary functions return without computing anything: the
// zeros, one, the infinities and the NaN of each format, and the masks that
// split an encoding into sign and magnitude.
#pragma once

#include <cstdint>

#include "kcs/reference/formats.hpp"

namespace kcs::ref::unary_detail {

struct FormatConstants {
    std::uint32_t width_mask;     // every bit of an encoding
    std::uint32_t sign_mask;      // the sign bit
    std::uint32_t positive_zero;
    std::uint32_t negative_zero;
    std::uint32_t one;
    std::uint32_t positive_infinity;
    std::uint32_t negative_infinity;
    std::uint32_t quiet_nan;      // positive, quiet bit only, empty payload
};

constexpr FormatConstants constants_of(Format format) {
    switch (format) {
        case Format::f32:
            return {0xFFFF'FFFFu, 0x8000'0000u, 0x0000'0000u, 0x8000'0000u,
                    0x3F80'0000u, 0x7F80'0000u, 0xFF80'0000u, 0x7FC0'0000u};
        case Format::f16:
            return {0xFFFFu, 0x8000u, 0x0000u, 0x8000u, 0x3C00u, 0x7C00u, 0xFC00u, 0x7E00u};
        case Format::bf16:
            return {0xFFFFu, 0x8000u, 0x0000u, 0x8000u, 0x3F80u, 0x7F80u, 0xFF80u, 0x7FC0u};
    }
    return {};  // unreachable: every Format is listed
}

}  // namespace kcs::ref::unary_detail
