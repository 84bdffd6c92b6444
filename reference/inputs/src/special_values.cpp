// Special-value sets. The encodings are built from the format's fields here,
// not through a rounding routine, so that the tests that compare them with
// kcs::ref::encode check two independent constructions.
//
// Subsets after SPEC.md's list (their definitions, for a set of format t):
//   [snans]  +sNaN, -sNaN (quiet bit clear, the bit below it set), then
//            +sNaN and -sNaN with payload 1 (only the lowest bit set: the
//            NaN that truncating f32 to bf16 turns into an infinity).
//   [ties_to_G] for G = f16, bf16, the values of t that lie exactly halfway
//            between two neighbours of G (p and min subnormal are G's):
//            ±(1 + 2^-p)          RN_G gives ±1, the even neighbour below;
//            ±(1 + 3·2^-p)        RN_G gives ±(1 + 2^(2-p)), even, above;
//            ±min subnormal/2     RN_G gives ±0;
//            ±3·min subnormal/2   RN_G gives ±2·min subnormal;
//            each only where t represents it exactly (none when t = G).
//   [overflow_to_G] for G = f16, bf16 whose largest finite is below t's,
//            with T = (2 - 2^-p)·2^emax the real at and above which RN_G
//            overflows to infinity (f16: 65520; bf16: 0x1.ffp+127):
//            ±max finite of G     RN_G keeps it;
//            ±the largest t below T   RN_G keeps it finite (±max finite of G
//                                     when t is finer than G there);
//            ±T                   RN_G gives ±inf (the tie goes to even);
//            ±the smallest t above T  RN_G gives ±inf;
//            each only where t represents it and it differs from the one before.
// Each subset lists +v, -v for each v in the order given.
#include "kcs/reference/special_values.hpp"

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace kcs::ref {

namespace {

constexpr std::string_view kSubsetIds[] = {
    "zeros",       "infinities",   "nans",           "subnormals",      "extremes",  "near_one",
    "snans",       "ties_to_f16",  "ties_to_bf16",   "overflow_to_f16", "overflow_to_bf16",
};

// The fields of a format, from its FormatInfo.
struct Layout {
    int fraction_bits;       // p - 1
    int bias;                // emax
    std::uint32_t sign;      // the sign bit
    std::uint32_t exponent;  // all exponent bits set
};

Layout layout(Format format) {
    const FormatInfo& f = info(format);
    const int fraction_bits = f.precision - 1;
    return Layout{fraction_bits, f.exponent_bias, std::uint32_t{1} << (f.storage_bits - 1),
                  ((std::uint32_t{1} << f.exponent_bits) - 1) << fraction_bits};
}

// The encoding of a positive f64 value if the format holds it exactly.
std::optional<std::uint32_t> exact_encoding(Format format, double value) {
    const Layout l = layout(format);
    const double min_subnormal = std::ldexp(1.0, 1 - l.bias - l.fraction_bits);
    const double min_normal = std::ldexp(1.0, 1 - l.bias);
    if (!(value > 0.0) || !std::isfinite(value)) return std::nullopt;
    if (value < min_normal) {
        const double units = value / min_subnormal;  // exact: division by a power of two
        if (units != std::floor(units)) return std::nullopt;
        return static_cast<std::uint32_t>(units);
    }
    const int e = std::ilogb(value);
    if (e > l.bias) return std::nullopt;
    const double significand = std::ldexp(value, l.fraction_bits - e);  // in [2^F, 2^(F+1))
    if (significand != std::floor(significand)) return std::nullopt;
    const auto fraction = static_cast<std::uint32_t>(significand) - (std::uint32_t{1} << l.fraction_bits);
    return static_cast<std::uint32_t>(e + l.bias) << l.fraction_bits | fraction;
}

class SetBuilder {
public:
    SetBuilder(Format format, std::vector<SpecialValue>& out)
        : format_(format), sign_(layout(format).sign), out_(out) {}

    void one(std::string_view subset, std::string_view name, std::uint32_t bits) {
        out_.push_back({subset, name, bits});
    }
    // +bits then -bits.
    void pair(std::string_view subset, std::string_view plus, std::string_view minus, std::uint32_t bits) {
        one(subset, plus, bits);
        one(subset, minus, bits | sign_);
    }
    // ±value where the format holds it exactly.
    void pair_if_exact(std::string_view subset, std::string_view plus, std::string_view minus, double value) {
        if (const auto bits = exact_encoding(format_, value)) pair(subset, plus, minus, *bits);
    }

private:
    Format format_;
    std::uint32_t sign_;
    std::vector<SpecialValue>& out_;
};

void add_spec_subsets(Format format, SetBuilder& set) {
    const Layout l = layout(format);
    const std::uint32_t fraction_mask = (std::uint32_t{1} << l.fraction_bits) - 1;
    const auto one = static_cast<std::uint32_t>(l.bias) << l.fraction_bits;
    set.pair("zeros", "+0", "-0", 0);
    set.pair("infinities", "+inf", "-inf", l.exponent);
    set.pair("nans", "+qNaN", "-qNaN", quiet_nan_bits(format));
    set.pair("subnormals", "+min subnormal", "-min subnormal", 1);
    set.pair("subnormals", "+max subnormal", "-max subnormal", fraction_mask);
    set.pair("extremes", "+min normal", "-min normal", fraction_mask + 1);
    set.pair("extremes", "+max finite", "-max finite", l.exponent - 1);
    set.pair("near_one", "+1", "-1", one);
    set.one("near_one", "1 + 2^(1-p)", one + 1);
    set.one("near_one", "1 - 2^-p", one - 1);  // exponent one lower, fraction all ones
}

void add_snans(Format format, SetBuilder& set) {
    set.pair("snans", "+sNaN", "-sNaN", signalling_nan_bits(format));
    set.pair("snans", "+sNaN (payload 1)", "-sNaN (payload 1)", layout(format).exponent | 1);
}

void add_ties(Format format, Format target, std::string_view subset, SetBuilder& set) {
    if (format == target) return;
    const FormatInfo& g = info(target);
    const double half_step = std::ldexp(1.0, -g.precision);  // half the spacing of G just above 1
    set.pair_if_exact(subset, "+(1 + 2^-p) tie, to even below", "-(1 + 2^-p) tie, to even below", 1.0 + half_step);
    set.pair_if_exact(subset, "+(1 + 3*2^-p) tie, to even above", "-(1 + 3*2^-p) tie, to even above",
                      1.0 + 3.0 * half_step);
    set.pair_if_exact(subset, "+min subnormal/2 tie, to zero", "-min subnormal/2 tie, to zero",
                      0.5 * g.min_subnormal);
    set.pair_if_exact(subset, "+3*min subnormal/2 tie, to even above", "-3*min subnormal/2 tie, to even above",
                      1.5 * g.min_subnormal);
}

// The values of `format` next to a positive x of its normal range that is
// not the start of a binade: (largest below x, smallest above x). Scaling by
// powers of two is exact, so is every step here.
std::pair<double, double> neighbours(Format format, double x) {
    const double spacing = std::ldexp(1.0, std::ilogb(x) - (info(format).precision - 1));
    return {std::ceil(x / spacing) * spacing - spacing, std::floor(x / spacing) * spacing + spacing};
}

void add_overflow_edges(Format format, Format target, std::string_view subset, SetBuilder& set) {
    const FormatInfo& t = info(format);
    const FormatInfo& g = info(target);
    if (!(g.max_finite < t.max_finite)) return;
    const double threshold = (2.0 - std::ldexp(1.0, -g.precision)) * std::ldexp(1.0, g.exponent_bias);
    set.pair_if_exact(subset, "+max finite of target", "-max finite of target", g.max_finite);
    const auto [below, above] = neighbours(format, threshold);
    if (below != g.max_finite)
        set.pair_if_exact(subset, "+largest below the overflow threshold", "-largest below the overflow threshold",
                          below);
    set.pair_if_exact(subset, "+overflow threshold (tie, to infinity)", "-overflow threshold (tie, to infinity)",
                      threshold);
    set.pair_if_exact(subset, "+smallest above the overflow threshold", "-smallest above the overflow threshold",
                      above);
}

}  // namespace

std::uint32_t quiet_nan_bits(Format format) {
    const Layout l = layout(format);
    return l.exponent | std::uint32_t{1} << (l.fraction_bits - 1);
}

std::uint32_t signalling_nan_bits(Format format) {
    const Layout l = layout(format);
    return l.exponent | std::uint32_t{1} << (l.fraction_bits - 2);
}

std::span<const std::string_view> special_subset_ids() { return kSubsetIds; }

std::vector<SpecialValue> special_values(Format format) {
    std::vector<SpecialValue> out;
    SetBuilder set(format, out);
    add_spec_subsets(format, set);
    add_snans(format, set);
    add_ties(format, Format::f16, "ties_to_f16", set);
    add_ties(format, Format::bf16, "ties_to_bf16", set);
    add_overflow_edges(format, Format::f16, "overflow_to_f16", set);
    add_overflow_edges(format, Format::bf16, "overflow_to_bf16", set);
    return out;
}

std::vector<std::uint32_t> special_subset(Format format, std::string_view subset) {
    bool known = false;
    for (const std::string_view id : kSubsetIds) known = known || id == subset;
    if (!known) throw std::invalid_argument("unknown special-value subset '" + std::string(subset) + "'");
    std::vector<std::uint32_t> bits;
    for (const SpecialValue& v : special_values(format))
        if (v.subset == subset) bits.push_back(v.bits);
    return bits;
}

std::uint64_t exhaustive_count(Format format) { return std::uint64_t{1} << info(format).storage_bits; }

std::vector<std::uint32_t> exhaustive(Format format, std::uint64_t first, std::uint64_t count) {
    const std::uint64_t total = exhaustive_count(format);
    if (first > total || count > total - first)
        throw std::out_of_range("exhaustive(" + std::string(info(format).name) + "): elements " +
                                std::to_string(first) + " + " + std::to_string(count) + " exceed " +
                                std::to_string(total));
    std::vector<std::uint32_t> bits(count);
    for (std::uint64_t k = 0; k < count; ++k) bits[k] = static_cast<std::uint32_t>(first + k);
    return bits;
}

std::uint64_t position_index(Position position, std::uint64_t n) {
    if (n == 0) throw std::invalid_argument("position_index: a tensor of 0 elements has no positions");
    switch (position) {
        case Position::first: return 0;
        case Position::middle: return n / 2;
        case Position::last: return n - 1;
    }
    throw std::invalid_argument("position_index: unknown position");
}

std::array<std::int64_t, 5> oob_indices(std::int64_t n, IndexType type) {
    const std::int64_t max = type == IndexType::i32 ? std::numeric_limits<std::int32_t>::max()
                                                    : std::numeric_limits<std::int64_t>::max();
    const std::int64_t min = type == IndexType::i32 ? std::numeric_limits<std::int32_t>::min()
                                                    : std::numeric_limits<std::int64_t>::min();
    if (n < 0 || n > max)
        throw std::invalid_argument("oob_indices: dimension " + std::to_string(n) + " is outside [0, " +
                                    std::to_string(max) + "] of the index dtype");
    return {n, -1, -n - 1, max, min};
}

}  // namespace kcs::ref
