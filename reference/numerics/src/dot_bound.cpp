// The dot_bound tolerance model (SPEC.md section 3; C-PRC-01).
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "kcs/reference/bounds.hpp"

namespace kcs::ref {
namespace {

void require_finite_oracle(std::size_t i, double exact, double magnitude) {
    if (!std::isfinite(exact) || !std::isfinite(magnitude) || magnitude < 0) {
        throw std::invalid_argument("kcs::ref::check_dot_bound: output " + std::to_string(i) +
                                    " has a non-finite exact value or a magnitude term that is not a "
                                    "finite value >= 0; the oracle or the inputs break the precondition");
    }
}

// Element i's error against its bound; a bound of 0 tolerates only an exact result.
double error_ratio(double error, double bound) {
    if (!(error == error) || std::isinf(error)) return std::numeric_limits<double>::infinity();
    if (error == 0) return 0;
    return bound > 0 ? error / bound : std::numeric_limits<double>::infinity();
}

}  // namespace

double dot_bound_tolerance(const DotBoundParams& params, std::int64_t K, double u_acc, double u_out,
                           double magnitude, double exact) {
    return params.c * gamma(K, u_acc) * magnitude + u_out * std::fabs(exact);
}

DotBoundResult check_dot_bound(std::span<const double> got, std::span<const double> exact,
                               std::span<const double> magnitude, std::int64_t K, double u_acc, double u_out,
                               const DotBoundParams& params, DotStatistics statistics) {
    if (got.size() != exact.size() || got.size() != magnitude.size()) {
        throw std::invalid_argument("kcs::ref::check_dot_bound: got, exact and magnitude differ in length");
    }
    const double g = gamma(K, u_acc);
    DotBoundResult r;

    // Per element, and the normalised errors' sum for the mean.
    double sum_e = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        require_finite_oracle(i, exact[i], magnitude[i]);
        const double error = std::fabs(got[i] - exact[i]);
        const double bound = dot_bound_tolerance(params, K, u_acc, u_out, magnitude[i], exact[i]);
        const bool within = std::isfinite(got[i]) && error <= bound;
        const double ratio = error_ratio(error, bound);
        if (!within) ++r.elements_failed;
        if (ratio > r.worst_ratio) {
            r.worst_ratio = ratio;
            r.worst_index = i;
            r.worst_error = error;
            r.worst_bound = bound;
        }
        if (magnitude[i] > 0) {
            sum_e += (got[i] - exact[i]) / (g * magnitude[i]);
            ++r.statistics_outputs;
        }
    }
    r.elements_pass = r.elements_failed == 0;
    if (r.worst_ratio == 0 && !got.empty()) {  // every element exact: report element 0 with its bound
        r.worst_error = 0;
        r.worst_bound = dot_bound_tolerance(params, K, u_acc, u_out, magnitude[0], exact[0]);
    }
    if (statistics == DotStatistics::skip) return r;

    // Statistics over the N outputs with M > 0 (population variance, two passes).
    r.statistics_applied = true;
    const std::size_t n = r.statistics_outputs;
    r.count_pass = n >= params.min_outputs;
    if (n == 0) return r;  // nothing to judge: only count_pass speaks
    r.mean = sum_e / static_cast<double>(n);
    double sum_sq = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
        if (magnitude[i] > 0) {
            const double d = (got[i] - exact[i]) / (g * magnitude[i]) - r.mean;
            sum_sq += d * d;
        }
    }
    r.variance = sum_sq / static_cast<double>(n);
    const double kd = static_cast<double>(K);
    r.mean_limit = params.mean_z * std::sqrt(params.var_factor / (kd * static_cast<double>(n)));
    r.variance_limit = params.var_factor / kd;
    r.mean_pass = std::fabs(r.mean) <= r.mean_limit;   // false for a NaN mean
    r.variance_pass = r.variance <= r.variance_limit;  // false for a NaN variance
    return r;
}

}  // namespace kcs::ref
