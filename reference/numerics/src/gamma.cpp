// gamma(n, u): the accumulated-rounding factor of SPEC.md section 1.
#include <stdexcept>
#include <string>

#include "kcs/reference/bounds.hpp"

namespace kcs::ref {

double gamma(std::int64_t n, double u) {
    const double nu = static_cast<double>(n) * u;
    if (n < 0 || !(u >= 0) || !(nu < 1)) {
        throw std::invalid_argument("kcs::ref::gamma(n=" + std::to_string(n) + ", u=" + std::to_string(u) +
                                    "): defined only for n >= 0, u >= 0 and n*u < 1 (SPEC.md section 1); "
                                    "the catalog parameters make this instance invalid");
    }
    return nu / (1 - nu);
}

}  // namespace kcs::ref
