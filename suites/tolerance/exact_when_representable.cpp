#include "exact_when_representable.hpp"

#include <cmath>
#include <stdexcept>

#include "kcs/reference/formats.hpp"
#include "model_citation.hpp"

namespace kcs::suites::tolerance {

bool exactly_equal(double got, double expected) { return got == expected; }

bool coerced_to_f16(double got, double expected) {
    const double f16_largest = ref::info(ref::Format::f16).max_finite;
    return std::fabs(expected) > f16_largest && (std::isinf(got) || std::fabs(got) == f16_largest);
}

void ExactnessTally::feed(EffectivePrecision& precision) const {
    for (const int bits : inexact_bits) precision.inexact(bits);
    for (const auto& [bits, n] : exact_by_bits) precision.exact(bits, n);
}

void ExactnessTally::merge(const ExactnessTally& later) {
    elements += later.elements;
    for (const auto& [bits, n] : later.exact_by_bits) exact_by_bits[bits] += n;
    inexact_bits.insert(inexact_bits.end(), later.inexact_bits.begin(), later.inexact_bits.end());
    if (later.fewest_inexact_bits && (!fewest_inexact_bits || *later.fewest_inexact_bits < *fewest_inexact_bits)) {
        fewest_inexact_bits = later.fewest_inexact_bits;
        first_inexact = later.first_inexact;
    }
    if (range_coerced == 0 && later.range_coerced > 0) first_coerced = later.first_coerced;
    inexact += later.inexact;
    range_coerced += later.range_coerced;
}

int significant_bits(double value) {
    if (value == 0 || !std::isfinite(value)) return 0;
    int exponent = 0;
    double fraction = std::fabs(std::frexp(value, &exponent));  // [0.5, 1)
    int bits = 0;
    while (fraction != 0) {  // shift the significand out bit by bit: at most 53 steps
        fraction *= 2;
        const double bit = std::floor(fraction);
        fraction -= bit;
        ++bits;
    }
    return bits;
}

ExactWhenRepresentable ExactWhenRepresentable::from_catalog(const spec::ContractClass& contract) {
    const spec::Json& params = model_params(contract, "exact_when_representable");
    if (!params.contains("min_mantissa_bits") || !params.at("min_mantissa_bits").is_object())
        throw std::invalid_argument(contract.id + ": exact_when_representable needs min_mantissa_bits (dtype -> int)");
    ExactWhenRepresentable model;
    for (const auto& [dtype, bits] : params.at("min_mantissa_bits").items()) {
        if (!bits.is_number_integer())
            throw std::invalid_argument(contract.id + ": min_mantissa_bits[" + dtype + "] is not an integer");
        model.min_mantissa_bits[dtype] = bits.get<int>();
    }
    return model;
}

int ExactWhenRepresentable::required_bits(const std::string& dtype) const {
    const auto it = min_mantissa_bits.find(dtype);
    if (it == min_mantissa_bits.end())
        throw std::invalid_argument("exact_when_representable: the catalog gives no min_mantissa_bits for " + dtype);
    return it->second;
}

}  // namespace kcs::suites::tolerance
