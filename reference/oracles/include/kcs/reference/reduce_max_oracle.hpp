// Oracle of reduce_max: y[r] = maximum over k of x[r, k].
#pragma once

#include <span>
#include <vector>

#include "kcs/reference/oracle_shapes.hpp"

namespace kcs::ref {

// x is [rows, length], length >= 1. Exact (no arithmetic): each y[r] is the
// IEEE 754-2019 maximum of the row, one of its values, or a quiet NaN when
// the row holds a NaN; -0 is ordered below +0. Throws std::invalid_argument
// on a size mismatch or an empty row.
std::vector<double> reduce_max_oracle(std::span<const double> x, const RowShape& shape);

}  // namespace kcs::ref
