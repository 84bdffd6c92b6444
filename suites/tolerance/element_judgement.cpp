#include "element_judgement.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace kcs::suites::tolerance {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
}

double element_error(double got, double exact) { return std::isfinite(got) ? std::fabs(got - exact) : kInfinity; }

double ratio_to_bound(double value, double bound) {
    if (value == 0) return 0;
    return bound > 0 ? value / bound : kInfinity;
}

double error_ratio(double got, double error, double bound) {
    if (error == 0) return 0;
    return std::isfinite(got) ? ratio_to_bound(error, bound) : kInfinity;
}

bool element_holds(double got, double exact, double bound) {
    return std::isfinite(got) && element_error(got, exact) <= bound;  // finite: an infinite bound holds no inf
}

bool ElementJudgement::judge(std::size_t index, double got, double exact, double bound) {
    const double error = element_error(got, exact);
    const double ratio = error_ratio(got, error, bound);
    if (!std::isfinite(got)) {
        if (nonfinite++ == 0) first_nonfinite = index;
        if (std::isnan(got)) ++nan;
    }
    const bool holds = std::isfinite(got) && error <= bound;
    if (!holds) ++over_bound;
    if (!worst || ratio > worst_ratio) {
        worst = index;
        worst_ratio = ratio;
        worst_error = error;
        worst_bound = bound;
    }
    ++judged;
    return holds;
}

void check_lengths(std::size_t got, std::size_t exact) {
    if (got != exact)
        throw std::invalid_argument("judge_elements: " + std::to_string(got) + " outputs against " +
                                    std::to_string(exact) + " oracle values");
}

}  // namespace kcs::suites::tolerance
