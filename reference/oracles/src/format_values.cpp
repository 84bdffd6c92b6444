#include "format_values.hpp"

#include <cstdio>
#include <stdexcept>

namespace kcs::ref::detail {

void require_value_of(std::string_view op, std::string_view operand, std::size_t index,
                      Format format, double x) {
    if (is_value_of(format, x)) return;
    char shown[40];
    std::snprintf(shown, sizeof shown, "%.17g", x);
    throw std::invalid_argument(std::string(op) + ": " + std::string(operand) + "[" +
                                std::to_string(index) + "] = " + shown + " is not a value of " +
                                std::string(info(format).name) +
                                "; round the inputs to the operator's dtype first");
}

}  // namespace kcs::ref::detail
