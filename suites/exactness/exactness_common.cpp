#include "exactness_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "kcs/reference/fill.hpp"
#include "kcs/suites/operator_io.hpp"

namespace kcs::suites::exactness {

ConfigFormats formats_of(const harness::Instance& instance) {
    const auto& config = instance.config;
    if (config.inputs.empty()) throw std::invalid_argument("configuration " + config.id() + " has no input dtype");
    const std::string acc = config.accumulate.value_or(config.output);
    return {float_format(config.inputs.front()), float_format(config.output), float_format(acc), config.inputs.front(),
            config.output};
}

std::uint32_t bits_at(const harness::HostTensor& tensor, std::size_t index) {
    return static_cast<std::uint32_t>(tensor.bits(index));
}

std::string hex(ref::Format format, std::uint32_t bits) {
    char text[16];
    std::snprintf(text, sizeof text, "0x%0*x", format == ref::Format::f32 ? 8 : 4, bits);
    return text;
}

std::vector<std::string> depends_on(const std::string& name, const harness::HostTensor& tensor,
                                    std::span<const std::size_t> indices) {
    constexpr std::size_t kMostListedWithBits = 64;  // spec/SPEC.md section 9
    std::vector<std::string> out;
    for (const std::size_t i : indices) {
        // Appended piece by piece: GCC 12 misreports "a" + std::string chains (-Wrestrict).
        std::string entry = name;
        entry.append("[").append(std::to_string(i)).append("]");
        if (indices.size() <= kMostListedWithBits) entry.append("=").append(hex_bits(tensor, i));
        out.push_back(std::move(entry));
    }
    return out;
}

std::vector<std::string> depends_on_range(const std::string& name, const harness::HostTensor& tensor, std::size_t first,
                                          std::size_t count) {
    std::vector<std::size_t> indices(count);
    for (std::size_t j = 0; j < count; ++j) indices[j] = first + j;
    return depends_on(name, tensor, indices);
}

std::vector<std::vector<std::int64_t>> probe_shapes(const harness::Instance& instance, std::size_t rank,
                                                    const std::string& layout) {
    const auto shapes = instance.parameters.at("shapes").get<std::vector<std::vector<std::int64_t>>>();
    if (shapes.empty()) throw std::invalid_argument(instance.id + ": the shape sweep is empty");
    for (const auto& s : shapes)
        if (s.size() != rank || std::any_of(s.begin(), s.end(), [](std::int64_t d) { return d < 1; }))
            throw std::invalid_argument(instance.id + ": shapes are " + layout + " with every extent >= 1");
    return shapes;
}

std::string shape_text(std::span<const std::int64_t> shape) {
    std::string text = "[";  // appended piece by piece: GCC 12 misreads "[" + ... as overlapping (-Wrestrict)
    for (std::size_t i = 0; i < shape.size(); ++i) {
        if (i) text += 'x';
        text += std::to_string(shape[i]);
    }
    return text += ']';
}

std::vector<std::int64_t> draw_integers(std::uint64_t seed, std::uint32_t tensor, std::uint32_t stream,
                                        std::uint64_t first_index, std::size_t count, std::int64_t lo,
                                        std::int64_t hi) {
    std::vector<std::int64_t> out(count);
    ref::fill_integers(ref::Integers{lo, hi}, ref::TensorStream{seed, tensor, stream}, first_index, out);
    return out;
}

harness::HostTensor tensor_of_bits(const std::string& dtype, std::vector<std::int64_t> shape,
                                   const std::vector<std::uint32_t>& bits) {
    auto t = harness::HostTensor::zeros(abi_dtype(dtype), std::move(shape));
    if (bits.size() != t.elements())
        throw std::invalid_argument("tensor_of_bits: element count does not match the shape");
    t.set_all_bits(std::span<const std::uint32_t>(bits));
    return t;
}

int lowest_set_bit(double v) {
    int e = 0;
    double m = std::frexp(std::fabs(v), &e);  // |v| = m * 2^e, m in [0.5, 1)
    int shifts = 0;
    while (m != std::floor(m)) m *= 2, ++shifts;  // exact: doubling a double
    return e - shifts;
}

double largest_partial_sum(std::span<const double> terms) {
    double positive = 0, negative = 0;
    for (const double t : terms) (t > 0 ? positive : negative) += std::fabs(t);
    return std::max(positive, negative);
}

bool exact_in_f32_any_order(std::span<const double> terms) {
    constexpr int kF32Precision = 24;
    int lowest = std::numeric_limits<int>::max();  // L: the lowest set bit over all terms
    for (const double t : terms) {
        if (!std::isfinite(t)) return false;
        if (t != 0) lowest = std::min(lowest, lowest_set_bit(t));
    }
    if (lowest == std::numeric_limits<int>::max()) return true;  // all zeros
    // Exact in f64 whenever the test can pass: the sums have at most 24 bits above 2^L.
    const double largest = largest_partial_sum(terms);
    const auto& f32 = ref::info(ref::Format::f32);
    const bool on_f32_grid = std::ldexp(1.0, lowest) >= f32.min_subnormal;
    return on_f32_grid && largest < std::ldexp(1.0, lowest + kF32Precision) && largest <= f32.max_finite;
}

double value_at_or_below(ref::Format format, double x) {
    const double r = ref::round_to(format, x);
    if (r <= x) return r;
    const std::uint32_t bits = ref::encode(format, r);
    // One step toward -inf: magnitude up for a negative value (or -0), down
    // for a positive one (+0 is never above x here: x < 0 rounds to -0).
    return ref::decode(format, std::signbit(r) ? bits + 1 : bits - 1);
}

double value_at_or_above(ref::Format format, double x) { return -value_at_or_below(format, -x); }

}  // namespace kcs::suites::exactness
