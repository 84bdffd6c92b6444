// The batch forms: the single-argument evaluation over arrays, counting the
// path that decided each element (the MPFR fallback rate of a sweep).
#include <stdexcept>
#include <string>

#include "arguments.hpp"
#include "kcs/reference/unary_functions.hpp"

namespace kcs::ref {
namespace {

void require_same_size(std::size_t x_size, std::size_t y_size) {
    if (x_size != y_size) {
        throw std::invalid_argument("kcs::ref: unary batch with " + std::to_string(x_size) +
                                    " arguments and " + std::to_string(y_size) + " results");
    }
}

}  // namespace

void UnaryBatchStats::add(UnaryPath path) {
    switch (path) {
        case UnaryPath::special: ++special; return;
        case UnaryPath::double_bound: ++double_bound; return;
        case UnaryPath::mpfr: ++mpfr; return;
    }
}

UnaryBatchStats& UnaryBatchStats::operator+=(const UnaryBatchStats& other) {
    special += other.special;
    double_bound += other.double_bound;
    mpfr += other.mpfr;
    return *this;
}

UnaryBatchStats correctly_rounded_batch(UnaryFunction function, Format format,
                                        std::span<const std::uint32_t> x_bits,
                                        std::span<std::uint32_t> y_bits) {
    require_same_size(x_bits.size(), y_bits.size());
    UnaryBatchStats stats;
    for (std::size_t i = 0; i < x_bits.size(); ++i) {
        const UnaryResult result = correctly_rounded(function, format, x_bits[i]);
        y_bits[i] = result.bits;
        stats.add(result.path);
    }
    return stats;
}

UnaryBatchStats correctly_rounded_batch(UnaryFunction function, Format format,
                                        std::span<const std::uint16_t> x_bits,
                                        std::span<std::uint16_t> y_bits) {
    if (format == Format::f32) {
        throw std::invalid_argument("kcs::ref: 16-bit words cannot hold f32 encodings");
    }
    require_same_size(x_bits.size(), y_bits.size());
    UnaryBatchStats stats;
    for (std::size_t i = 0; i < x_bits.size(); ++i) {
        const UnaryResult result = correctly_rounded(function, format, x_bits[i]);
        y_bits[i] = static_cast<std::uint16_t>(result.bits);
        stats.add(result.path);
    }
    return stats;
}

UnaryBatchStats correctly_rounded_batch(UnaryFunction function, Format format,
                                        std::span<const double> x, std::span<double> y) {
    require_same_size(x.size(), y.size());
    UnaryBatchStats stats;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const std::uint32_t x_bits = unary_detail::encode_argument(format, x[i]);
        const UnaryResult result = correctly_rounded(function, format, x_bits);
        y[i] = decode(format, result.bits);
        stats.add(result.path);
    }
    return stats;
}

}  // namespace kcs::ref
