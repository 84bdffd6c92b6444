#include "kcs/reference/unary_oracle.hpp"

namespace kcs::ref {

double unary_oracle(UnaryFunction function, double x, Format format) {
    return correctly_rounded_value(function, format, x);
}

std::vector<double> unary_oracle(UnaryFunction function, std::span<const double> x, Format format) {
    std::vector<double> y(x.size());
    correctly_rounded_batch(function, format, x, y);
    return y;
}

}  // namespace kcs::ref
