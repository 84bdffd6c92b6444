#include "accumulator_side_bound.hpp"

#include <algorithm>
#include <cmath>

#include "kcs/reference/bounds.hpp"

namespace kcs::suites {

namespace {
constexpr double kF64UnitRoundoff = 0x1p-53;
}  // namespace

double softmax_magnitude(std::int64_t L, double u_acc, ref::Format out, double y_star, double gap) {
    // C-PRC-02's postcondition defines L32 = max(L, 32): its derivation
    // absorbs the constant terms into 0.375 L32.
    constexpr std::int64_t kShortRowFloor = 32;
    const double l = static_cast<double>(L);
    const double l32 = static_cast<double>(std::max(L, kShortRowFloor));
    const double tiny = ref::info(out).min_normal;
    const double t = std::fabs(y_star) < 2 * tiny ? tiny / (l * u_acc) : 0.0;
    return std::fabs(y_star) * (l32 + gap) / l + t;
}

double reduce_sum_oracle_error(std::int64_t K, double y_star, double magnitude) {
    const double g = ref::gamma(std::max<std::int64_t>(K - 1, 0), kF64UnitRoundoff);
    return kF64UnitRoundoff * std::fabs(y_star) + g * g * magnitude;
}

double softmax_oracle_error(double y_star) { return 9 * kF64UnitRoundoff * std::fabs(y_star) + 0x1p-1073; }

}  // namespace kcs::suites
