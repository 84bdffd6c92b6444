// How the kernels sum: every reduction (dot products, row sums, the softmax
// denominator, the norm statistics, attention's three sums) goes through
// sum_terms() with a SumPlan. The conforming plan is one f32 running sum in
// index order, so a result depends only on the reduced values: never on
// the thread count, the batch size or the call. The accumulation and
// ordering violations are other plans.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "element_access.hpp"
#include "kcs/reference/kernels.hpp"

namespace kcs::kernels::detail {

struct SumPlan {
    // The dtype the running sum is held in: f32, or f16/bf16 under
    // f16_accumulate and bf16_accumulate. A narrow accumulator adds k-tiles
    // of kNarrowTile terms, each formed in f32, as a tensor-core kernel with
    // a half-precision accumulator does (the short dot product inside one
    // instruction is wider; the running sum between them is not).
    Dtype accumulator = Dtype::f32;
    // The reduced axis is cut into this many contiguous chunks, each summed
    // on its own and then combined (split-K). 1: a single pass.
    int chunks = 1;
    // Each chunk's sum is rounded through this dtype before combining
    // (lowprec_split_partials stores partials in the output dtype).
    Dtype partial = Dtype::f32;
    // The chunk the combination starts from; the others follow cyclically
    // (nondeterministic_order rotates it with every call).
    std::uint64_t first_chunk = 0;
};

inline constexpr int kMaxChunks = 8;
inline constexpr std::int64_t kNarrowTile = 64;

inline Dtype accumulator_of(const Settings& settings) {
    switch (settings.violation) {
        case Violation::f16_accumulate: return Dtype::f16;
        case Violation::bf16_accumulate: return Dtype::bf16;
        default: return Dtype::f32;
    }
}

// The sums inside the composites (softmax, norms, attention): a single pass;
// only the accumulator violations reach them.
inline SumPlan composite_plan(const Settings& settings) { return {accumulator_of(settings)}; }

// Every row sum the ordering classes judge (softmax, the norms, and inside
// split_plan() matmul and reduce_sum): a single pass, or the split of
// nondeterministic_order (rotated with every call) and of
// batch_dependent_split (the split a kernel picks when the batch, `rows`,
// is big enough to fill the machine).
inline SumPlan row_sum_plan(const Settings& settings, std::int64_t rows) {
    SumPlan plan = composite_plan(settings);
    if (settings.violation == Violation::nondeterministic_order || settings.conformer == Conformer::unordered_reduce) {
        plan.chunks = kMaxChunks;
        plan.first_chunk = settings.calls % kMaxChunks;
    } else if (settings.violation == Violation::batch_dependent_split && rows >= 64) {
        plan.chunks = 4;
    }
    return plan;
}

// The main reduction of matmul and reduce_sum, the operators the ordering
// violations are calibrated on first: row_sum_plan()'s splits, the
// low-precision partials of lowprec_split_partials (stored in `output`),
// and split_k_atomics' rotating split where the call has few rows over a
// long axis. `rows` is the number of independent rows the call computes
// (batch * M, or R); `length` the reduced axis.
inline SumPlan split_plan(const Settings& settings, std::int64_t rows, std::int64_t length, Dtype output) {
    constexpr std::int64_t kFewRows = 8, kLongAxis = 1024;
    SumPlan plan = row_sum_plan(settings, rows);
    if (settings.violation == Violation::lowprec_split_partials) {
        plan.chunks = 4;
        plan.partial = output;
    } else if (settings.violation == Violation::split_k_atomics && rows <= kFewRows && length >= kLongAxis) {
        plan.chunks = kMaxChunks;
        plan.first_chunk = settings.calls % kMaxChunks;
    }
    return plan;
}

// sum + term in the accumulator's register.
inline float accumulate(Dtype accumulator, float sum, float term) {
    const float exact_f32 = sum + term;
    return accumulator == Dtype::f32 ? exact_f32 : round_through(accumulator, exact_f32);
}

// The additive identity the sums start from: -0 + x == x for every x, -0
// and +0 included, so the result is what starting from the first term gives
// (an all -0 sum stays -0, as IEEE addition in order makes it).
inline constexpr float kSumIdentity = -0.0f;

// term(k) summed for k in [begin, end), in index order.
template <typename Term>
float sum_range(Dtype accumulator, std::int64_t begin, std::int64_t end, const Term& term) {
    float sum = kSumIdentity;
    if (accumulator == Dtype::f32) {
        for (std::int64_t k = begin; k < end; ++k) sum += term(k);
        return sum;
    }
    for (std::int64_t tile = begin; tile < end; tile += kNarrowTile) {
        float tile_sum = kSumIdentity;
        for (std::int64_t k = tile; k < std::min(end, tile + kNarrowTile); ++k) tile_sum += term(k);
        sum = round_through(accumulator, sum + tile_sum);
    }
    return sum;
}

// term(k) summed for k < length as the plan says. An empty sum is +0.
template <typename Term>
float sum_terms(const SumPlan& plan, std::int64_t length, const Term& term) {
    if (length == 0) return 0.0f;
    if (plan.chunks == 1) return sum_range(plan.accumulator, 0, length, term);
    std::array<float, kMaxChunks> partials{};
    for (int c = 0; c < plan.chunks; ++c) {
        const std::int64_t begin = c * length / plan.chunks;
        const std::int64_t end = (c + 1) * length / plan.chunks;
        partials[static_cast<std::size_t>(c)] = round_through(plan.partial, sum_range(plan.accumulator, begin, end, term));
    }
    float total = kSumIdentity;
    for (int j = 0; j < plan.chunks; ++j) {
        const auto c = static_cast<std::size_t>((plan.first_chunk + static_cast<std::uint64_t>(j)) %
                                                static_cast<std::uint64_t>(plan.chunks));
        total = accumulate(plan.accumulator, total, partials[c]);
    }
    return total;
}

}  // namespace kcs::kernels::detail
