// The ulp_table tolerance model (spec/SPEC.md section 3): for a finite input
// x, with cr = RN_out(f(x)) the correctly rounded result,
//     err(y) = |y - cr| / ulp_out(cr)  <=  table[f][out]
// where infinities stand at +-2^(emax_out + 1), a NaN cr requires a NaN y,
// a NaN y against a number is +inf, and +0 == -0. Where subnormals = flush is
// claimed (and the profile accepts it) a zero of either sign is accepted
// where cr is subnormal.
//
// C-CMP-01 (spec/v1/classes/C-CMP-01.yaml) records the error per sub-domain
// and per input binade; its signatures are decided from those records.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kcs/reference/formats.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::suites {

// table[function][dtype] of the model's `table` parameter; throws
// std::invalid_argument naming what the catalog lacks.
double ulp_table_entry(const spec::Json& params, std::string_view function, std::string_view dtype);

// The largest entry of any function for `dtype` (C-CMP-02 sizes its
// function probes by it).
double largest_ulp_table_entry(const spec::Json& params, std::string_view dtype);

// err(y) of the model for the result bits `got_bits` of format `out`.
double table_error(ref::Format out, std::uint32_t got_bits, double cr, bool flush_claimed);

// C-CMP-01's sub-domains: where fast approximations typically fail.
enum class UlpSubdomain {
    underflow,       // cr subnormal, or zero while f(x) is not
    overflow_edge,   // cr infinite or in the top binade of the output dtype
    small_argument,  // |x| < 2^-5 (for log |x - 1| < 2^-5)
    core,            // everything else
};
inline constexpr std::size_t kUlpSubdomains = 4;
std::string_view to_string(UlpSubdomain subdomain);

// `f_is_zero`: whether the exact f(x) is zero (a zero cr is underflow only
// when it is not).
UlpSubdomain ulp_subdomain(ref::Format out, std::string_view function, double x, double cr, bool f_is_zero);

// The same rule with its constants worked out once, for sweeps that
// classify billions of elements (inline, no library calls).
struct UlpSubdomainRule {
    double min_normal;    // of the output format
    double top_binade;    // 2^emax of the output format
    bool log_distance;    // log: |x - 1| rather than |x|

    // Selects rather than branches, so that loops over elements vectorise.
    UlpSubdomain operator()(double x, double cr, bool f_is_zero) const {
        const double a = cr < 0 ? -cr : cr;
        const bool underflow = ((cr == 0) & !f_is_zero) | ((a > 0) & (a < min_normal));
        const bool overflow = a >= top_binade;  // infinities included
        const double d = log_distance ? x - 1 : x;
        const bool small = (d < 0 ? -d : d) < 0x1p-5;
        return underflow  ? UlpSubdomain::underflow
               : overflow ? UlpSubdomain::overflow_edge
               : small    ? UlpSubdomain::small_argument
                          : UlpSubdomain::core;
    }
};
UlpSubdomainRule ulp_subdomain_rule(ref::Format out, std::string_view function);

// The record of one case: the largest err per sub-domain and, in the core,
// per (sign of x, binade E(x) = floor(log2|x|)).
class UlpTally {
public:
    struct Worst {
        bool seen = false;
        double error = 0;
        std::size_t index = 0;  // the caller's element index
        double x = 0;
    };

    explicit UlpTally(double bound) : bound_(bound) {}

    // Inline: sweeps call it for every element.
    void add(std::size_t index, double x, UlpSubdomain subdomain, double error) {
        add_block(index, x, subdomain, error, !(error <= bound_));
    }
    // A block of elements in x's core binade and sub-domain at once: its
    // largest error first occurs at `index` (x is that element's), and
    // `over_bound` of its elements exceed the bound. The record is the one
    // adding each element in index order gives.
    void add_block(std::size_t index, double x, UlpSubdomain subdomain, double error, std::size_t over_bound) {
        failed_ += over_bound;
        // A NaN error (never produced by table_error) would count as +inf.
        const double e = error == error ? error : std::numeric_limits<double>::infinity();
        const auto keep = [&](Worst& w) {
            if (!w.seen || e > w.error) w = {true, e, index, x};
        };
        keep(worst_);
        keep(by_subdomain_[static_cast<std::size_t>(subdomain)]);
        if (subdomain == UlpSubdomain::core && x != 0 && x - x == 0) {  // finite, non-zero
            double& slot = core_max_[binade_slot(x)];
            slot = std::max(slot, e);
        }
    }
    // Folds in the record of other elements (a sweep judges slices of its
    // domain on several threads). On equal errors the worst already held
    // stays, so merging slices in index order keeps the lowest index.
    void merge(const UlpTally& other);

    double bound() const { return bound_; }
    std::size_t failed() const { return failed_; }  // elements with err > bound (NaN err included)
    const Worst& worst() const { return worst_; }
    const Worst& worst(UlpSubdomain subdomain) const { return by_subdomain_[static_cast<std::size_t>(subdomain)]; }
    // (sign: -1 or +1, E(x)) -> the largest core err there.
    std::map<std::pair<int, int>, double> core_binades() const;

    // The whole record as JSON that restores it bit for bit (doubles as
    // their bit patterns): a sweep's checkpoint. restore() throws
    // std::invalid_argument for JSON of another shape.
    spec::Json save() const;
    void restore(const spec::Json& saved);

    // Whether add(i, x, s, 0) would change nothing but the count: the worst
    // so far and the sub-domain's are seen, and so is x's core binade. A
    // sweep skips the elements equal to cr in a block where this holds for
    // every element (the record keeps the first index of equal errors).
    bool exact_changes_nothing(double x, UlpSubdomain subdomain) const {
        if (!worst_.seen || !by_subdomain_[static_cast<std::size_t>(subdomain)].seen) return false;
        return subdomain != UlpSubdomain::core || x == 0 || x - x != 0 || core_max_[binade_slot(x)] >= 0;
    }

private:
    // E(x) of a double x from its exponent field: -1074 .. 1023 (ilogb
    // without a library call); one slot per sign and binade, -1 while unseen.
    static constexpr int kLowestBinade = -1074, kBinades = 1023 - kLowestBinade + 1;
public:
    // The record's slot of x's core binade (sign and E(x)).
    static std::size_t binade_slot(double x) {
        const auto bits = std::bit_cast<std::uint64_t>(x);
        const int field = static_cast<int>((bits >> 52) & 0x7FF);
        // A subnormal double (never an input of these formats) counts in the lowest binade.
        const int binade = field == 0 ? kLowestBinade : field - 1023;
        return static_cast<std::size_t>((x < 0 ? kBinades : 0) + binade - kLowestBinade);
    }

private:

    double bound_;
    std::size_t failed_ = 0;
    Worst worst_;
    std::array<Worst, kUlpSubdomains> by_subdomain_{};
    std::vector<double> core_max_ = std::vector<double>(2 * kBinades, -1.0);
};

// The evidence records of a tally: per sub-domain {max_ulp_error, index, x}
// and the core's per-binade maxima [{sign, binade, max_ulp_error}].
spec::Json subdomain_record(const UlpTally& tally);
spec::Json core_binade_record(const UlpTally& tally);

// The growth factor per binade of |x| that marks C-CMP-01's argument-growth
// ("at least 1.5-fold per binade ... from the first failing binade on").
inline constexpr double kArgumentGrowthPerBinade = 1.5;

// The C-CMP-01 signature a failing tally's evidence selects, by the
// conditions spec/v1/classes/C-CMP-01.yaml states (selected_when), tried in
// this order:
//   argument-growth: the core fails over at least three consecutive
//     binades of |x| from the first failing one, and a least-squares fit
//     of log(per-binade maximum) over them rises at least 1.5-fold per
//     binade;
//   uniform-excess: the core fails in more than half of its binades seen;
//   subdomain-concentration: every failure lies in the underflow,
//     overflow-edge or small-argument sub-domain, in a core binade of
//     subnormal arguments, or in the two lowest or two highest core binades
//     seen;
//   otherwise "unmatched". `figures` gets what was tested. Empty when every
//   element met the bound. `in`: the argument's format (its subnormal binades).
std::string approximation_signature(const UlpTally& tally, ref::Format in, spec::Json& figures);

// Whether every element over the bound has a subnormal result (the
// underflow sub-domain) or a subnormal argument (a core binade of |x|
// below the smallest normal of `in`): a failure that only a flushing
// kernel makes, which C-CMP-02 judges; such a C-CMP-01 FAIL assumes it
// (SPEC.md section 5, "Primary cause").
bool failures_only_at_subnormals(const UlpTally& tally, ref::Format in);

}  // namespace kcs::suites
