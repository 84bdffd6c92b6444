// The ulp error of a result and the ulp-bound check (SPEC.md section 3, ulp_table).
#include <cmath>
#include <limits>
#include <stdexcept>

#include "kcs/reference/bounds.hpp"

namespace kcs::ref {

double ulp_error(Format format, std::uint32_t got_bits, double reference) {
    constexpr double kInfinite = std::numeric_limits<double>::infinity();
    const bool got_nan = is_nan(format, got_bits);
    if (std::isnan(reference)) return got_nan ? 0 : kInfinite;
    if (got_nan) return kInfinite;

    // Infinities stand at +-2^(emax+1), one binade beyond the largest finite.
    const double beyond = std::ldexp(1.0, info(format).exponent_bias + 1);
    const double got = decode(format, got_bits);
    const double g = std::isinf(got) ? std::copysign(beyond, got) : got;
    const double r = std::isinf(reference) ? std::copysign(beyond, reference) : reference;
    // Exact when got and reference lie within a factor 2 (Sterbenz), which
    // covers every error of a few ulps; elsewhere within 2^-53 relative.
    // The division by a power of two is exact.
    return std::fabs(g - r) / ulp_at(format, reference);
}

UlpBoundResult check_ulp_bound(Format format, std::span<const std::uint32_t> got,
                               std::span<const double> reference, double bound) {
    if (got.size() != reference.size()) {
        throw std::invalid_argument("kcs::ref::check_ulp_bound: got and reference differ in length");
    }
    UlpBoundResult r;
    for (std::size_t i = 0; i < got.size(); ++i) {
        const double error = ulp_error(format, got[i], reference[i]);
        if (!(error <= bound)) ++r.elements_failed;
        if (error > r.worst_ulp_error) {
            r.worst_ulp_error = error;
            r.worst_index = i;
        }
    }
    r.pass = r.elements_failed == 0;
    return r;
}

}  // namespace kcs::ref
