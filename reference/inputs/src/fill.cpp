#include "kcs/reference/fill.hpp"

#include "normal_cache.hpp"

namespace kcs::ref {

namespace {

// One element, the distribution already validated.
std::uint32_t bits_of(Format format, const Distribution& d, const TensorStream& where, std::uint64_t index) {
    if (const auto* c = std::get_if<Constant>(&d)) return encode(format, c->value);
    const PhiloxBlock block = philox_block(where.seed, where.tensor, where.stream, index);
    return encode(format, sample_f64(d, block));
}

}  // namespace

std::uint32_t element_bits(Format format, const Distribution& d, const TensorStream& where,
                           std::uint64_t index) {
    validate_for_floats(d);
    return bits_of(format, d, where, index);
}

void fill_bits(Format format, const Distribution& d, const TensorStream& where, std::uint64_t first_index,
               std::span<std::uint32_t> out) {
    validate_for_floats(d);
    if (const auto* normal = std::get_if<Normal>(&d)) {
        // sample(Normal) from a z drawn once for every dtype that asks
        const auto z = inputs_detail::standard_normals(where, first_index, out.size());
        for (std::size_t k = 0; k < out.size(); ++k) {
            const double scaled = normal->std * (*z)[k];
            out[k] = encode(format, normal->mean + scaled);
        }
        return;
    }
    for (std::size_t k = 0; k < out.size(); ++k) out[k] = bits_of(format, d, where, first_index + k);
}

std::vector<std::uint32_t> fill_bits(Format format, const Distribution& d, const TensorStream& where,
                                     std::size_t count) {
    std::vector<std::uint32_t> out(count);
    fill_bits(format, d, where, 0, out);
    return out;
}

std::vector<double> fill_values(Format format, const Distribution& d, const TensorStream& where,
                                std::size_t count) {
    const std::vector<std::uint32_t> bits = fill_bits(format, d, where, count);
    std::vector<double> values(count);
    for (std::size_t k = 0; k < count; ++k) values[k] = decode(format, bits[k]);
    return values;
}

void fill_integers(const Integers& d, const TensorStream& where, std::uint64_t first_index,
                   std::span<std::int64_t> out) {
    validate(d);
    for (std::size_t k = 0; k < out.size(); ++k)
        out[k] = sample(d, philox_block(where.seed, where.tensor, where.stream, first_index + k));
}

std::vector<std::int64_t> fill_integers(const Integers& d, const TensorStream& where, std::size_t count) {
    std::vector<std::int64_t> out(count);
    fill_integers(d, where, 0, out);
    return out;
}

}  // namespace kcs::ref
