// Ulp distance between encodings and the ulp of a value (formats.hpp
// documents both definitions).
#include <algorithm>
#include <cmath>
#include <limits>

#include "encoding_layout.hpp"
#include "kcs/reference/formats.hpp"

namespace kcs::ref {
namespace {

// The position of a non-NaN encoding on the ordered line of values: the
// magnitude's encoding is monotone in the value (zero 0, then subnormals,
// normals, inf), so negating it for negative values orders the whole line
// and maps both zeros to 0.
std::int64_t ordinal(const detail::EncodingLayout& layout, std::uint32_t bits) {
    const auto magnitude = static_cast<std::int64_t>(bits & (layout.sign_mask - 1));
    return (bits & layout.sign_mask) != 0 ? -magnitude : magnitude;
}

}  // namespace

std::uint64_t ulp_distance(Format format, std::uint32_t a, std::uint32_t b) {
    const auto layout = detail::EncodingLayout::of(format);
    a &= layout.storage_mask();
    b &= layout.storage_mask();
    const bool a_nan = is_nan(format, a);
    const bool b_nan = is_nan(format, b);
    if (a_nan || b_nan) return a_nan && b_nan ? 0 : kUlpInfinite;
    const std::int64_t d = ordinal(layout, a) - ordinal(layout, b);
    return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

double ulp_at(Format format, double x) {
    const FormatInfo& f = info(format);
    if (std::isnan(x)) return std::numeric_limits<double>::quiet_NaN();
    if (std::isinf(x)) x = f.max_finite;
    if (x == 0) return f.min_subnormal;
    int frexp_exponent = 0;
    std::frexp(x, &frexp_exponent);  // |x| = m * 2^e with m in [0.5, 1): floor(log2|x|) = e - 1
    const int floor_log2 = frexp_exponent - 1;
    const int emin = 1 - f.exponent_bias;
    return std::ldexp(1.0, std::max(floor_log2, emin) - f.precision + 1);
}

}  // namespace kcs::ref
