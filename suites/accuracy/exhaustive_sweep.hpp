// The chunked sweep of an elementwise operator over a domain of input
// encodings: all 2^16 patterns of f16 or bf16, all 2^32 of f32 (depth full,
// C-CMP-01 and C-PRC-04), or a list of chosen patterns. The domain is cut
// into chunks of consecutive elements; each chunk is one adapter call
// through the ProbeContext (under the integrity protocol like any run), and
// its outputs are judged on every core before the next chunk is built, so
// that memory stays bounded by a few copies of one chunk whatever the
// domain's size.
//
// The pieces are kept apart on purpose, so that a streaming engine can be
// built on them later (overlapping the device with the judging, resuming
// from a chunk index, a fast oracle path): a ChunkPlan says which elements
// each chunk holds (a pure function of the chunk index), an EncodingDomain
// says which encoding each element is, judging a chunk folds per-slice
// tallies that merge in index order (so the result does not depend on the
// thread count), and run_sweep only sequences them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "kcs/harness/probe.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/unary_functions.hpp"

namespace kcs::suites::sweep {

// Elements per chunk by default: 2^22, 16 MiB of f32 inputs. The harness
// holds a few copies of a chunk's tensors (the probe's, the guarded image,
// the read-back) for the chunks in flight (run_sweep), and the worker two buffers;
// about 300 MiB in all, while 1024 calls over the f32 domain keep the
// per-call cost small. Below 32 MiB, kcs serves the tensors from its heap
// rather than fresh mappings (tools/kcs/main.cpp).
inline constexpr std::uint64_t kDefaultChunkElements = std::uint64_t{1} << 22;

// Consecutive elements [first, first + count) of a domain, chunk number `index`.
struct Chunk {
    std::uint64_t index = 0;
    std::uint64_t first = 0;
    std::uint64_t count = 0;
};

// A domain of `size` elements cut into chunks of `chunk_elements` (the
// last one shorter when they do not divide), or, given `lengths`, of those
// lengths in turn, each at most `chunk_elements` (calls of the lengths at
// which kernels switch between vector and tail paths, spread over the
// domain): every element in exactly one chunk, in order. Throws
// std::invalid_argument for a zero chunk size or length.
class ChunkPlan {
public:
    ChunkPlan(std::uint64_t size, std::uint64_t chunk_elements = kDefaultChunkElements,
              std::vector<std::uint64_t> lengths = {});

    std::uint64_t size() const { return size_; }
    std::uint64_t chunk_elements() const { return chunk_elements_; }
    std::uint64_t chunks() const { return chunks_; }
    Chunk chunk(std::uint64_t index) const;  // std::out_of_range past the last chunk

private:
    std::uint64_t size_;
    std::uint64_t chunk_elements_;
    std::vector<std::uint64_t> lengths_;  // one cycle of chunk lengths
    std::uint64_t period_ = 0;            // their sum
    std::uint64_t chunks_;
};

// Which input encodings a sweep's elements are, in order: the union of
// ranges of bit patterns (every pattern of a format, or its finite ones),
// or a list of chosen patterns. Element i is the i-th encoding.
class EncodingDomain {
public:
    struct Range {
        std::uint64_t first = 0;  // patterns first .. last - 1
        std::uint64_t last = 0;
    };

    // Ranges in increasing order, not overlapping (std::invalid_argument otherwise).
    static EncodingDomain ranges(std::vector<Range> ranges);
    static EncodingDomain listed(std::vector<std::uint32_t> patterns);

    std::uint64_t size() const { return size_; }
    // Encodings of elements first .. first + out.size() - 1 (std::out_of_range past the end).
    void fill(std::uint64_t first, std::span<std::uint32_t> out) const;

private:
    EncodingDomain() = default;
    std::uint64_t size_ = 0;
    std::vector<Range> ranges_;             // empty for a list
    std::vector<std::uint64_t> starts_;     // element index of each range's first pattern
    std::vector<std::uint32_t> list_;
};

// Every pattern of `format` (2^16 or 2^32), or its finite ones (NaNs and
// infinities left out), optionally without the subnormals (inputs that a
// claimed flush excuses).
EncodingDomain all_patterns(ref::Format format);
EncodingDomain finite_patterns(ref::Format format, bool without_subnormals);

// Reads a tensor's encodings without per-element checks (f32: 4 bytes,
// f16 and bf16: 2; little-endian like HostTensor). The tensor must outlive it.
class EncodingView {
public:
    explicit EncodingView(const harness::HostTensor& tensor);
    std::size_t size() const { return size_; }
    // Encodings of elements first .. first + out.size() - 1, widened to 32 bits.
    void read(std::size_t first, std::span<std::uint32_t> out) const {
        if (width_ == 4) {
            std::memcpy(out.data(), data_ + 4 * first, 4 * out.size());
            return;
        }
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = at(first + i);
    }
    std::uint32_t at(std::size_t i) const {
        if (width_ == 4) {
            std::uint32_t v;
            std::memcpy(&v, data_ + 4 * i, 4);
            return v;
        }
        std::uint16_t v;
        std::memcpy(&v, data_ + 2 * i, 2);
        return v;
    }

private:
    const std::byte* data_;
    std::size_t width_;
    std::size_t size_;
};

// The chunk's encodings as a tensor of catalog dtype `dtype` (f32, f16 or bf16), shape [count].
harness::HostTensor chunk_tensor(const std::string& dtype, const EncodingDomain& domain, const Chunk& chunk);

// The invocation of a one-input elementwise instance (unary, cast) on the
// chunk's encodings, with an output of the same shape. The input is moved
// in, never copied (an f32 chunk is 32 MiB): read it back from the
// invocation's inputs[0].
harness::Invocation chunk_invocation(const harness::Instance& instance, const EncodingDomain& domain,
                                     const Chunk& chunk);

// Threads for judging: every core the machine has (at least one).
unsigned judge_threads();

// Splits [0, n) into one contiguous slice per thread, runs
// judge(begin, end, tally) on each with a copy of `initial`, and merges
// the tallies into `total` in slice order (Tally::merge(const Tally&)).
// Exceptions from a slice are rethrown after every thread has joined.
template <typename Tally, typename Judge>
void judge_in_slices(std::size_t n, const Tally& initial, Tally& total, Judge judge,
                     unsigned threads = judge_threads()) {
    const std::size_t workers = std::clamp<std::size_t>(threads, 1, std::max<std::size_t>(n / 4096, 1));
    std::vector<Tally> tallies(workers, initial);
    std::vector<std::exception_ptr> errors(workers);
    const auto slice = [&](std::size_t w) {
        try {
            judge(w * n / workers, (w + 1) * n / workers, tallies[w]);
        } catch (...) {
            errors[w] = std::current_exception();
        }
    };
    if (workers == 1) {
        slice(0);
    } else {
        std::vector<std::thread> pool;
        for (std::size_t w = 1; w < workers; ++w)
            pool.emplace_back([&slice, w] {
                slice(w);
                ref::release_thread_caches();  // a judge may take the MPFR path
            });
        slice(0);
        for (auto& t : pool) t.join();
    }
    for (const auto& e : errors)
        if (e) std::rethrow_exception(e);
    for (const auto& t : tallies) total.merge(t);
}

// What a sweep's judge gets for one chunk: the chunk, the call that ran
// (its inputs[0] holds the chunk's encodings) and the outputs read back.
using ChunkJudge = std::function<void(const Chunk&, const harness::Invocation&, const std::vector<harness::HostTensor>&)>;

// One sweep of a one-input elementwise instance over `domain`: for each
// chunk in order its invocation (chunk_invocation) runs through the context
// on a second thread, ahead of the calling thread that judges the chunks
// that came back, so that the device and the judging overlap: the runs go
// on while the chunks not yet judged hold fewer than two full chunks'
// elements (memory: about three chunks in flight, two full ones and the
// short ones between them). `judge` is called in chunk order on the calling thread;
// progress goes to context.progress under `label` after each chunk. An
// exception from a run or a judge ends the sweep (after the run in flight).
// Where a sweep's wall time went: waiting for chunks to come back from
// the device (the adapter call and the harness's data path, beyond what
// overlapped the judging) and judging them (oracle and comparison).
// `resumed_from` > 0: the chunks before it were judged by an earlier,
// interrupted run (their time is not counted).
// A part of a sweep (Instance::sweep): its chunks, and the tally they
// left, which kcs merge joins with the other parts'. Only a sweep that does
// not depend on its seed is cut (its probe's Probe::splits).
struct SweepPartRecord {
    std::uint64_t index = 0, count = 1;
    std::uint64_t first_chunk = 0, end_chunk = 0, chunks = 0;
    std::uint64_t chunk_elements = 0, domain = 0;  // how the sweep was cut in chunks: a fold must cut alike
    std::uint64_t adapter_calls = 0;
    spec::Json tally;
};

struct SweepTiming {
    double wall_s = 0, waiting_s = 0, judging_s = 0;
    std::uint64_t resumed_from = 0;
    std::optional<SweepPartRecord> part;  // this run was one part of the sweep
    std::uint64_t folded_parts = 0;       // > 0: no chunk ran; the verdict comes from this many parts' tallies
    // {"wall_s", "waiting_for_device_s", "judging_s"[, "resumed_from_chunk"][, "part": {"index", "count",
    // "chunks": [first, end), "of", "chunk_elements", "domain", "adapter_calls", "tally"}][, "folded_parts"]}
    spec::Json record() const;
};

// How a sweep's tally is saved after each chunk and restored on resuming:
// JSON that restores the tally bit for bit (doubles as their bit patterns).
// `merge` adds a saved tally of the chunks that follow the tally's own (a
// sweep's parts, joined in chunk order); a sweep without it is not split.
struct SweepCheckpoint {
    std::function<spec::Json()> save;
    std::function<void(const spec::Json&)> restore;
    std::function<void(const spec::Json&)> merge;
};

// The environment that tunes sweeps (README, "Exhaustive sweeps"):
//  KCS_SWEEP_STATE=DIR: save the state of checkpointed sweeps in DIR after
//    every chunk, resume from it when the same sweep (catalog, instance,
//    seed, adapter and its options, claims, domain, chunks) runs again, and
//    delete it when the sweep completes.
//  KCS_SWEEP_CHUNK_ELEMENTS=N: elements per chunk (default 2^22), for a
//    device with little memory or a finer checkpoint.
//  KCS_SWEEP_CHUNK_BUDGET=N: judge at most N chunks in this run, then stop
//    with the state saved (the case is an ERROR saying so): long sweeps in
//    time-boxed slices. Needs KCS_SWEEP_STATE.
std::uint64_t chunk_elements_from_environment();

// Thrown when KCS_SWEEP_CHUNK_BUDGET ends a sweep: the case becomes an
// ERROR that says where the saved state lets the next run resume.
harness::CaseResult paused_sweep_result(std::uint64_t next_chunk, std::uint64_t chunks);

SweepTiming run_sweep(harness::ProbeContext& context, const EncodingDomain& domain, const ChunkPlan& plan,
                      const std::string& label, const ChunkJudge& judge,
                      const SweepCheckpoint* checkpoint = nullptr);

// "C-CMP-01 unary.exp f32": the progress label of an instance.
std::string sweep_label(const harness::Instance& instance);

}  // namespace kcs::suites::sweep
