// The formulas of SPEC.md section 4. Every f64 operation is written as one
// IEEE operation rounded to nearest even, in SPEC's order: the library is
// compiled with -ffp-contract=off so that no a·b + c becomes an fma.
#include "kcs/reference/distributions.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "correctly_rounded.hpp"
#include "validation.hpp"

namespace kcs::ref {

namespace {

constexpr double kTwoPi = 0x1.921fb54442d18p+2;  // 2π rounded to f64
constexpr std::int64_t kMaxExactInteger = std::int64_t{1} << 53;

// HI - LO + 1 as an unsigned count; 0 stands for 2^64 (the full int64 range).
std::uint64_t range_size(const Integers& d) {
    return static_cast<std::uint64_t>(d.hi) - static_cast<std::uint64_t>(d.lo) + 1;
}

std::string shortest(double v) {
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, v);
    return std::string(buffer, result.ptr);
}

}  // namespace

std::uint64_t multiply_high(std::uint64_t x, std::uint64_t n) {
    const std::uint64_t x_lo = x & 0xFFFFFFFFu, x_hi = x >> 32;
    const std::uint64_t n_lo = n & 0xFFFFFFFFu, n_hi = n >> 32;
    const std::uint64_t lo_lo = x_lo * n_lo;
    const std::uint64_t hi_lo = x_hi * n_lo;
    const std::uint64_t lo_hi = x_lo * n_hi;
    const std::uint64_t hi_hi = x_hi * n_hi;
    // The carry out of the middle column: three terms below 2^32 each, so
    // their sum fits in 64 bits; the low column's fraction never carries.
    const std::uint64_t middle = (lo_lo >> 32) + (hi_lo & 0xFFFFFFFFu) + (lo_hi & 0xFFFFFFFFu);
    return hi_hi + (hi_lo >> 32) + (lo_hi >> 32) + (middle >> 32);
}

void standard_normals(std::span<const PhiloxBlock> blocks, std::span<double> out) {
    if (out.size() != blocks.size()) throw std::invalid_argument("standard_normals: one place per Philox block");
    // ln and cos of a block of elements at once (they vectorise), the rest element by element
    constexpr std::size_t kBlock = 256;
    std::array<double, kBlock> x, theta, l, c;
    for (std::size_t first = 0; first < blocks.size(); first += kBlock) {
        const std::size_t n = std::min(kBlock, blocks.size() - first);
        for (std::size_t k = 0; k < n; ++k) {
            const PhiloxBlock& w = blocks[first + k];
            const double u1 = unit_uniform(w[0], w[1]);
            const double u2 = unit_uniform(w[2], w[3]);
            x[k] = 1.0 - u1;  // exact, in [2^-53, 1]
            theta[k] = kTwoPi * u2;
        }
        inputs_detail::correctly_rounded_logs(std::span(x).first(n), std::span(l).first(n));
        inputs_detail::correctly_rounded_cosines(std::span(theta).first(n), std::span(c).first(n));
        for (std::size_t k = 0; k < n; ++k) {
            const double r = std::sqrt(-2.0 * l[k]);
            out[first + k] = r * c[k];
        }
    }
}

double standard_normal(const PhiloxBlock& w) {
    double z = 0.0;
    standard_normals(std::span(&w, 1), std::span(&z, 1));
    return z;
}

double sample(const Uniform& d, const PhiloxBlock& w) {
    const double u = unit_uniform(w[0], w[1]);
    const double width = d.hi - d.lo;
    const double scaled = width * u;
    return d.lo + scaled;
}

double sample(const Normal& d, const PhiloxBlock& w) {
    const double z = standard_normal(w);
    const double scaled = d.std * z;
    return d.mean + scaled;
}

std::int64_t sample(const Integers& d, const PhiloxBlock& w) {
    const std::uint64_t x = std::uint64_t{w[0]} << 32 | w[1];
    const std::uint64_t n = range_size(d);
    const std::uint64_t offset = n == 0 ? x : multiply_high(x, n);  // n = 2^64: floor(x·2^64/2^64) = x
    // Two's-complement wrap-around: LO + offset is within [LO, HI].
    return static_cast<std::int64_t>(static_cast<std::uint64_t>(d.lo) + offset);
}

double sample(const Constant& d, const PhiloxBlock&) { return d.value; }

double sample_f64(const Distribution& d, const PhiloxBlock& w) {
    return std::visit([&w](const auto& distribution) { return static_cast<double>(sample(distribution, w)); },
                      d);
}

namespace inputs_detail {

std::string distribution_problem(const Distribution& d) {
    if (const auto* u = std::get_if<Uniform>(&d)) {
        if (!std::isfinite(u->lo) || !std::isfinite(u->hi)) return "LO and HI must be finite";
        if (!(u->lo <= u->hi)) return "LO must not exceed HI";
        if (!std::isfinite(u->hi - u->lo)) return "HI - LO overflows f64";
    } else if (const auto* n = std::get_if<Normal>(&d)) {
        if (!std::isfinite(n->mean) || !std::isfinite(n->std)) return "MEAN and STD must be finite";
        if (!(n->std >= 0.0)) return "STD must not be negative";
    } else if (const auto* i = std::get_if<Integers>(&d)) {
        if (!(i->lo <= i->hi)) return "LO must not exceed HI";
        const std::uint64_t n_values = range_size(*i);
        if (n_values == 0 || n_values > (std::uint64_t{1} << 63)) return "HI - LO + 1 must not exceed 2^63";
    } else if (const auto* c = std::get_if<Constant>(&d)) {
        if (std::isnan(c->value)) return "V must not be a NaN (special-value sets place NaNs)";
    }
    return {};
}

}  // namespace inputs_detail

void validate(const Distribution& d) {
    const std::string problem = inputs_detail::distribution_problem(d);
    if (!problem.empty()) throw std::invalid_argument("distribution " + to_string(d) + ": " + problem);
}

void validate_for_floats(const Distribution& d) {
    validate(d);
    if (const auto* i = std::get_if<Integers>(&d); i && (i->lo < -kMaxExactInteger || i->hi > kMaxExactInteger))
        throw std::invalid_argument("distribution " + to_string(d) +
                                    ": LO and HI must lie in [-2^53, 2^53] for a floating-point tensor");
}

std::string to_string(const Distribution& d) {
    struct Spell {
        std::string operator()(const Uniform& u) const {
            return "uniform(" + shortest(u.lo) + "," + shortest(u.hi) + ")";
        }
        std::string operator()(const Normal& n) const {
            return "normal(" + shortest(n.mean) + "," + shortest(n.std) + ")";
        }
        std::string operator()(const Integers& i) const {
            return "integers(" + std::to_string(i.lo) + "," + std::to_string(i.hi) + ")";
        }
        std::string operator()(const Constant& c) const { return "constant(" + shortest(c.value) + ")"; }
    };
    return std::visit(Spell{}, d);
}

}  // namespace kcs::ref
