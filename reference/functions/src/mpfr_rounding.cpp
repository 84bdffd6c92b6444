// Round to odd, then to nearest: v is first rounded to a double toward zero,
// and if that was inexact the last bit of the double is set (round to odd,
// 53 bits). Rounding the odd result to nearest at any precision p <= 51
// gives RN_p(v) (Boldo and Melquiond, "Emulation of FMA and correctly
// rounded sums: proved algorithms using rounding to odd", IEEE TC 2008:
// odd rounding at p + 2 bits or more, then RN at p, equals RN at p). Every
// format here has p <= 24, and every boundary of one (midpoints, the
// overflow threshold max + ulp/2, half the smallest subnormal) is a double
// in double's normal range, so the double's 53 bits are available wherever
// the format can tell values apart. Below 2^-1022, where double loses bits,
// every format rounds to zero; the odd double keeps v's sign and stays far
// below 2^-150. Above DBL_MAX, rounding toward zero gives DBL_MAX, already
// odd, which every format rounds to infinity, as RN(v) must be.
#include "mpfr_rounding.hpp"

#include <bit>

namespace kcs::ref::unary_detail {

std::uint32_t round_to_format(mpfr_srcptr v, Format format) {
    double d = mpfr_get_d(v, MPFR_RNDZ);
    if (mpfr_cmp_d(v, d) != 0) {
        d = std::bit_cast<double>(std::bit_cast<std::uint64_t>(d) | 1u);
    }
    return encode(format, d);
}

}  // namespace kcs::ref::unary_detail
