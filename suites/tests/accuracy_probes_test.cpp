// accuracy probes: the chunked sweep's bookkeeping, then C-CMP-01 on unary
// and C-PRC-04 on cast, unary and elementwise at depth smoke: PASS on
// reference-cpu in every function and configuration, FAIL with the
// catalog's signature on the calibration violators that reach them.
#include <bit>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>
#include <numeric>
#include <string>
#include <vector>

#include "../accuracy/accuracy_probes.hpp"
#include "../accuracy/exhaustive_sweep.hpp"
#include "kcs/reference/unary_functions.hpp"
#include "probe_test_support.hpp"

namespace kcs::suites {
namespace {

using ref::Format;

// ---------------------------------------------------------------- the sweep's bookkeeping

// Every element in exactly one chunk, in order, whatever the sizes.
TEST(ChunkPlan, CoversTheDomainExactlyOnce) {
    for (const auto& [size, chunk] : std::vector<std::pair<std::uint64_t, std::uint64_t>>{
             {0, 4}, {1, 4}, {10, 3}, {12, 3}, {65536, 1 << 23}, {std::uint64_t{1} << 32, sweep::kDefaultChunkElements}}) {
        const sweep::ChunkPlan plan(size, chunk);
        std::uint64_t next = 0;
        for (std::uint64_t c = 0; c < plan.chunks(); ++c) {
            const auto k = plan.chunk(c);
            EXPECT_EQ(k.index, c);
            EXPECT_EQ(k.first, next) << "size " << size << " chunk " << c;
            EXPECT_GT(k.count, 0u);
            EXPECT_LE(k.count, chunk);
            next = k.first + k.count;
        }
        EXPECT_EQ(next, size) << "size " << size;
        EXPECT_THROW(plan.chunk(plan.chunks()), std::out_of_range);
    }
    EXPECT_EQ(sweep::ChunkPlan(std::uint64_t{1} << 32).chunks(), 1024u);
    EXPECT_THROW(sweep::ChunkPlan(10, 0), std::invalid_argument);
}

// Given lengths, the chunks take them in turn (each at most the chunk
// size) until the domain ends, the last one cut short.
TEST(ChunkPlan, LengthsTakenInTurnOverTheDomain) {
    const sweep::ChunkPlan plan(100, 30, {1, 7, 33});  // 33 is capped at 30
    const std::uint64_t want[] = {1, 7, 30, 1, 7, 30, 1, 7, 16};
    ASSERT_EQ(plan.chunks(), std::size(want));
    std::uint64_t next = 0;
    for (std::uint64_t c = 0; c < plan.chunks(); ++c) {
        EXPECT_EQ(plan.chunk(c).first, next) << c;
        EXPECT_EQ(plan.chunk(c).count, want[c]) << c;
        next += plan.chunk(c).count;
    }
    EXPECT_THROW(sweep::ChunkPlan(10, 4, {0}), std::invalid_argument);
}

// The finite patterns of a format, filled chunk by chunk, are each pattern
// once, in increasing order, NaNs and infinities (and, when asked, the
// subnormals) left out.
TEST(EncodingDomain, FiniteF16PatternsChunkByChunk) {
    for (const bool without_subnormals : {false, true}) {
        const auto domain = sweep::finite_patterns(Format::f16, without_subnormals);
        const std::uint64_t expected = 65536 - 2 * 1024 - (without_subnormals ? 2 * 1023 : 0);
        ASSERT_EQ(domain.size(), expected);
        const sweep::ChunkPlan plan(domain.size(), 1000);
        std::vector<std::uint32_t> all;
        for (std::uint64_t c = 0; c < plan.chunks(); ++c) {
            const auto k = plan.chunk(c);
            std::vector<std::uint32_t> part(k.count);
            domain.fill(k.first, part);
            all.insert(all.end(), part.begin(), part.end());
        }
        std::vector<std::uint32_t> want;
        for (std::uint32_t b = 0; b < 65536; ++b) {
            const auto c = ref::classify(Format::f16, b);
            if (c != ref::FloatClass::zero && c != ref::FloatClass::subnormal && c != ref::FloatClass::normal) continue;
            if (without_subnormals && c == ref::FloatClass::subnormal) continue;
            want.push_back(b);
        }
        EXPECT_EQ(all, want);
    }
}

TEST(EncodingDomain, F32RangesJoinAcrossTheNonFinitePatterns) {
    const auto finite = sweep::finite_patterns(Format::f32, false);
    EXPECT_EQ(finite.size(), (std::uint64_t{1} << 32) - (std::uint64_t{1} << 24));
    std::vector<std::uint32_t> around(2);
    finite.fill(0x7F7FFFFF, around);  // the largest positive finite, then -0
    EXPECT_EQ(around, (std::vector<std::uint32_t>{0x7F7FFFFFu, 0x80000000u}));
    std::vector<std::uint32_t> last(1);
    finite.fill(finite.size() - 1, last);
    EXPECT_EQ(last[0], 0xFF7FFFFFu);
    EXPECT_THROW(finite.fill(finite.size(), last), std::out_of_range);
    EXPECT_EQ(sweep::all_patterns(Format::f32).size(), std::uint64_t{1} << 32);
    EXPECT_THROW(sweep::EncodingDomain::ranges({{10, 20}, {15, 30}}), std::invalid_argument);
}

// Slices merge in index order: the same total for any thread count.
struct SumTally {
    std::uint64_t sum = 0;
    std::size_t first_odd = SIZE_MAX;
    void merge(const SumTally& o) {
        sum += o.sum;
        if (first_odd == SIZE_MAX) first_odd = o.first_odd;
    }
};

TEST(JudgeInSlices, GivesOneTotalWhateverTheThreads) {
    const std::size_t n = 100003;
    for (const unsigned threads : {1u, 2u, 3u, 8u}) {
        SumTally total;
        sweep::judge_in_slices(n, SumTally{}, total,
                               [](std::size_t begin, std::size_t end, SumTally& t) {
                                   for (std::size_t i = begin; i < end; ++i) {
                                       t.sum += i;
                                       if (i % 2 == 1 && t.first_odd == SIZE_MAX) t.first_odd = i;
                                   }
                               },
                               threads);
        EXPECT_EQ(total.sum, std::uint64_t{n} * (n - 1) / 2) << threads << " threads";
        EXPECT_EQ(total.first_odd, 1u) << threads << " threads";
    }
    SumTally total;
    EXPECT_THROW(sweep::judge_in_slices(n, SumTally{}, total,
                                        [](std::size_t, std::size_t end, SumTally&) {
                                            if (end == n) throw std::runtime_error("last slice");
                                        },
                                        4),
                 std::runtime_error);
}

// ---------------------------------------------------------------- the common-block shortcut

// Judging with the shortcut for common blocks gives the record of judging
// every element: on runs of consecutive f32 patterns that cross binades,
// the small-argument and overflow edges, zeros, subnormals and the NaN
// results of log and rsqrt at x < 0, with results equal to cr and with a
// few wrong ones (an ulp off, a NaN, an infinity) in and out of those blocks.
TEST(UnaryAccuracyShortcut, GivesTheRecordOfEveryElement) {
    using ref::UnaryFunction;
    std::vector<std::uint32_t> x;
    const auto run = [&](std::uint32_t first, std::uint32_t count) {
        for (std::uint32_t i = 0; i < count; ++i) x.push_back(first + i);
    };
    run(0x00000000u, 20000);  // +0 and the subnormals
    run(0x3CFFF000u, 20000);  // across 2^-5: the small-argument edge
    run(0x3F77F000u, 40000);  // across 1 - 2^-5 .. 1: log's small-argument edge
    run(0x42AFF000u, 30000);  // exp's overflow edge (88.72)
    run(0x7F7FA000u, 24576);  // the top binade and the largest finite
    run(0xBF7FF000u, 20000);  // negative: NaN results of log and rsqrt
    run(0xC2CF0000u, 30000);  // exp's subnormal results (-103 and below)
    run(0x3F316000u, 8192);   // across ln 2: exp's results either side of 2, a binade edge
    run(0xC3000000u, 30000);  // exp's and sigmoid's zero results (-128 and below)
    run(0xFF000000u, 20000);  // ... down to the largest negative finite
    for (const UnaryFunction function : {UnaryFunction::exp, UnaryFunction::log, UnaryFunction::tanh,
                                         UnaryFunction::rsqrt, UnaryFunction::sigmoid}) {
        std::vector<std::uint32_t> got(x.size());
        ref::correctly_rounded_batch(function, Format::f32, x, got);
        const auto exact = unary_accuracy_record(function, 3, x, got, false);
        EXPECT_EQ(unary_accuracy_record(function, 3, x, got, true), exact) << ref::unary_function_name(function);
        // Wrong results here and there, one in an otherwise common block.
        for (const std::size_t i : {std::size_t{17}, std::size_t{30001}, std::size_t{70000}, std::size_t{150000}}) {
            if (i >= got.size()) continue;
            got[i] += 1;
        }
        got[100000] = 0x7FC00000u;
        got[110000] = 0x7F800000u;
        got[210000] += 1;         // where exp gives +0: the smallest subnormal
        got[230000] ^= 0x80000000u;  // the other zero (or sign)
        const auto exact_wrong = unary_accuracy_record(function, 3, x, got, false);
        EXPECT_NE(exact_wrong, exact);
        EXPECT_EQ(unary_accuracy_record(function, 3, x, got, true), exact_wrong) << ref::unary_function_name(function);
        // A kernel an ulp or a few off nearly everywhere (the near blocks),
        // up and down, past the bound of 3 at some elements and across
        // binade edges (where the integer difference is not the error) at
        // others; the largest error repeated, so that its first index counts.
        for (std::size_t i = 0; i < got.size(); ++i) {
            const std::uint32_t k = static_cast<std::uint32_t>((i * 2654435761u) >> 28) % 6;  // 0 .. 5 ulps
            if ((got[i] & 0x7F800000u) == 0x7F800000u || (got[i] & 0x7F800000u) == 0) continue;
            got[i] = i % 2 ? got[i] + k : got[i] - k;
        }
        const auto exact_near = unary_accuracy_record(function, 3, x, got, false);
        EXPECT_NE(exact_near, exact_wrong);
        EXPECT_EQ(unary_accuracy_record(function, 3, x, got, true), exact_near) << ref::unary_function_name(function);
    }
}

// ---------------------------------------------------------------- resuming a sweep

// Sets environment variables for one scope and restores their absence.
class ScopedEnvironment {
public:
    void set(const char* name, const std::string& value) {
        ::setenv(name, value.c_str(), 1);
        names_.push_back(name);
    }
    void unset(const char* name) { ::unsetenv(name); }
    ~ScopedEnvironment() {
        for (const char* name : names_) ::unsetenv(name);
    }

private:
    std::vector<const char*> names_;
};

// Runs `id` with its sweep state in a fresh folder, `chunk_elements` per
// chunk: first paused by a budget of `budget` chunks (an ERROR saying
// "paused after chunk BUDGET of CHUNKS"), then again without the budget,
// which resumes from the saved state. Returns the resumed run.
testing::ProbeRun paused_then_resumed(const std::string& id, const std::string& adapter, const std::string& violation,
                                      std::size_t chunk_elements, std::size_t budget, std::size_t chunks) {
    const auto dir = std::filesystem::temp_directory_path() / ("kcs-sweep-state-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    ScopedEnvironment env;
    env.set("KCS_SWEEP_STATE", dir.string());
    env.set("KCS_SWEEP_CHUNK_ELEMENTS", std::to_string(chunk_elements));
    env.set("KCS_SWEEP_CHUNK_BUDGET", std::to_string(budget));
    const auto paused = testing::run_instance(id, adapter, violation);
    EXPECT_EQ(paused.verdict, harness::Verdict::error) << testing::describe(paused.result);
    const std::string expected = "paused after chunk " + std::to_string(budget) + " of " + std::to_string(chunks);
    EXPECT_NE(paused.result.cases[0].result.message.find(expected), std::string::npos)
        << paused.result.cases[0].result.message;
    EXPECT_TRUE(std::filesystem::exists(dir) && !std::filesystem::is_empty(dir));

    env.unset("KCS_SWEEP_CHUNK_BUDGET");
    auto resumed = testing::run_instance(id, adapter, violation);
    EXPECT_EQ(resumed.result.cases[0].result.evidence.details.at("sweep_timing").value("resumed_from_chunk", 0u),
              budget);
    std::filesystem::remove_all(dir);
    return resumed;
}

// A sweep paused after 5 of its chunks (KCS_SWEEP_CHUNK_BUDGET) resumes
// from its saved state and ends with the record of an uninterrupted sweep.
TEST(ExhaustiveSweep, ResumesFromTheLastFinishedChunk) {
    const std::string id = "v1/C-CMP-01/unary.tanh/f16-f16/shapes-sweep";
    const auto uninterrupted = testing::run_instance(id, "reference-cpu");
    ASSERT_EQ(uninterrupted.verdict, harness::Verdict::pass) << testing::describe(uninterrupted.result);

    // The 63488 finite f16 patterns in calls of the catalog's lengths, each at most 4096.
    std::vector<std::uint64_t> lengths;
    for (const auto& s : uninterrupted.result.instance->parameters.at("shapes"))
        lengths.push_back(s.at(0).get<std::uint64_t>());
    const std::size_t chunks = sweep::ChunkPlan(63488, 4096, lengths).chunks();
    ASSERT_GT(chunks, 5u);
    const auto resumed = paused_then_resumed(id, "reference-cpu", "", 4096, 5, chunks);
    ASSERT_EQ(resumed.verdict, harness::Verdict::pass) << testing::describe(resumed.result);
    const auto& details = resumed.result.cases[0].result.evidence.details;
    const auto& reference = uninterrupted.result.cases[0].result.evidence.details;
    for (const char* field : {"judged", "ulp_histogram", "subdomains", "core_binades", "worst_input", "oracle_paths"})
        EXPECT_EQ(details.at(field), reference.at(field)) << field;
    EXPECT_EQ(resumed.result.cases[0].result.evidence.figure, uninterrupted.result.cases[0].result.evidence.figure);

    // A budget without a place for the state is refused, not ignored.
    ScopedEnvironment env;
    env.set("KCS_SWEEP_CHUNK_BUDGET", "5");
    const auto refused = testing::run_instance(id, "reference-cpu");
    EXPECT_EQ(refused.verdict, harness::Verdict::error);
    EXPECT_NE(refused.result.cases[0].result.message.find("KCS_SWEEP_CHUNK_BUDGET needs KCS_SWEEP_STATE"),
              std::string::npos)
        << refused.result.cases[0].result.message;
}

// A cast sweep (C-PRC-04) resumes too, with the mismatches it had found
// before the pause: the truncating f32 -> bf16 cast fails with the same
// counts, the same first mismatch of each kind and the same message as
// without the pause.
TEST(ExhaustiveSweep, CastSweepResumesWithItsMismatches) {
    const std::string id = "v1/C-PRC-04/cast/f32-bf16/shapes-sweep";
    const auto uninterrupted = testing::run_instance(id, "calibration", "bf16-truncate");
    ASSERT_EQ(uninterrupted.verdict, harness::Verdict::fail) << testing::describe(uninterrupted.result);
    const auto& reference = uninterrupted.result.cases[0].result;
    ASSERT_EQ(reference.evidence.details.at("chunks").get<std::size_t>(), 1u);

    // The curated and sampled patterns (every one judged) in 4 chunks; paused after 2.
    const std::size_t patterns = reference.evidence.details.at("checked").get<std::size_t>();
    const auto resumed = paused_then_resumed(id, "calibration", "bf16-truncate", (patterns + 3) / 4, 2, 4);
    ASSERT_EQ(resumed.verdict, harness::Verdict::fail) << testing::describe(resumed.result);
    const auto& result = resumed.result.cases[0].result;
    EXPECT_EQ(result.signature, "truncation");
    EXPECT_EQ(result.message, reference.message);
    EXPECT_EQ(result.evidence.figure, reference.evidence.figure);
    for (const char* field : {"checked", "mismatches_by_kind", "worst"})
        EXPECT_EQ(result.evidence.details.at(field), reference.evidence.details.at(field)) << field;
}

// ---------------------------------------------------------------- a sweep split across machines

// Each part of the sweep run on its own (as a shard would), its record as
// its evidence keeps it.
std::vector<spec::Json> run_parts(const std::string& id, std::uint64_t parts, const std::string& adapter,
                                  const std::string& violation) {
    std::vector<spec::Json> records;
    for (std::uint64_t i = 0; i < parts; ++i) {
        const auto run = testing::run_split_instance(id, {i, parts, {}}, adapter, violation);
        const auto& timing = run.result.cases.at(0).result.evidence.details.at("sweep_timing");
        EXPECT_EQ(timing.at("part").at("index"), i) << testing::describe(run.result);
        records.push_back(timing.at("part"));
    }
    return records;
}

// Cut into parts that run apart and folded again, an exhaustive sweep gives
// the unsplit sweep's evidence bit for bit (all of it but where its time
// went): the verdict, the message, the figure, the worst element and every
// detail, for PASSes of C-CMP-01 and C-PRC-04 and a FAIL of C-CMP-01.
TEST(SplitSweep, FoldedPartsGiveTheUnsplitSweepsEvidence) {
    struct Case {
        std::string id, adapter, violation;
        std::uint64_t chunk_elements, parts;
        harness::Verdict verdict;
    };
    using enum harness::Verdict;
    for (const Case& c : {Case{"v1/C-CMP-01/unary.tanh/f16-f16/shapes-sweep", "reference-cpu", "", 4096, 3, pass},
                          Case{"v1/C-CMP-01/unary.exp/bf16-bf16/shapes-sweep", "calibration", "fast-exp", 4096, 5, fail},
                          Case{"v1/C-PRC-04/cast/f16-f32/shapes-sweep", "reference-cpu", "", 4096, 4, pass}}) {
        ScopedEnvironment env;
        env.set("KCS_SWEEP_CHUNK_ELEMENTS", std::to_string(c.chunk_elements));
        const auto whole = testing::run_instance(c.id, c.adapter, c.violation);
        ASSERT_EQ(whole.verdict, c.verdict) << c.id << ": " << testing::describe(whole.result);
        const auto folded =
            testing::run_split_instance(c.id, {0, c.parts, run_parts(c.id, c.parts, c.adapter, c.violation)}, c.adapter,
                                        c.violation);
        ASSERT_EQ(folded.verdict, whole.verdict) << c.id << ": " << testing::describe(folded.result);
        const auto& a = whole.result.cases.at(0).result;
        const auto& b = folded.result.cases.at(0).result;
        EXPECT_GT(a.evidence.details.at("chunks").get<std::uint64_t>(), c.parts) << c.id;
        EXPECT_EQ(b.signature, a.signature) << c.id;
        EXPECT_EQ(b.message, a.message) << c.id;
        EXPECT_EQ(std::bit_cast<std::uint64_t>(b.evidence.figure), std::bit_cast<std::uint64_t>(a.evidence.figure)) << c.id;
        EXPECT_EQ(b.evidence.judged.count, a.evidence.judged.count) << c.id;
        EXPECT_EQ(b.evidence.adapter_calls, a.evidence.adapter_calls) << c.id;
        ASSERT_EQ(b.evidence.worst.has_value(), a.evidence.worst.has_value()) << c.id;
        if (a.evidence.worst) {
            EXPECT_EQ(b.evidence.worst->index, a.evidence.worst->index) << c.id;
            EXPECT_EQ(b.evidence.worst->got_bits, a.evidence.worst->got_bits) << c.id;
            EXPECT_EQ(b.evidence.worst->inputs, a.evidence.worst->inputs) << c.id;
        }
        auto details = b.evidence.details, reference = a.evidence.details;
        EXPECT_EQ(details.at("sweep_timing").at("folded_parts"), c.parts) << c.id;
        details.erase("sweep_timing");
        reference.erase("sweep_timing");
        EXPECT_EQ(details, reference) << c.id;
    }
}

// A part's record that is not that part of this sweep (another cut, a
// part out of order) is refused: the case is an ERROR saying so.
TEST(SplitSweep, PartsOfAnotherCutAreNotFolded) {
    const std::string id = "v1/C-CMP-01/unary.tanh/f16-f16/shapes-sweep";
    ScopedEnvironment env;
    env.set("KCS_SWEEP_CHUNK_ELEMENTS", "4096");
    auto parts = run_parts(id, 2, "reference-cpu", "");
    std::swap(parts[0], parts[1]);
    const auto swapped = testing::run_split_instance(id, {0, 2, parts}, "reference-cpu");
    EXPECT_EQ(swapped.verdict, harness::Verdict::error);
    EXPECT_NE(swapped.result.cases.at(0).result.message.find("is not that part of this sweep"), std::string::npos)
        << swapped.result.cases.at(0).result.message;
    const auto short_fold = testing::run_split_instance(id, {0, 3, run_parts(id, 2, "reference-cpu", "")}, "reference-cpu");
    EXPECT_EQ(short_fold.verdict, harness::Verdict::error);
}

// Only a sweep that does not depend on its seed is cut: a sampled one
// (a narrowing cast below depth full) refuses to run as a part. A part
// that would hold no chunk (2 parts of a 1-chunk sweep) is an ERROR that
// says so, not a PASS that judged nothing.
TEST(SplitSweep, NeitherASampledSweepNorAnEmptyPartRuns) {
    const auto sampled = testing::run_split_instance("v1/C-PRC-04/cast/f32-bf16/shapes-sweep", {0, 2, {}}, "reference-cpu");
    EXPECT_EQ(sampled.verdict, harness::Verdict::error);
    EXPECT_NE(sampled.result.cases.at(0).result.message.find("depends on its seed"), std::string::npos)
        << sampled.result.cases.at(0).result.message;
    const auto empty = testing::run_split_instance("v1/C-PRC-04/cast/f16-f32/shapes-sweep", {0, 2, {}}, "reference-cpu");
    EXPECT_EQ(empty.verdict, harness::Verdict::error);
    EXPECT_NE(empty.result.cases.at(0).result.message.find("holds none of its 1 chunks"), std::string::npos)
        << empty.result.cases.at(0).result.message;
}

// ---------------------------------------------------------------- probes on reference-cpu

// An exhaustive sweep does not depend on its seed: the runner judges it once
// and the second seed records the first one's judgement; the evidence
// carries the histogram of errors (summing to the inputs judged) and where
// the sweep's time went.
TEST(ExhaustiveSweep, JudgedOnceForAllSeedsWithHistogramAndTiming) {
    const auto run = testing::run_instance("v1/C-CMP-01/unary.exp/f16-f16/shapes-sweep", "reference-cpu");
    ASSERT_EQ(run.verdict, harness::Verdict::pass) << testing::describe(run.result);
    ASSERT_EQ(run.result.cases.size(), 2u);
    const auto& first = run.result.cases[0];
    const auto& second = run.result.cases[1];
    EXPECT_TRUE(first.result.seed_independent);
    EXPECT_EQ(second.seed, first.seed + 1);
    EXPECT_NE(second.result.message.find("judged once"), std::string::npos) << second.result.message;
    EXPECT_EQ(second.result.evidence.figure, first.result.evidence.figure);
    EXPECT_EQ(second.wall.count(), 0);

    const auto& details = first.result.evidence.details;
    std::uint64_t histogram_total = 0;
    for (const auto& [bucket, count] : details.at("ulp_histogram").items()) histogram_total += count.get<std::uint64_t>();
    EXPECT_EQ(histogram_total, details.at("judged").get<std::uint64_t>());
    EXPECT_GT(details.at("ulp_histogram").at("0").get<std::uint64_t>(), 0u);
    EXPECT_GE(details.at("sweep_timing").at("wall_s").get<double>(), details.at("sweep_timing").at("judging_s").get<double>());

    // A sampled sweep (f32 below depth full) depends on its seed: judged per seed.
    const auto sampled = testing::run_instance("v1/C-CMP-01/unary.exp/f32-f32/shapes-sweep", "reference-cpu");
    ASSERT_EQ(sampled.result.cases.size(), 2u);
    EXPECT_FALSE(sampled.result.cases[0].result.seed_independent);
    EXPECT_EQ(sampled.result.cases[1].result.message.find("judged once"), std::string::npos);
}

std::vector<std::string> reference_instances() {
    std::vector<std::string> out;
    for (const char* f : {"exp", "log", "tanh", "erf", "gelu", "sigmoid", "rsqrt"}) {
        for (const char* config : {"f32-f32", "f16-f16", "bf16-bf16"}) {
            out.push_back(std::string("v1/C-CMP-01/unary.").append(f).append("/").append(config).append("/shapes-sweep"));
            out.push_back(testing::instance_id("C-PRC-04", std::string("unary.") + f, config));
        }
    }
    for (const char* config : {"f32-f16", "f32-bf16", "f16-f32", "bf16-f32"})
        out.push_back(testing::instance_id("C-PRC-04", "cast", config));
    for (const char* f : {"add", "mul", "maximum", "mul_add"})
        for (const char* config : {"f32xf32xf32-f32", "f16xf16xf16-f16", "bf16xbf16xbf16-bf16"})
            out.push_back(testing::instance_id("C-PRC-04", std::string("elementwise.") + f, config));
    return out;
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
    std::string name = info.param.substr(3);
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

class AccuracyOnReferenceCpu : public ::testing::TestWithParam<std::string> {};

TEST_P(AccuracyOnReferenceCpu, Passes) {
    testing::expect_conforming(testing::run_instance(GetParam(), "reference-cpu"));
}

INSTANTIATE_TEST_SUITE_P(Accuracy, AccuracyOnReferenceCpu, ::testing::ValuesIn(reference_instances()), test_name);

// ---------------------------------------------------------------- calibration violators

struct ViolatorCase {
    std::string instance;
    std::string violation;
    std::string class_id;
    std::string signature;
};

std::string violator_name(const ::testing::TestParamInfo<ViolatorCase>& info) {
    std::string name = info.param.violation + "_" + info.param.instance.substr(3);
    for (char& c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    return name;
}

class AccuracyViolator : public ::testing::TestWithParam<ViolatorCase> {};

TEST_P(AccuracyViolator, FailsWithItsSignature) {
    const auto& c = GetParam();
    const auto run = testing::run_instance(c.instance, "calibration", c.violation);
    ASSERT_EQ(run.verdict, harness::Verdict::fail) << testing::describe(run.result);
    for (const auto& record : run.result.cases) {
        EXPECT_EQ(record.result.violated_class, c.class_id) << testing::describe(run.result);
        EXPECT_EQ(record.result.signature, c.signature) << testing::describe(run.result);
    }
}

// C-CMP-01: the bit-trick exponential cannot make subnormals and wraps near
// overflow; tanh through 1 - 2/(e^(2x) + 1) cancels for small arguments.
// Both meet the bound in the core: subdomain-concentration.
INSTANTIATE_TEST_SUITE_P(
    FastApproximations, AccuracyViolator,
    ::testing::Values(
        ViolatorCase{"v1/C-CMP-01/unary.exp/f32-f32/shapes-sweep", "fast-exp", "C-CMP-01", "subdomain-concentration"},
        ViolatorCase{"v1/C-CMP-01/unary.exp/f16-f16/shapes-sweep", "fast-exp", "C-CMP-01", "subdomain-concentration"},
        ViolatorCase{"v1/C-CMP-01/unary.exp/bf16-bf16/shapes-sweep", "fast-exp", "C-CMP-01", "subdomain-concentration"},
        ViolatorCase{"v1/C-CMP-01/unary.tanh/f32-f32/shapes-sweep", "approx-tanh", "C-CMP-01", "subdomain-concentration"},
        ViolatorCase{"v1/C-CMP-01/unary.tanh/bf16-bf16/shapes-sweep", "approx-tanh", "C-CMP-01",
                     "subdomain-concentration"}),
    violator_name);

// C-PRC-04: f32 -> bf16 by dropping the low half rounds toward zero.
INSTANTIATE_TEST_SUITE_P(Bf16Truncate, AccuracyViolator,
                         ::testing::Values(ViolatorCase{"v1/C-PRC-04/cast/f32-bf16/shapes-sweep", "bf16-truncate",
                                                        "C-PRC-04", "truncation"}),
                         violator_name);

}  // namespace
}  // namespace kcs::suites

namespace kcs::suites {
namespace {

// The full-depth sweeps, for measuring (not part of the unit run): every
// instance named in KCS_ACCURACY_FULL (comma-separated ids) at depth full on
// reference-cpu, each case's wall and adapter time printed. Run with
//   KCS_ACCURACY_FULL=v1/C-PRC-04/cast/f32-f16/shapes-sweep probe_tests
//       --gtest_also_run_disabled_tests --gtest_filter='*FullDepth*'
// A claimed flush changes what every class expects (SPEC.md section 8): a
// kernel that flushes consistently, claiming subnormals: flush, passes the
// widening cast (whose subnormal inputs it reads as zero) and the f16 sums
// (whose subnormal operands and results it flushes), where a judgement
// against the unflushed values would fail it.
TEST(ClaimedFlush, AConsistentlyFlushingKernelPassesEveryClassButTheOneThatTestsTheClaim) {
    const std::map<std::string, std::string> flush{{"subnormals", "flush"}};
    for (const char* id : {"v1/C-PRC-04/cast/f16-f32/shapes-sweep", "v1/C-PRC-04/cast/f32-bf16/shapes-sweep",
                           "v1/C-PRC-04/elementwise.add/f16xf16xf16-f16/shapes-sweep",
                           "v1/C-PRC-01/softmax/f16-f16/k-sweep", "v1/C-PRC-01/rmsnorm/f16xf16-f32/k-sweep"}) {
        SCOPED_TRACE(id);
        testing::expect_conforming(testing::run_instance(id, "calibration", "conforming=ftz", "quick", "core", flush));
    }
    // Under reference-cpu's claim (preserve) the same kernel fails the widening cast.
    const auto preserved = testing::run_instance("v1/C-PRC-04/cast/f16-f32/shapes-sweep", "calibration", "conforming=ftz");
    EXPECT_EQ(preserved.verdict, harness::Verdict::fail) << testing::describe(preserved.result);
}

TEST(AccuracyFullDepth, DISABLED_SweepsEveryPattern) {
    const char* ids = std::getenv("KCS_ACCURACY_FULL");
    if (!ids) GTEST_SKIP() << "KCS_ACCURACY_FULL names no instance";
    std::string list(ids);
    for (std::size_t start = 0; start < list.size();) {
        const std::size_t end = std::min(list.find(',', start), list.size());
        const std::string id = list.substr(start, end - start);
        start = end + 1;
        const auto run = testing::run_instance(id, "reference-cpu", "", "full", "strict");
        EXPECT_EQ(run.verdict, harness::Verdict::pass) << testing::describe(run.result);
        for (const auto& c : run.result.cases)
            std::printf("%s seed %llu: %.1f s wall, %.1f s in the adapter, %s\n", id.c_str(),
                        static_cast<unsigned long long>(c.seed), std::chrono::duration<double>(c.wall).count(),
                        std::chrono::duration<double>(c.adapter_time).count(), c.result.message.c_str());
    }
}

}  // namespace
}  // namespace kcs::suites
