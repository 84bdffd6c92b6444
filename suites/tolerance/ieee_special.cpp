#include "ieee_special.hpp"

#include <cmath>

namespace kcs::suites {

std::string_view to_string(SpecialExpectation e) {
    switch (e) {
        case SpecialExpectation::nan:
            return "NaN";
        case SpecialExpectation::positive_inf:
            return "+inf";
        case SpecialExpectation::negative_inf:
            return "-inf";
        case SpecialExpectation::finite:
            return "finite";
        case SpecialExpectation::masked_zero:
            return "masked: exactly zero";
        case SpecialExpectation::masked_row_nan:
            return "fully masked row: NaN (masked_row: nan)";
        case SpecialExpectation::masked_row_zero:
            return "fully masked row: zero (masked_row: zero)";
    }
    return "?";
}

SpecialExpectation expectation_of(double y) {
    if (std::isnan(y)) return SpecialExpectation::nan;
    if (std::isinf(y)) return y > 0 ? SpecialExpectation::positive_inf : SpecialExpectation::negative_inf;
    return SpecialExpectation::finite;
}

std::string_view to_string(SpecialMismatch m) {
    switch (m) {
        case SpecialMismatch::none:
            return "none";
        case SpecialMismatch::masked_leak:
            return "masked-leak";
        case SpecialMismatch::nan_dropped:
            return "nan-dropped";
        case SpecialMismatch::infinity_lost:
            return "infinity-lost";
        case SpecialMismatch::nan_created:
            return "nan-created";
        case SpecialMismatch::unmatched:
            return "unmatched";
        case SpecialMismatch::not_a_copy:
            return "not-a-copy";
    }
    return "?";
}

SpecialMismatch judge_special(SpecialExpectation expected, ref::Format out, std::uint32_t got_bits) {
    const auto c = ref::classify(out, got_bits);
    const bool nan = c == ref::FloatClass::quiet_nan || c == ref::FloatClass::signalling_nan;
    const bool inf = c == ref::FloatClass::infinite;
    const bool negative = ref::sign_bit(out, got_bits);
    switch (expected) {
        case SpecialExpectation::nan:
            return nan ? SpecialMismatch::none : SpecialMismatch::nan_dropped;
        case SpecialExpectation::positive_inf:
        case SpecialExpectation::negative_inf: {
            if (nan) return SpecialMismatch::unmatched;
            const bool want_negative = expected == SpecialExpectation::negative_inf;
            return inf && negative == want_negative ? SpecialMismatch::none : SpecialMismatch::infinity_lost;
        }
        case SpecialExpectation::finite:
            return nan || inf ? SpecialMismatch::nan_created : SpecialMismatch::none;
        case SpecialExpectation::masked_zero:
        case SpecialExpectation::masked_row_zero:
            return c == ref::FloatClass::zero ? SpecialMismatch::none : SpecialMismatch::masked_leak;
        case SpecialExpectation::masked_row_nan:
            return nan ? SpecialMismatch::none : SpecialMismatch::masked_leak;
    }
    return SpecialMismatch::unmatched;
}

std::string special_signature(const std::set<SpecialMismatch>& m) {
    if (m.contains(SpecialMismatch::masked_leak)) return std::string(to_string(SpecialMismatch::masked_leak));
    // Outside masks one mechanism explains every element of the wrong class,
    // or none is named; copies of the right class but other bits come last.
    std::set<SpecialMismatch> wrong_class = m;
    wrong_class.erase(SpecialMismatch::not_a_copy);
    if (wrong_class.empty()) return std::string(to_string(SpecialMismatch::not_a_copy));
    if (wrong_class.size() == 1 && !wrong_class.contains(SpecialMismatch::unmatched))
        return std::string(to_string(*wrong_class.begin()));
    return "unmatched";
}

}  // namespace kcs::suites
