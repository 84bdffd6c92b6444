#include "kcs/reference/reduce_max_oracle.hpp"

#include "kcs/reference/elementwise_oracle.hpp"

namespace kcs::ref {

std::vector<double> reduce_max_oracle(std::span<const double> x, const RowShape& shape) {
    require_rows("reduce_max oracle", "x", x, shape);
    std::vector<double> result(shape.rows);
    for (std::size_t r = 0; r < shape.rows; ++r) {
        const auto row = x.subspan(r * shape.length, shape.length);
        double largest = row[0];
        for (const double value : row.subspan(1)) largest = maximum_oracle(largest, value);
        result[r] = maximum_oracle(largest, largest);  // a lone NaN comes back quiet
    }
    return result;
}

}  // namespace kcs::ref
