#include "dot_bound.hpp"

#include <cmath>
#include <stdexcept>

#include "model_citation.hpp"

namespace kcs::suites::tolerance {

DotBound DotBound::from_catalog(const spec::ContractClass& contract) {
    model_params(contract, "dot_bound");
    const double min_outputs = number_param(contract, "min_outputs");
    if (min_outputs < 1) throw std::invalid_argument(contract.id + ": dot_bound min_outputs must be at least 1");
    return DotBound{{number_param(contract, "c"), static_cast<std::size_t>(min_outputs),
                     number_param(contract, "mean_z"), number_param(contract, "var_factor")}};
}

double DotBound::element_bound(std::int64_t K, double u_acc, double u_out, double magnitude, double exact) const {
    return ref::dot_bound_tolerance(params, K, u_acc, u_out, magnitude, exact);
}

double DotBound::bound_with_underflow(std::int64_t K, double u_acc, double u_out, const OutputUnderflow& underflow,
                                      double magnitude, double exact) const {
    const double inner = element_bound(K, u_acc, 0.0, magnitude, exact);
    return inner + underflow.term(u_out, exact, inner);
}

ref::DotBoundResult DotBound::check(std::span<const double> got, std::span<const double> exact,
                                    std::span<const double> magnitude, std::int64_t K, double u_acc, double u_out,
                                    ref::DotStatistics statistics) const {
    return ref::check_dot_bound(got, exact, magnitude, K, u_acc, u_out, params, statistics);
}

}  // namespace kcs::suites::tolerance
