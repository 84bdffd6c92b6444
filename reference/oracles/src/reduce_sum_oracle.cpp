#include "kcs/reference/reduce_sum_oracle.hpp"

#include "kcs/reference/compensated_sum.hpp"

namespace kcs::ref {

ReduceSumResult reduce_sum_oracle(std::span<const double> x, const RowShape& shape) {
    require_rows("reduce_sum oracle", "x", x, shape);
    ReduceSumResult result{std::vector<double>(shape.rows), std::vector<double>(shape.rows)};
    for (std::size_t r = 0; r < shape.rows; ++r) {
        CompensatedSum sum;
        for (const double term : x.subspan(r * shape.length, shape.length)) sum.add(term);
        result.value[r] = sum.value();
        result.magnitude[r] = sum.magnitude();
    }
    return result;
}

}  // namespace kcs::ref
