// Shapes and claims shared by the oracles, and the checks that turn a
// caller's mistake into an exception naming the operand.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>

namespace kcs::ref {

// Rows of equal length, row-major: the last axis is the one reduced or
// normalised; leading dimensions are flattened into `rows`.
struct RowShape {
    std::size_t rows = 0;
    std::size_t length = 0;
};

// The masked_row claim of softmax and attention: the value every position
// of a row whose entries are all -inf gets.
enum class MaskedRow { nan, zero };

// rows * length, throwing std::invalid_argument when it overflows size_t.
std::size_t element_count(std::string_view op, std::size_t rows, std::size_t length);

// Throws std::invalid_argument "<op>: <operand> has N elements, expected E"
// when the sizes differ.
void require_size(std::string_view op, std::string_view operand, std::size_t actual,
                  std::size_t expected);

// Throws std::invalid_argument when the reduced axis is empty.
void require_nonempty_rows(std::string_view op, const RowShape& shape);

// Checks the operand of a row-wise operator against its shape.
inline void require_rows(std::string_view op, std::string_view operand,
                         std::span<const double> x, const RowShape& shape) {
    require_nonempty_rows(op, shape);
    require_size(op, operand, x.size(), element_count(op, shape.rows, shape.length));
}

}  // namespace kcs::ref
