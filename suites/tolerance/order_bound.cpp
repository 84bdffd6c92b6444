#include "order_bound.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "kcs/reference/bounds.hpp"
#include "element_judgement.hpp"
#include "model_citation.hpp"

namespace kcs::suites::tolerance {

namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

}  // namespace

OrderBound OrderBound::from_catalog(const spec::ContractClass& contract) {
    model_params(contract, "order_bound");
    return OrderBound{number_param(contract, "c"), number_param(contract, "diameter_factor")};
}

double OrderBound::element_bound(std::int64_t K, double u_acc, double u_out, double magnitude, double exact) const {
    return c * ref::gamma(K - 1, u_acc) * magnitude + u_out * std::fabs(exact);
}

double OrderBound::bound_with_underflow(std::int64_t K, double u_acc, double u_out, const OutputUnderflow& underflow,
                                        double magnitude, double exact) const {
    const double inner = element_bound(K, u_acc, 0.0, magnitude, exact);
    return inner + underflow.term(u_out, exact, inner);
}

OrderBoundResult OrderBound::check(const std::vector<std::vector<double>>& outputs, std::span<const double> exact,
                                   std::span<const double> magnitude, std::int64_t K, double u_acc, double u_out,
                                   const OutputUnderflow& underflow) const {
    if (exact.size() != magnitude.size())
        throw std::invalid_argument("order_bound: exact and magnitude differ in length");
    for (const auto& order : outputs)
        if (order.size() != exact.size())
            throw std::invalid_argument("order_bound: an order has the wrong element count");

    // Element 0 (under order 0) seeds the worst records, so that even a
    // result with every error zero names an element and its bound.
    // The (element, order) pairs are judged element by element, so that
    // pair index i * orders + o names both.
    OrderBoundResult r;
    r.elements = exact.size();
    r.errors_over_bound_by_order.assign(outputs.size(), 0);
    const std::size_t orders = outputs.size();
    ElementJudgement pairs;
    for (std::size_t i = 0; i < exact.size(); ++i) {
        const double bound = bound_with_underflow(K, u_acc, u_out, underflow, magnitude[i], exact[i]);
        bool all_finite = true;
        std::size_t lowest = 0, highest = 0;
        for (std::size_t o = 0; o < orders; ++o) {
            const double y = outputs[o][i];
            all_finite = all_finite && std::isfinite(y);
            if (!pairs.judge(i * orders + o, y, exact[i], bound)) ++r.errors_over_bound_by_order[o];
            if (y < outputs[lowest][i]) lowest = o;
            if (y > outputs[highest][i]) highest = o;
        }
        if (outputs.empty()) continue;
        // A non-finite result has no place on the line of values: its spread is unbounded.
        const double diameter = all_finite ? outputs[highest][i] - outputs[lowest][i] : kInfinity;
        if (!(diameter <= diameter_factor * bound)) ++r.diameters_over_bound;
        const double diameter_ratio = all_finite ? ratio_to_bound(diameter, bound) : kInfinity;
        if (diameter_ratio > r.worst_diameter_ratio || i == 0) {
            r.worst_diameter_ratio = diameter_ratio;
            r.worst_diameter_element = i;
            r.lowest_order = lowest;
            r.highest_order = highest;
            r.worst_diameter = diameter;
            r.worst_diameter_bound = bound;
        }
    }
    r.errors_over_bound = pairs.over_bound;
    if (pairs.worst) {
        r.worst_error_ratio = pairs.worst_ratio;
        r.worst_error_element = *pairs.worst / orders;
        r.worst_error_order = *pairs.worst % orders;
        r.worst_error = pairs.worst_error;
        r.worst_error_bound = pairs.worst_bound;
    }
    return r;
}

}  // namespace kcs::suites::tolerance
