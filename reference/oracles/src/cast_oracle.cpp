#include "kcs/reference/cast_oracle.hpp"

#include "format_values.hpp"

namespace kcs::ref {
namespace {

constexpr std::string_view kOp = "cast oracle";

}  // namespace

double cast_oracle(double x, Format from, Format to) {
    detail::require_value_of(kOp, "x", 0, from, x);
    return detail::round_to_format(to, x);
}

std::vector<double> cast_oracle(std::span<const double> x, Format from, Format to) {
    std::vector<double> y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) {
        detail::require_value_of(kOp, "x", i, from, x[i]);
        y[i] = detail::round_to_format(to, x[i]);
    }
    return y;
}

}  // namespace kcs::ref
