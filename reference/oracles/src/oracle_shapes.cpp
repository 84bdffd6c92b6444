#include "kcs/reference/oracle_shapes.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace kcs::ref {

std::size_t element_count(std::string_view op, std::size_t rows, std::size_t length) {
    if (length != 0 && rows > std::numeric_limits<std::size_t>::max() / length) {
        throw std::invalid_argument(std::string(op) + ": shape " + std::to_string(rows) + " x " +
                                    std::to_string(length) + " overflows the element count");
    }
    return rows * length;
}

void require_size(std::string_view op, std::string_view operand, std::size_t actual,
                  std::size_t expected) {
    if (actual != expected) {
        throw std::invalid_argument(std::string(op) + ": " + std::string(operand) + " has " +
                                    std::to_string(actual) + " elements, expected " +
                                    std::to_string(expected) + " from the shape");
    }
}

void require_nonempty_rows(std::string_view op, const RowShape& shape) {
    if (shape.length == 0) {
        throw std::invalid_argument(std::string(op) +
                                    ": the reduced (last) axis has length 0; it must be >= 1");
    }
}

}  // namespace kcs::ref
