#include "output_underflow.hpp"

#include <cmath>

namespace kcs::suites::tolerance {

OutputUnderflow OutputUnderflow::of(ref::Format out, const harness::Claims& claims) {
    return {ref::info(out).min_normal, claims.at("subnormals") == "flush"};
}

double OutputUnderflow::term(double u_out, double exact, double inner) const {
    const double rounding = u_out * std::fmax(std::fabs(exact), tiny);
    return flush && std::fabs(exact) <= tiny + inner ? rounding + tiny : rounding;
}

}  // namespace kcs::suites::tolerance
