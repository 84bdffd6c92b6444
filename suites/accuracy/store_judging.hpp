// What the C-PRC-04 probes (spec/v1/classes/C-PRC-04.yaml) share, whatever
// the operator: the tie sums of kind (a), and the tally that judges stores
// by the bitwise_rne model, classifies each mismatch and turns the case
// into a verdict with its signature. conversion_rounding.cpp (matmul,
// reduce_sum, softmax), cast_rounding.cpp and pointwise_rounding.cpp use them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kcs/harness/probe.hpp"
#include "kcs/reference/formats.hpp"
#include "../tolerance/bitwise_rne.hpp"
#include "../tolerance/kind_tally.hpp"
#include "../exactness/exactness_common.hpp"

namespace kcs::suites {

// A sum of two values of one sign whose exact value is a tie of a target
// dtype, next to one, or at its overflow threshold. Two addends, not more:
// the stored value then depends on one addition and the store alone, so a
// kernel whose accumulator (or split partial sums) is narrower than f32 but
// at least as wide as the output still rounds once, correctly, and every
// mismatch is the store's. With more addends a narrow accumulator rounds a
// partial sum first and shows as a wrong rounding here, which is C-PRC-01's
// violation (and C-ORD-01's for split partials), not this class's.
struct TieSum {
    std::string name;
    std::vector<double> addends;
};

// The ties and boundaries of target dtype G (precision p): 1 + 2^-p is the
// tie between 1 and 1 + 2^(1-p) (even below), (1 + 2^(1-p)) + 2^-p the tie
// between an odd value and the even one above; the neighbours of 2^-p put
// the sum one step of the addend either side of the tie; max_G + 2^(emax-p)
// is the overflow threshold (2 - 2^-p) 2^emax, which rounds to infinity.
std::vector<TieSum> tie_sums_of(ref::Format target);

// The tie sums of both narrow targets whose addends are normal values of
// the input dtype, each with every addend positive and again negative.
std::vector<TieSum> tie_sums(ref::Format in);

struct StoreRecord {
    std::size_t index = 0;  // output element
    std::string probe;      // tie sum name or sampled data set
    double value = 0;       // the value stored: exact (a), y* (b)
    std::uint32_t expected = 0;
    std::uint32_t got = 0;
    double width = 0;  // (b): E widened by the oracle's error; 0 for (a)
    StoreMismatch kind = StoreMismatch::none;
    std::vector<std::string> inputs;
};

// The record of one store, its expected bits RN_out(value).
StoreRecord store(std::size_t index, std::string probe, double value, ref::Format out, std::uint32_t got,
                  double width = 0);

class StoreTally {
public:
    // `flush`: subnormals: flush is claimed (SPEC.md section 8), so stores
    // whose RN_out value is subnormal, and those of a subnormal input, are
    // C-CMP-02's (the model bitwise_rne leaves them to subnormal_policy).
    explicit StoreTally(ref::Format out, bool flush = false) : out_(out), flush_(flush) {}

    // Judges one store. Returns the kept record when it is the first mismatch
    // of its kind (the caller then adds its inputs to the evidence), else null.
    StoreRecord* judge(StoreRecord record, bool exact_value);

    // Under a claimed flush: whether the store of RN_out bits `expected`, or
    // of an input `in` of format `in_format`, is left to C-CMP-02 (then
    // counted as such and not judged here). Always false without the claim.
    bool left_to_cmp02(std::uint32_t expected);
    bool input_left_to_cmp02(ref::Format in_format, std::uint32_t in);

    // Stores found equal to RN_out by a faster comparison (a sweep's bitwise
    // check of whole blocks), counted without a record.
    void add_matches(std::size_t count) { stores_.pass(count); }

    // A store that differs from RN_out(y*) but equals RN_out of the value the
    // kernel itself computed before the store (its own f32 result on the same
    // inputs, or the fused a b + c): the store rounded correctly and the
    // difference is upstream, another class's to judge. Counted as judged,
    // by `reason`, and not as a mismatch.
    void add_explained(const std::string& reason) {
        stores_.pass();
        ++explained_[reason];
    }

    // Folds in another tally of the same output dtype (a sweep's slices, in
    // index order: the first mismatch of each kind already held stays).
    void merge(const StoreTally& other);

    std::size_t checked() const { return stores_.elements(); }
    std::size_t left_to_cmp02_count() const { return left_to_cmp02_; }
    std::size_t mismatches() const { return stores_.classified(); }
    // What C-PRC-04's signatures are chosen from (rounding_signature).
    RoundingFigures figures() const { return {stores_.kinds(), rounds_away_, cut_toward_zero_}; }

    // The whole tally as JSON that restores it bit for bit (doubles as their
    // bit patterns): a sweep's checkpoint. restore() throws
    // std::invalid_argument for JSON of another shape or output dtype.
    spec::Json save() const;
    void restore(const spec::Json& saved);

    harness::CaseResult verdict(const harness::Instance& instance, spec::Json details) const;

private:
    // The element that shows the signature: its defining kind first.
    const StoreRecord& worst_for(const std::string& signature) const;

    ref::Format out_;
    bool flush_ = false;
    std::size_t left_to_cmp02_ = 0;
    tolerance::KindTally<StoreMismatch, StoreRecord> stores_;  // stores judged, the mismatches by kind
    std::size_t exact_mismatches_ = 0;  // of the mismatches: those of stores of exact values (kind (a))
    std::size_t rounds_away_ = 0;       // judged stores that RN_out rounds away from zero
    std::size_t cut_toward_zero_ = 0;   // of those, stored toward zero (truncation's pattern)
    std::map<std::string, std::size_t> explained_;
};

// ---------------------------------------------------------------- check (b)

// The classes whose postconditions bound the value a store receives (the
// inputs read as they are, subnormals included, under C-CMP-02): check (b)
// takes v within E of y* from them, so a FAIL whose mismatches are all
// check (b)'s assumes them (CaseResult::assumes; primary_cause.hpp).
inline const std::vector<std::string> kValueBeforeStoreClasses{"C-CMP-01", "C-CMP-02", "C-CMP-03",
                                                               "C-PRC-01", "C-PRC-02", "C-PRC-03"};

// The class whose accumulator-side bound E check (b) takes (C-PRC-01 for
// reductions, C-PRC-02 for softmax and attention); std::invalid_argument
// when the catalog lacks it.
const spec::ContractClass& accumulator_side_class(const harness::ProbeContext& context, const std::string& id);

// C-PRC-04 of an operator judged by check (b) alone (softmax, the norms,
// attention: their values are never exact sums, so there is no kind (a)
// probe). `judge` samples outputs and judges their stores into the tally.
// An output as wide as the accumulator has no narrowing store: the plan
// makes such a configuration NOT_APPLICABLE, so it never comes here.
using SampledStoreJudge = std::function<void(const exactness::ConfigFormats&, StoreTally&, spec::Json& details)>;
harness::CaseResult judge_sampled_stores(harness::ProbeContext& context, const SampledStoreJudge& judge);

}  // namespace kcs::suites
