// C-PRC-04 Conversion rounding (spec/v1/classes/C-PRC-04.yaml) for cast.
// Narrowing (f32 -> f16, f32 -> bf16): the protocol's curated cases (ties
// with odd and even kept bits and one source ulp either side, the overflow
// boundary, NaNs with payload only in the dropped bits, quiet NaNs, +-0,
// +-inf, the target's subnormal boundaries) plus `samples` seeded f32
// patterns at smoke and quick, and every one of the 2^32 patterns at full.
// Widening (f16 -> f32, bf16 -> f32): all 2^16 patterns at every depth, each
// of which must come back exactly. Every store is compared bit for bit with
// RN_out of its input (any NaN for a NaN) and each mismatch classified.
#include <bit>
#include <cmath>

#include "accuracy_probes.hpp"
#include "../exactness/exactness_common.hpp"
#include "exhaustive_sweep.hpp"
#include "kcs/reference/special_values.hpp"
#include "kcs/suites/operator_io.hpp"
#include "store_judging.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using ref::Format;

// An f32 pattern and its neighbours one source ulp either side.
void add_with_neighbours(std::vector<std::uint32_t>& out, std::uint32_t bits) {
    out.push_back(bits);
    if ((bits & 0x7FFFFFFFu) != 0) out.push_back(bits - 1);
    if ((bits & 0x7FFFFFFFu) != 0x7F7FFFFFu) out.push_back(bits + 1);
}

// The curated cases of a narrowing cast to `target`, both signs.
std::vector<std::uint32_t> curated_narrowing(Format target) {
    const auto& g = ref::info(target);
    const int p = g.precision;
    const auto f32 = [](double v) { return ref::encode(Format::f32, v); };
    std::vector<std::uint32_t> out{0x7F800001u, 0xFF800001u, 0x7FC00000u, 0xFFC00000u, 0x00000000u,
                                   0x80000000u, 0x7F800000u, 0xFF800000u};
    // Ties above an even and an odd kept significand (bf16: 0x3F808000 -> 0x3F80, 0x3F818000 -> 0x3F82).
    const double even_tie = 1 + std::ldexp(1.0, -p);
    const double odd_tie = 1 + std::ldexp(1.0, 1 - p) + std::ldexp(1.0, -p);
    // The overflow threshold max_G + half its ulp: rounds to inf; one source ulp below to max_G.
    const double overflow = g.max_finite + std::ldexp(1.0, g.exponent_bias - p);
    // The subnormal boundaries of the target: its smallest subnormal, the
    // tie halfway to zero, the largest subnormal and the smallest normal,
    // and the tie between those two.
    const double tiny = g.min_subnormal;
    const double largest_subnormal = g.min_normal - tiny;
    for (const double v : {even_tie, odd_tie, overflow, tiny, tiny / 2, largest_subnormal, g.min_normal,
                           g.min_normal - tiny / 2}) {
        if (v < ref::info(Format::f32).min_subnormal) continue;
        add_with_neighbours(out, f32(v));
        add_with_neighbours(out, f32(-v));
    }
    // The special-value sets of f32, which hold the conversion ties and overflow edges of both targets.
    for (const auto& s : ref::special_values(Format::f32)) out.push_back(s.bits);
    return out;
}

bool narrowing(Format in, Format out) { return ref::info(out).precision < ref::info(in).precision; }

// RN_out of a block of input encodings, by the batch conversions of kcs::ref
// (integer arithmetic, exact; a NaN gives a quiet NaN).
void expected_block(Format in, Format out, const std::uint32_t* x, std::uint32_t* expected, std::size_t n) {
    constexpr std::size_t kMax = 4096;
    float wide[kMax];
    std::uint16_t narrow[kMax];
    if (narrowing(in, out)) {
        for (std::size_t i = 0; i < n; ++i) wide[i] = std::bit_cast<float>(x[i]);
        if (out == Format::f16) ref::f32_to_f16(wide, narrow, n);
        else ref::f32_to_bf16(wide, narrow, n);
        for (std::size_t i = 0; i < n; ++i) expected[i] = narrow[i];
    } else {
        for (std::size_t i = 0; i < n; ++i) narrow[i] = static_cast<std::uint16_t>(x[i]);
        if (in == Format::f16) ref::f16_to_f32(narrow, wide, n);
        else ref::bf16_to_f32(narrow, wide, n);
        for (std::size_t i = 0; i < n; ++i) expected[i] = std::bit_cast<std::uint32_t>(wide[i]);
    }
}

constexpr std::size_t kBlock = 4096;  // elements per batch conversion

// The NaN encodings of `out`, for the bitwise check: any NaN is the store
// of a NaN (judge_exact_store), whatever its payload.
struct NanBits {
    std::uint32_t mask, above;
    bool operator()(std::uint32_t bits) const { return (bits & mask) > above; }
};

NanBits nan_bits(Format out) {
    switch (out) {
        case Format::f16: return {0x7FFFu, 0x7C00u};
        case Format::bf16: return {0x7FFFu, 0x7F80u};
        default: return {0x7FFF'FFFFu, 0x7F80'0000u};
    }
}

// How many stores of a block equal RN_out bitwise (a NaN for a NaN): when
// all do, and no claimed flush leaves some to C-CMP-02, the block is judged
// without a record per element. Selects rather than branches, so that it
// vectorises (one clone per instruction set).
[[gnu::target_clones("avx512f", "avx2", "default")]] std::size_t bitwise_matches(NanBits nan, const std::uint32_t* got,
                                                                                  const std::uint32_t* expected,
                                                                                  std::size_t n) {
    std::size_t equal = 0;
    for (std::size_t i = 0; i < n; ++i) equal += (got[i] == expected[i]) | (nan(got[i]) & nan(expected[i]));
    return equal;
}

}  // namespace

bool cast_sweep_is_exhaustive(const harness::Instance& instance) {
    const ConfigFormats f = formats_of(instance);
    return !narrowing(f.in, f.out) || instance.depth == "full";
}

harness::CaseResult cast_rounding(harness::ProbeContext& context) {
    const auto& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const bool narrow = narrowing(f.in, f.out);
    const bool flush_claimed = flushes_subnormals(context.claims());

    // Widening: all 2^16 patterns at every depth; narrowing: all 2^32 at
    // full, else the curated cases and `samples` patterns of the tensor's
    // value stream drawn as integers in [0, 2^32 - 1].
    const bool exhaustive = cast_sweep_is_exhaustive(instance);
    if (instance.sweep && !exhaustive)
        throw std::invalid_argument("a sampled sweep depends on its seed: " + instance.id + " is not cut in parts");
    std::string source;
    std::size_t curated = 0;
    sweep::EncodingDomain domain = sweep::all_patterns(f.in);
    if (exhaustive) {
        source = std::string("every ").append(f.in_name).append(" pattern");
    } else {
        std::vector<std::uint32_t> patterns = curated_narrowing(f.out);
        curated = patterns.size();
        for (const std::int64_t bits :
             draw_integers(context.seed(), 0, 0, 0, static_cast<std::size_t>(context.integer("samples")), 0, 0xFFFFFFFFLL))
            patterns.push_back(static_cast<std::uint32_t>(bits));
        domain = sweep::EncodingDomain::listed(std::move(patterns));
        source = "curated and sampled f32 patterns";
    }
    const sweep::ChunkPlan plan(domain.size(), sweep::chunk_elements_from_environment());

    StoreTally total(f.out, flush_claimed);
    const sweep::SweepCheckpoint checkpoint{[&] { return total.save(); },
                                            [&](const spec::Json& saved) { total.restore(saved); },
                                            [&](const spec::Json& saved) {
                                                StoreTally part(f.out, flush_claimed);
                                                part.restore(saved);
                                                total.merge(part);
                                            }};
    const sweep::SweepTiming timing = sweep::run_sweep(context, domain, plan, sweep::sweep_label(instance),
                     [&](const sweep::Chunk& chunk, const harness::Invocation& call,
                         const std::vector<harness::HostTensor>& outputs) {
        const sweep::EncodingView x(call.inputs[0]), y(outputs[0]);
        sweep::judge_in_slices(chunk.count, StoreTally(f.out, flush_claimed), total,
                               [&](std::size_t begin, std::size_t end, StoreTally& s) {
            std::uint32_t in[kBlock], expected[kBlock], stored[kBlock];
            const NanBits nan = nan_bits(f.out);
            for (std::size_t b = begin; b < end; b += kBlock) {
                const std::size_t n = std::min(kBlock, end - b);
                x.read(b, std::span(in, n));
                y.read(b, std::span(stored, n));
                expected_block(f.in, f.out, in, expected, n);
                if (!flush_claimed && bitwise_matches(nan, stored, expected, n) == n) {
                    s.add_matches(n);
                    continue;
                }
                std::size_t matches = 0;
                for (std::size_t i = 0; i < n; ++i) {
                    const std::uint32_t got = stored[i];
                    // Under a claimed flush, subnormal inputs and results are C-CMP-02's.
                    if (s.input_left_to_cmp02(f.in, in[i]) || s.left_to_cmp02(expected[i])) continue;
                    if (got == expected[i] || (nan(got) && nan(expected[i]))) {
                        ++matches;
                        continue;
                    }
                    const std::size_t index = chunk.first + b + i;
                    StoreRecord r = store(index, source, ref::decode(f.in, in[i]), f.out, got);
                    if (StoreRecord* kept = s.judge(std::move(r), true))
                        kept->inputs = {std::string("x[").append(std::to_string(index)).append("]=").append(
                            hex(f.in, in[i]))};
                }
                s.add_matches(matches);
            }
        });
    }, &checkpoint);

    spec::Json details = {{"direction", narrow ? "narrowing" : "widening (must be exact)"},
                          {"inputs", source},
                          {"chunks", plan.chunks()},
                          {"sweep_timing", timing.record()}};
    if (curated) details["curated"] = curated;
    harness::CaseResult result = total.verdict(instance, std::move(details));
    result.seed_independent = exhaustive;  // every pattern, whatever the seed
    return result;
}

}  // namespace kcs::suites
