// The eps attribute of the norms, as the accumulate format holds it.
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <string_view>

#include "kcs/reference/formats.hpp"

namespace kcs::ref::detail {

inline double accumulate_eps(std::string_view op, double eps, Format accumulate) {
    if (!(eps > 0.0) || !std::isfinite(eps)) {
        throw std::invalid_argument(std::string(op) + ": eps = " + std::to_string(eps) +
                                    " must be finite and > 0");
    }
    return round_to(accumulate, eps);
}

}  // namespace kcs::ref::detail
