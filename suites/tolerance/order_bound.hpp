// The order_bound tolerance model (spec/SPEC.md section 3), bound to the
// catalog's parameters (c, diameter_factor).
//
// One problem is evaluated under several orders pi of its reduced axis
// (outputs brought back to the problem's own order). With K the permuted
// axis' length, M the magnitude term and y* the exact value of an element,
//     B = c * gamma(K - 1, u(acc)) * M + u(out) * |y*|,
// every order must give |y_pi - y*| <= B, and the path-dependence diameter
// D = max_pi y_pi - min_pi y_pi must satisfy D <= diameter_factor * B.
// The key figure is max(D / B).
//
// Output rounding below the normal range: as in dot_bound.hpp, the term
// u(out) * |y*| is applied as u(out) * max(|y*|, tiny(out)), tiny the
// output's smallest normal, since below it rounding errs by up to
// u(out) * tiny(out) (softmax probabilities with gaps up to 32 fall there in f16).
#pragma once

#include <algorithm>

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "kcs/spec/catalog.hpp"
#include "output_underflow.hpp"

namespace kcs::suites::tolerance {

// What order_bound found over all elements of one problem.
struct OrderBoundResult {
    std::size_t elements = 0;
    std::size_t errors_over_bound = 0;     // (element, order) pairs with |y_pi - y*| > B
    std::size_t diameters_over_bound = 0;  // elements with D > diameter_factor * B

    // The largest |y_pi - y*| / B (+inf for a non-finite y_pi, or an error against B = 0).
    double worst_error_ratio = 0;
    std::size_t worst_error_element = 0;
    std::size_t worst_error_order = 0;
    double worst_error = 0;
    double worst_error_bound = 0;  // B there

    // The largest D / B (+inf when an order gave a non-finite value), and the two
    // orders that realise D (the smallest and the largest y_pi).
    double worst_diameter_ratio = 0;
    std::size_t worst_diameter_element = 0;
    std::size_t lowest_order = 0;
    std::size_t highest_order = 0;
    double worst_diameter = 0;
    double worst_diameter_bound = 0;  // B there (the limit is diameter_factor * B)

    // Per order, the elements it gives beyond B: an error that some order
    // avoids depends on the order; one that every order makes does not.
    std::vector<std::size_t> errors_over_bound_by_order;

    bool errors_pass() const { return errors_over_bound == 0; }
    std::size_t orders_within_bound() const {
        return static_cast<std::size_t>(
            std::count(errors_over_bound_by_order.begin(), errors_over_bound_by_order.end(), std::size_t{0}));
    }
    bool diameters_pass() const { return diameters_over_bound == 0; }
};

struct OrderBound {
    double c = 0;
    double diameter_factor = 0;

    // Throws std::invalid_argument unless `contract` names order_bound with both parameters.
    static OrderBound from_catalog(const spec::ContractClass& contract);

    // B = c * gamma(K - 1, u_acc) * M + u_out * |y*|: the catalog's formula.
    double element_bound(std::int64_t K, double u_acc, double u_out, double magnitude, double exact) const;

    // B with the output term of `underflow` (output_underflow.hpp). check() applies this one.
    double bound_with_underflow(std::int64_t K, double u_acc, double u_out, const OutputUnderflow& underflow,
                                double magnitude, double exact) const;

    // outputs[o][i]: element i under order o (already un-permuted). Every
    // order must have as many elements as exact and magnitude.
    OrderBoundResult check(const std::vector<std::vector<double>>& outputs, std::span<const double> exact,
                           std::span<const double> magnitude, std::int64_t K, double u_acc, double u_out,
                           const OutputUnderflow& underflow) const;
};

}  // namespace kcs::suites::tolerance
