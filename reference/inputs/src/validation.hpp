// Shared by validate() and parse_distribution(), which words its own errors.
#pragma once

#include <string>

#include "kcs/reference/distributions.hpp"

namespace kcs::ref::inputs_detail {

// What is wrong with a distribution's parameters, or "" if nothing.
std::string distribution_problem(const Distribution& d);

}  // namespace kcs::ref::inputs_detail
