#include "accumulator_side_bound.hpp"

#include <algorithm>
#include <cmath>

#include "kcs/reference/bounds.hpp"

namespace kcs::suites {

namespace {

constexpr double kF64UnitRoundoff = 0x1p-53;

// C-PRC-02's postcondition defines L32 = max(L, 32): its derivation
// absorbs the constant terms into 0.375 L32.
double l32_of(std::int64_t L) {
    constexpr std::int64_t kShortRowFloor = 32;
    return static_cast<double>(std::max(L, kShortRowFloor));
}

// T = tiny(out) / (L u_acc) where |y*| < 2 tiny(out), else 0.
double underflow_term(std::int64_t L, double u_acc, ref::Format out, double y_star) {
    const double tiny = ref::info(out).min_normal;
    return std::fabs(y_star) < 2 * tiny ? tiny / (static_cast<double>(L) * u_acc) : 0.0;
}

}  // namespace

double softmax_magnitude(std::int64_t L, double u_acc, ref::Format out, double y_star, double gap) {
    const double l = static_cast<double>(L);
    return std::fabs(y_star) * (l32_of(L) + gap) / l + underflow_term(L, u_acc, out, y_star);
}

double layernorm_magnitude(std::int64_t L, double u_acc, ref::Format out, const LayernormElement& x, double y_star) {
    const double l = static_cast<double>(L);
    const double e2 = x.variance + x.eps;
    const double s = std::sqrt(x.variance);
    const double R = x.root_mean_square;
    const double G = ref::gamma(L + 2, u_acc);
    const double statistics = std::fabs(x.w) * (x.mean_abs / std::sqrt(e2) + std::fabs(x.z) * ((l + 2) / l) *
                                                                                 (x.variance + 2 * s * R + G * R * R) /
                                                                                 (2 * e2));
    const double affine = (l32_of(L) / l) * (std::fabs(x.w * x.z) + std::fabs(x.b));
    return statistics + affine + underflow_term(L, u_acc, out, y_star);
}

double rmsnorm_magnitude(std::int64_t L, double u_acc, ref::Format out, double y_star) {
    const double l = static_cast<double>(L);
    return std::fabs(y_star) * (l + 1 + 2 * l32_of(L)) / (2 * l) + underflow_term(L, u_acc, out, y_star);
}

double reduce_sum_oracle_error(std::int64_t K, double y_star, double magnitude) {
    const double g = ref::gamma(std::max<std::int64_t>(K - 1, 0), kF64UnitRoundoff);
    return kF64UnitRoundoff * std::fabs(y_star) + g * g * magnitude;
}

double softmax_oracle_error(double y_star) { return 9 * kF64UnitRoundoff * std::fabs(y_star) + 0x1p-1073; }

double layernorm_oracle_error(std::int64_t L, const LayernormElement& x) {
    const double g = ref::gamma(L, kF64UnitRoundoff);
    return 9 * kF64UnitRoundoff * (std::fabs(x.w * x.z) + std::fabs(x.b)) +
           2 * g * g * std::fabs(x.w) * x.mean_abs / std::sqrt(x.variance + x.eps);
}

double rmsnorm_oracle_error(double y_star) { return 7 * kF64UnitRoundoff * std::fabs(y_star); }

}  // namespace kcs::suites
