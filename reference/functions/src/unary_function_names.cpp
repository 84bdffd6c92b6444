// The catalog's names of the unary functions (unary.yaml, `functions`).
#include <string_view>

#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref {

std::string_view unary_function_name(UnaryFunction function) {
    switch (function) {
        case UnaryFunction::exp: return "exp";
        case UnaryFunction::log: return "log";
        case UnaryFunction::tanh: return "tanh";
        case UnaryFunction::erf: return "erf";
        case UnaryFunction::gelu: return "gelu";
        case UnaryFunction::sigmoid: return "sigmoid";
        case UnaryFunction::rsqrt: return "rsqrt";
    }
    return "?";  // unreachable: every function is listed
}

std::optional<UnaryFunction> parse_unary_function(std::string_view name) {
    for (const UnaryFunction function : kUnaryFunctions) {
        if (unary_function_name(function) == name) return function;
    }
    return std::nullopt;
}

}  // namespace kcs::ref
