#include "contraction_signature.hpp"

#include <cmath>

namespace kcs::suites::contraction {

bool folded_by_finite_math(ref::Format out, double expected, std::uint32_t got) {
    const double y = ref::decode(out, got);
    if (std::isnan(expected)) return std::isfinite(y);
    if (expected == 0 || std::isinf(expected)) return y == -expected && std::signbit(y) != std::signbit(expected);
    return false;
}

std::string signature(const Figures& f, spec::Json& figures) {
    const std::size_t fused_off = f.contract_on ? 0 : f.fused;
    figures = {{"fused_under_off", fused_off}, {"regrouped", f.regrouped}, {"ieee_folded", f.ieee_folded},
               {"ieee_other", f.ieee_other},   {"drawn_wrong", f.plain}};
    if (fused_off + f.regrouped + f.ieee_folded + f.ieee_other + f.plain == 0) return "";
    if (fused_off > 0 && f.regrouped == 0) return "fused-where-unfused-declared";
    if (f.regrouped > 0 && fused_off == 0) return "reassociated";
    if (fused_off == 0 && f.regrouped == 0 && f.ieee_folded > 0 && f.ieee_other == 0 && f.plain == 0)
        return "finite-math-folding";
    return "unmatched";
}

}  // namespace kcs::suites::contraction
