// One argument: special values, then symbolic decisions, then the double
// evaluation, then MPFR. Each stage decides or passes on; the last always
// decides (or reports that it cannot).
#include <mpfr.h>

#include "arguments.hpp"
#include "kcs/reference/unary_functions.hpp"
#include "mpfr_decision.hpp"
#include "rounding_decision.hpp"
#include "special_values.hpp"

namespace kcs::ref {
namespace {

using unary_detail::decode_argument;

// Special values and symbolic decisions: the stages before any evaluation.
std::optional<std::uint32_t> decided_without_evaluation(UnaryFunction function, Format format,
                                                        double x) {
    if (auto special = unary_detail::special_value(function, format, x)) return special;
    return unary_detail::symbolic_decision(function, format, x);
}

}  // namespace

UnaryResult correctly_rounded(UnaryFunction function, Format format, std::uint32_t x_bits) {
    const double x = decode_argument(format, x_bits);
    if (auto bits = decided_without_evaluation(function, format, x)) {
        return {*bits, UnaryPath::special};
    }
    const auto approximation = unary_detail::approximate_in_double(function, x);
    if (auto bits = unary_detail::decide_from_double(format, approximation)) {
        return {*bits, UnaryPath::double_bound};
    }
    return {unary_detail::decide_with_mpfr(function, format, x), UnaryPath::mpfr};
}

UnaryResult correctly_rounded_by_mpfr(UnaryFunction function, Format format,
                                      std::uint32_t x_bits) {
    const double x = decode_argument(format, x_bits);
    if (auto bits = decided_without_evaluation(function, format, x)) {
        return {*bits, UnaryPath::special};
    }
    return {unary_detail::decide_with_mpfr(function, format, x), UnaryPath::mpfr};
}

double correctly_rounded_value(UnaryFunction function, Format format, double x) {
    const std::uint32_t x_bits = unary_detail::encode_argument(format, x);
    return decode(format, correctly_rounded(function, format, x_bits).bits);
}

void release_thread_caches() { mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE); }

}  // namespace kcs::ref
