// The exact_when_representable tolerance model (spec/SPEC.md section 3),
// bound to the catalog's parameter min_mantissa_bits (dtype -> int).
//
// On probes whose exact result is representable and obtained exactly by any
// evaluation that uses the inputs at their declared precision and range,
// every output must equal y* as a number (+0 equals -0; a NaN equals
// nothing). The effective input precision p_eff is the largest p <= p_in such
// that every probe element whose operands have at most p significant bits is
// exact; it must be at least min_mantissa_bits[input dtype]. The key figure
// is p_eff.
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "kcs/spec/catalog.hpp"

namespace kcs::suites::tolerance {

// y == y* as numbers.
bool exactly_equal(double got, double expected);

// The significant bits of a finite value: from its leading to its last set
// bit (1 for a power of two, 0 for zero).
int significant_bits(double value);

// p_eff from the elements that came back inexact: p starts at p_in and each
// inexact element whose operands have s significant bits caps it at s - 1.
// The exact elements are counted by their operands' bits too: a narrower
// input format rounds every operand wider than itself, so exact elements
// above p_eff say the inexact ones are not a format's cut (exact_above).
class EffectivePrecision {
public:
    explicit EffectivePrecision(int input_precision) : value_(input_precision) {}
    void inexact(int operand_bits) {
        if (operand_bits - 1 < value_) value_ = operand_bits < 1 ? 0 : operand_bits - 1;
    }
    void exact(int operand_bits, std::size_t count = 1) { exact_by_bits_[operand_bits] += count; }
    int value() const { return value_; }
    // Exact elements whose operands carry more than value() significant bits.
    std::size_t exact_above() const {
        std::size_t n = 0;
        for (auto it = exact_by_bits_.upper_bound(value_); it != exact_by_bits_.end(); ++it) n += it->second;
        return n;
    }

private:
    int value_;
    std::map<int, std::size_t> exact_by_bits_;
};

struct ExactWhenRepresentable {
    std::map<std::string, int> min_mantissa_bits;

    // Throws std::invalid_argument unless `contract` names exact_when_representable
    // with a dtype -> int map.
    static ExactWhenRepresentable from_catalog(const spec::ContractClass& contract);

    // min_mantissa_bits[dtype]; throws std::invalid_argument when the catalog has no entry.
    int required_bits(const std::string& dtype) const;
};

}  // namespace kcs::suites::tolerance
