// The batch forms: the stages of correctly_rounded.cpp over arrays, with
// the double evaluation vectorised (vector_evaluation.hpp) and the same
// rounding decision; counting the path that decided each element (the MPFR
// fallback rate of a sweep). The result of every element equals the scalar
// form's: both decide only what the error bound proves, else MPFR decides.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "arguments.hpp"
#include "kcs/reference/unary_functions.hpp"
#include "vector_evaluation.hpp"

namespace kcs::ref {
namespace {

void require_same_size(std::size_t x_size, std::size_t y_size) {
    if (x_size != y_size) {
        throw std::invalid_argument("kcs::ref: unary batch with " + std::to_string(x_size) +
                                    " arguments and " + std::to_string(y_size) + " results");
    }
}

// y[i] = cr(f, x[i]) for encodings held in words of type Word: f16 and
// bf16 element by element (2^16 at most), f32 by blocks of the vector stages
// (vector_evaluation.hpp) with the scalar stages for what they leave.
template <typename Word>
UnaryBatchStats batch_of_encodings(UnaryFunction function, Format format, std::span<const Word> x_bits,
                                   std::span<Word> y_bits) {
    require_same_size(x_bits.size(), y_bits.size());
    UnaryBatchStats stats;
    const auto scalar = [&](std::size_t i) {
        const UnaryResult result = correctly_rounded(function, format, x_bits[i]);
        y_bits[i] = static_cast<Word>(result.bits);
        stats.add(result.path);
    };
    if constexpr (sizeof(Word) == 4) {
        if (format == Format::f32) {
            std::uint8_t decided[unary_detail::kF32Block];
            for (std::size_t start = 0; start < x_bits.size(); start += unary_detail::kF32Block) {
                const std::size_t n = std::min(unary_detail::kF32Block, x_bits.size() - start);
                unary_detail::decide_f32_block(function, x_bits.data() + start, y_bits.data() + start, decided, n);
                std::size_t by_double = 0, by_special = 0;
                for (std::size_t k = 0; k < n; ++k) {
                    by_double += decided[k] == unary_detail::kByDouble;
                    by_special += decided[k] == unary_detail::kBySpecialCase;
                }
                stats.double_bound += by_double;
                stats.special += by_special;
                if (by_double + by_special == n) continue;
                for (std::size_t k = 0; k < n; ++k)
                    if (decided[k] == unary_detail::kLeftToScalar) scalar(start + k);
            }
            return stats;
        }
    }
    for (std::size_t i = 0; i < x_bits.size(); ++i) scalar(i);
    return stats;
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
    return batch_of_encodings(function, format, x_bits, y_bits);
}

UnaryBatchStats correctly_rounded_batch(UnaryFunction function, Format format,
                                        std::span<const std::uint16_t> x_bits,
                                        std::span<std::uint16_t> y_bits) {
    if (format == Format::f32) {
        throw std::invalid_argument("kcs::ref: 16-bit words cannot hold f32 encodings");
    }
    return batch_of_encodings(function, format, x_bits, y_bits);
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
