#include "bitwise_rne.hpp"

#include <algorithm>
#include <cmath>

namespace kcs::suites {

namespace {

using ref::Format;

std::uint32_t sign_mask(Format f) { return f == Format::f32 ? 0x80000000u : 0x8000u; }
std::uint32_t magnitude(Format f, std::uint32_t bits) { return bits & ~sign_mask(f); }

bool is_infinite(Format f, std::uint32_t bits) { return ref::classify(f, bits) == ref::FloatClass::infinite; }

std::uint32_t largest_finite_bits(Format f) { return ref::encode(f, ref::info(f).max_finite); }

// The value halfway between the magnitude `m` (finite, encoding without
// sign) and the next larger magnitude: for the largest finite value that is
// the overflow threshold, where rounding reaches the infinity.
double midpoint_above(Format f, std::uint32_t m) {
    const double here = ref::decode(f, m);
    const double spacing = m == largest_finite_bits(f) ? here - ref::decode(f, m - 1) : ref::decode(f, m + 1) - here;
    return here + spacing / 2;  // exact: both are values of a format narrower than f64
}

}  // namespace

std::string_view to_string(StoreMismatch mismatch) {
    switch (mismatch) {
        case StoreMismatch::none:
            return "none";
        case StoreMismatch::toward_zero:
            return "toward zero";
        case StoreMismatch::toward_at_tie:
            return "a tie toward zero";
        case StoreMismatch::away_at_tie:
            return "away from zero at a tie";
        case StoreMismatch::away_from_zero:
            return "away from zero (not a tie)";
        case StoreMismatch::saturation:
            return "infinity stored as the largest finite";
        case StoreMismatch::nan_to_inf:
            return "NaN stored as an infinity";
        case StoreMismatch::other:
            return "not a rounding of the value";
    }
    return "?";
}

std::uint32_t rne_bits(Format out, double v) { return ref::encode(out, v, ref::Rounding::nearest_even); }

StoreMismatch judge_exact_store(Format out, double v, std::uint32_t got) {
    if (std::isnan(v)) {
        if (ref::is_nan(out, got)) return StoreMismatch::none;
        return is_infinite(out, got) ? StoreMismatch::nan_to_inf : StoreMismatch::other;
    }
    const std::uint32_t expected = rne_bits(out, v);
    if (got == expected) return StoreMismatch::none;
    const std::uint32_t sign = expected & sign_mask(out);
    if (is_infinite(out, expected) && got == (largest_finite_bits(out) | sign)) return StoreMismatch::saturation;

    const std::uint32_t toward_zero = ref::encode(out, v, ref::Rounding::toward_zero);
    if (ref::decode(out, toward_zero) == v) return StoreMismatch::other;  // representable: any other y is wrong
    const bool tie = std::fabs(v) == midpoint_above(out, magnitude(out, toward_zero));
    if (got == toward_zero) return tie ? StoreMismatch::toward_at_tie : StoreMismatch::toward_zero;
    if (got == toward_zero + 1)  // the next magnitude of the same sign
        return tie ? StoreMismatch::away_at_tie : StoreMismatch::away_from_zero;
    return StoreMismatch::other;
}

StoreMismatch judge_store_near(Format out, double y, double width, std::uint32_t expected, std::uint32_t got) {
    if (got == expected) return StoreMismatch::none;
    if (ref::is_nan(out, expected)) return ref::is_nan(out, got) ? StoreMismatch::none : StoreMismatch::other;
    const std::uint32_t sign = expected & sign_mask(out);
    if (is_infinite(out, expected) && got == (largest_finite_bits(out) | sign)) return StoreMismatch::saturation;
    if ((got & sign_mask(out)) != sign) return StoreMismatch::other;
    const std::uint32_t m = magnitude(out, expected);
    const double rounded = std::fabs(ref::decode(out, expected)), a = std::fabs(y);
    if (m > 0 && magnitude(out, got) == m - 1)
        return a - width < rounded ? StoreMismatch::toward_zero : StoreMismatch::other;
    if (!is_infinite(out, expected) && magnitude(out, got) == m + 1)
        return a + width > rounded ? StoreMismatch::away_from_zero : StoreMismatch::other;
    return StoreMismatch::other;
}

bool rounds_away_from_zero(Format out, double y, double width, std::uint32_t expected) {
    if (!std::isfinite(y) || ref::is_nan(out, expected)) return false;
    return std::fabs(ref::decode(out, expected)) > std::fabs(y) + width;
}

bool clear_of_midpoints(Format out, double y, double width) {
    if (!std::isfinite(y) || !(width >= 0)) return false;
    const double a = std::fabs(y);
    const std::uint32_t m = magnitude(out, rne_bits(out, a));
    if (is_infinite(out, m)) return a - width > midpoint_above(out, largest_finite_bits(out));
    const double above = midpoint_above(out, m);
    if (!(a + width < above)) return false;
    if (m == 0) return true;  // the interval (-above, above) rounds to zero: symmetric
    const double below = midpoint_above(out, m - 1);
    return a - width > below;
}

std::string rounding_signature(const RoundingFigures& f, spec::Json& figures) {
    figures = {{"stores_rounding_away", f.rounds_away}, {"of_them_toward_zero", f.cut_toward_zero}};
    const auto only = [&](std::initializer_list<StoreMismatch> allowed) {
        return std::all_of(f.kinds.begin(), f.kinds.end(), [&](StoreMismatch k) {
            return k == StoreMismatch::none || std::find(allowed.begin(), allowed.end(), k) != allowed.end();
        });
    };
    // Truncation rounds non-ties down (ties too, where RN goes up): a tie
    // rounded down alone is round-half-down, which no signature names.
    const bool toward = f.kinds.contains(StoreMismatch::toward_zero);
    if (toward && only({StoreMismatch::toward_zero, StoreMismatch::toward_at_tie, StoreMismatch::saturation,
                        StoreMismatch::nan_to_inf}))
        return 2 * f.cut_toward_zero >= f.rounds_away ? "truncation" : "unmatched";
    if (f.kinds.contains(StoreMismatch::away_at_tie) && only({StoreMismatch::away_at_tie})) return "ties-away";
    if (f.kinds.contains(StoreMismatch::saturation) && only({StoreMismatch::saturation})) return "overflow-saturation";
    if (f.kinds.contains(StoreMismatch::nan_to_inf) && only({StoreMismatch::nan_to_inf})) return "nan-to-inf";
    return "unmatched";
}

}  // namespace kcs::suites
