// The bitwise_rne tolerance model (spec/SPEC.md section 3): on probes built
// so that the value v before the final store is known exactly (or known to
// round like the oracle's y*), the stored y MUST equal RN_out(v) bit for
// bit: ties to even, overflow to the infinity of v's sign, -0 stays -0, a
// NaN gives a NaN of any sign and payload. No parameters.
//
// Beside the verdict the model says how a wrong store relates to v, which
// is what C-PRC-04's violation signatures are decided from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>

#include "kcs/reference/formats.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::suites {

// How a stored value y relates to the value v being stored when y is not RN_out(v).
enum class StoreMismatch {
    none,            // y == RN_out(v) (any NaN for a NaN)
    toward_zero,     // v is not a midpoint and y its neighbour toward zero (truncation)
    away_at_tie,     // v is a midpoint and y its neighbour away from zero (ties-away)
    away_from_zero,  // v is not a midpoint and y its neighbour away from zero
    saturation,      // RN_out(v) is an infinity and y the largest finite of its sign
    nan_to_inf,      // v is a NaN and y an infinity
    other,           // anything else: not a rounding of v
    // v is a midpoint that RN rounds away from zero and y its neighbour
    // toward zero: a tie rounded down, which truncation does too, but
    // alone it is round-half-down, not truncation. Last: kinds are saved as numbers.
    toward_at_tie,
};

std::string_view to_string(StoreMismatch mismatch);

// RN_out(v), the encoding (low 16 bits for f16 and bf16).
std::uint32_t rne_bits(ref::Format out, double v);

// Kind (a) probes: v is the exact value being stored.
StoreMismatch judge_exact_store(ref::Format out, double v, std::uint32_t got_bits);

// Kind (b) probes: v is unknown but lies within `width` of y and rounds to
// `expected_bits` (clear_of_midpoints held). A wrong store is named by
// where it sits next to RN_out(v) and only where v could lead there: its
// neighbour toward zero is toward_zero only if v may lie below RN_out(v) in
// magnitude (truncating v then gives that neighbour), its neighbour away
// from zero away_from_zero only if v may lie above; otherwise other.
StoreMismatch judge_store_near(ref::Format out, double y, double width, std::uint32_t expected_bits,
                               std::uint32_t got_bits);

// True when RN_out rounds every v within `width` of y (0 for an exact v)
// away from zero to `expected_bits`, an infinity from overflow included:
// the stores at which truncation must differ from RN_out.
bool rounds_away_from_zero(ref::Format out, double y, double width, std::uint32_t expected_bits);

// True when no rounding midpoint of `out` lies in [y - width, y + width], so
// that every v within `width` of y has RN_out(v) == RN_out(y). Rigorous in
// f64: the interval's ends are rounded toward the inside only by the
// monotonicity of rounding (a computed end past a midpoint means the exact
// end is past it too), so an element is admitted only when it truly qualifies.
bool clear_of_midpoints(ref::Format out, double y, double width);

// What one case's stores showed, for C-PRC-04's signatures.
struct RoundingFigures {
    std::set<StoreMismatch> kinds;    // the mismatch kinds seen
    std::size_t rounds_away = 0;      // judged stores that RN_out rounds away from zero
    std::size_t cut_toward_zero = 0;  // of those, stored toward zero (or saturated)
};

// The C-PRC-04 signature id (spec/v1/classes/C-PRC-04.yaml, selected_when)
// that the figures match, or "unmatched":
//   truncation           every mismatch toward zero (overflow saturating and
//                        NaNs cut into infinities come with it), at least one
//                        toward zero on a finite value, and at least half of
//                        the stores that RN_out rounds away from zero stored
//                        toward zero: truncation changes every one of them,
//                        a few scattered low stores are not its pattern;
//   ties-away            every mismatch away from zero at an exact tie;
//   overflow-saturation  every mismatch an infinity stored as the largest finite;
//   nan-to-inf           every mismatch a NaN stored as an infinity.
// Requires at least one mismatch kind other than none. `figures`:
// stores_rounding_away, of_them_toward_zero.
std::string rounding_signature(const RoundingFigures& f, spec::Json& figures);

}  // namespace kcs::suites
