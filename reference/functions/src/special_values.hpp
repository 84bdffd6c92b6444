// Results fixed by the definition of f rather than computed: NaN, the
// infinities, the zeros, arguments outside f's domain and the exact points
// (exp(0), log(1), sigmoid(0)). Each choice is checked against unary.yaml.
#pragma once

#include <cstdint>
#include <optional>

#include "kcs/reference/formats.hpp"
#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref::unary_detail {

// The encoding of f(x) in `format` when x is one of those points; nullopt
// for every other x (a finite argument inside the domain that needs
// evaluation). x is the decoded argument.
std::optional<std::uint32_t> special_value(UnaryFunction function, Format format, double x);

// Finite arguments decided by analysis instead of evaluation, where the
// double interval would straddle a boundary for a whole family of inputs
// (symbolic_decisions.cpp proves each case). nullopt for every other x.
std::optional<std::uint32_t> symbolic_decision(UnaryFunction function, Format format, double x);

}  // namespace kcs::ref::unary_detail
