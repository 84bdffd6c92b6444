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
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "element_judgement.hpp"
#include "kcs/harness/verdict.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::suites::tolerance {

// y == y* as numbers.
bool exactly_equal(double got, double expected);

// A range probe's inexact element: |y*| beyond f16's largest finite value
// and y inf or that value.
bool coerced_to_f16(double got, double expected);

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

// The one judging loop of the model's probes: each element exact or not,
// counted by its operands' significant bits (what p_eff is found from),
// the inexact element with the fewest operand bits kept (the first of
// equals), and range coercion counted with its first element: on a range
// probe, |y*| beyond f16's largest finite value returned as inf or as that
// value (the inputs were converted to f16).
struct ExactnessTally {
    std::size_t elements = 0, inexact = 0, range_coerced = 0;
    std::map<int, std::size_t> exact_by_bits;  // exact elements by their operands' bits
    std::vector<int> inexact_bits;             // operand bits of every inexact element
    std::optional<int> fewest_inexact_bits;
    harness::WorstElement first_inexact, first_coerced;

    // Judges y against y* and says whether it was exact. `describe()`
    // gives the element's index, inputs and received bits as a
    // WorstElement; it is called only for an element that is kept.
    template <class Describe>
    bool judge(double got, double expected, int operand_bits, bool range_probe, Describe&& describe) {
        ++elements;
        if (exactly_equal(got, expected)) {
            ++exact_by_bits[operand_bits];
            return true;
        }
        ++inexact;
        inexact_bits.push_back(operand_bits);
        const bool fewest = !fewest_inexact_bits || operand_bits < *fewest_inexact_bits;
        const bool coerced = range_probe && coerced_to_f16(got, expected);
        if (coerced) ++range_coerced;
        if (fewest || (coerced && range_coerced == 1)) {
            harness::WorstElement w = describe();
            w.expected = expected;
            w.got = got;
            w.error = element_error(got, expected);
            w.bound = 0;
            if (fewest) {
                fewest_inexact_bits = operand_bits;
                first_inexact = w;
            }
            if (coerced && range_coerced == 1) first_coerced = std::move(w);
        }
        return false;
    }

    // The counts by operand bits into a p_eff being found.
    void feed(EffectivePrecision& precision) const;
    // Folds in the tally of later elements (the first of equals stays).
    void merge(const ExactnessTally& later);
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
