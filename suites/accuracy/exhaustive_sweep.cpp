#include "exhaustive_sweep.hpp"

#include <bit>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <stdexcept>

#include "kcs/spec/sha256.hpp"
#include "kcs/suites/operator_io.hpp"

namespace kcs::suites::sweep {

static_assert(std::endian::native == std::endian::little, "HostTensor stores little-endian elements");

ChunkPlan::ChunkPlan(std::uint64_t size, std::uint64_t chunk_elements, std::vector<std::uint64_t> lengths)
    : size_(size), chunk_elements_(chunk_elements), chunks_(0) {
    if (chunk_elements == 0) throw std::invalid_argument("a sweep's chunks need at least one element");
    if (lengths.empty()) lengths = {chunk_elements};
    for (const std::uint64_t length : lengths) {
        if (length == 0) throw std::invalid_argument("a sweep's chunk lengths need at least one element");
        lengths_.push_back(std::min(length, chunk_elements));
        period_ += lengths_.back();
    }
    const std::uint64_t cycles = size / period_;
    chunks_ = cycles * lengths_.size();
    for (std::uint64_t rest = size - cycles * period_, j = 0; rest > 0; ++j, ++chunks_)
        rest -= std::min(rest, lengths_[j]);
}

Chunk ChunkPlan::chunk(std::uint64_t index) const {
    if (index >= chunks_)
        throw std::out_of_range("sweep chunk " + std::to_string(index) + " of " + std::to_string(chunks_));
    const std::uint64_t cycle = index / lengths_.size(), j = index % lengths_.size();
    std::uint64_t first = cycle * period_;
    for (std::uint64_t i = 0; i < j; ++i) first += lengths_[i];
    return {index, first, std::min(lengths_[j], size_ - first)};
}

EncodingView::EncodingView(const harness::HostTensor& tensor)
    : data_(tensor.bytes.data()), width_(harness::dtype_size(tensor.dtype)), size_(tensor.elements()) {
    if (width_ != 2 && width_ != 4)
        throw std::invalid_argument("an encoding view reads 2- or 4-byte floats, not " +
                                    harness::dtype_name(tensor.dtype));
    if (tensor.bytes.size() != size_ * width_)
        throw std::invalid_argument("a tensor whose bytes do not match its shape");
}

EncodingDomain EncodingDomain::ranges(std::vector<Range> ranges) {
    EncodingDomain d;
    std::uint64_t previous_end = 0;
    for (const Range& r : ranges) {
        if (r.last < r.first || r.first < previous_end)
            throw std::invalid_argument("a sweep's pattern ranges must be increasing and disjoint");
        previous_end = r.last;
        d.starts_.push_back(d.size_);
        d.size_ += r.last - r.first;
    }
    d.ranges_ = std::move(ranges);
    return d;
}

EncodingDomain EncodingDomain::listed(std::vector<std::uint32_t> patterns) {
    EncodingDomain d;
    d.size_ = patterns.size();
    d.list_ = std::move(patterns);
    return d;
}

void EncodingDomain::fill(std::uint64_t first, std::span<std::uint32_t> out) const {
    if (first > size_ || out.size() > size_ - first)
        throw std::out_of_range("sweep elements " + std::to_string(first) + " + " + std::to_string(out.size()) +
                                " past the domain's " + std::to_string(size_));
    if (ranges_.empty()) {
        std::copy_n(list_.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
        return;
    }
    // The range holding element `first`, then pattern by pattern across ranges.
    std::size_t r = static_cast<std::size_t>(std::upper_bound(starts_.begin(), starts_.end(), first) - starts_.begin()) - 1;
    std::uint64_t pattern = ranges_[r].first + (first - starts_[r]);
    for (std::size_t i = 0; i < out.size();) {
        while (pattern == ranges_[r].last) pattern = ranges_[++r].first;
        // The rest of this range at once, in a loop that vectorises.
        const std::size_t run = static_cast<std::size_t>(std::min<std::uint64_t>(ranges_[r].last - pattern, out.size() - i));
        const auto base = static_cast<std::uint32_t>(pattern);
        for (std::size_t k = 0; k < run; ++k) out[i + k] = base + static_cast<std::uint32_t>(k);
        i += run;
        pattern += run;
    }
}

EncodingDomain all_patterns(ref::Format format) {
    return EncodingDomain::ranges({{0, std::uint64_t{1} << ref::info(format).storage_bits}});
}

EncodingDomain finite_patterns(ref::Format format, bool without_subnormals) {
    const auto& f = ref::info(format);
    const std::uint64_t sign = std::uint64_t{1} << (f.storage_bits - 1);
    const std::uint64_t smallest_normal = std::uint64_t{1} << (f.precision - 1);  // exponent field 1
    const std::uint64_t infinity = static_cast<std::uint64_t>(ref::encode(format, f.max_finite)) + 1;
    std::vector<EncodingDomain::Range> ranges;
    for (const std::uint64_t s : {std::uint64_t{0}, sign}) {
        if (without_subnormals) {
            ranges.push_back({s, s + 1});  // the zero of this sign
            ranges.push_back({s + smallest_normal, s + infinity});
        } else {
            ranges.push_back({s, s + infinity});
        }
    }
    return EncodingDomain::ranges(std::move(ranges));
}

harness::HostTensor chunk_tensor(const std::string& dtype, const EncodingDomain& domain, const Chunk& chunk) {
    harness::HostTensor t = harness::HostTensor::zeros(abi_dtype(dtype), {static_cast<std::int64_t>(chunk.count)});
    const std::size_t width = harness::dtype_size(t.dtype);
    if (width != 2 && width != 4) throw std::invalid_argument("a sweep's inputs are f32, f16 or bf16, not " + dtype);
    if (width == 4) {  // little-endian words: the patterns straight into the tensor
        domain.fill(chunk.first, std::span(reinterpret_cast<std::uint32_t*>(t.bytes.data()), chunk.count));
        return t;
    }
    std::vector<std::uint32_t> patterns(chunk.count);
    domain.fill(chunk.first, patterns);
    std::byte* out = t.bytes.data();  // little-endian elements, as HostTensor stores them
    for (std::size_t i = 0; i < patterns.size(); ++i) {
        const auto narrow = static_cast<std::uint16_t>(patterns[i]);
        std::memcpy(out + 2 * i, &narrow, 2);
    }
    return t;
}

harness::Invocation chunk_invocation(const harness::Instance& instance, const EncodingDomain& domain,
                                     const Chunk& chunk) {
    std::vector<harness::HostTensor> inputs;  // not an initializer list, which would copy the tensor
    inputs.push_back(chunk_tensor(instance.config.inputs.at(0), domain, chunk));
    return invocation(instance, std::move(inputs), {static_cast<std::int64_t>(chunk.count)});
}

unsigned judge_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

spec::Json SweepTiming::record() const {
    spec::Json out = {{"wall_s", wall_s}, {"waiting_for_device_s", waiting_s}, {"judging_s", judging_s}};
    if (resumed_from) out["resumed_from_chunk"] = resumed_from;
    if (part)
        out["part"] = {{"index", part->index},
                       {"count", part->count},
                       {"chunks", {part->first_chunk, part->end_chunk}},
                       {"of", part->chunks},
                       {"chunk_elements", part->chunk_elements},
                       {"domain", part->domain},
                       {"adapter_calls", part->adapter_calls},
                       {"tally", part->tally}};
    if (folded_parts) out["folded_parts"] = folded_parts;
    return out;
}

namespace {

// A positive integer from the environment, or `fallback` when unset;
// std::invalid_argument naming the variable for anything else.
std::uint64_t positive_from_environment(const char* name, std::uint64_t fallback) {
    const char* text = std::getenv(name);
    if (!text || !*text) return fallback;
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (*end != '\0' || value == 0 || text[0] == '-')
        throw std::invalid_argument(std::string(name).append(" must be a positive integer, not '").append(text).append("'"));
    return value;
}

// Where a checkpointed sweep keeps its state, and the key that must match
// for a run to resume from it.
struct SweepState {
    std::filesystem::path file;
    spec::Json key;
};

std::optional<SweepState> sweep_state(const harness::ProbeContext& context, const EncodingDomain& domain,
                                      const ChunkPlan& plan) {
    const char* dir = std::getenv("KCS_SWEEP_STATE");
    if (!dir || !*dir) return std::nullopt;
    const auto& adapter = context.adapter();
    spec::Json key = {{"catalog", spec::catalog_digest(context.catalog())},
                      {"instance", context.instance().id},
                      {"seed", context.seed()},
                      {"adapter", adapter.path().string()},
                      {"adapter_options", adapter.options().adapter_options},
                      {"claims", context.claims().digest},
                      {"claims_values", context.claims().values},
                      {"domain", domain.size()},
                      {"chunk_elements", plan.chunk_elements()},
                      {"part", context.instance().sweep ? spec::Json{context.instance().sweep->index,
                                                                     context.instance().sweep->count}
                                                        : spec::Json()},
                      // The saved tally's layout: a state of an older layout is not resumed.
                      {"tally_layout", 2}};
    const std::string digest = hex(sha256(key.dump()));
    std::filesystem::create_directories(dir);
    return SweepState{std::filesystem::path(dir) / (digest.substr(0, 32) + ".json"), std::move(key)};
}

// The saved chunk to resume from (0: none, or another sweep's).
std::uint64_t restore(const SweepState& state, const SweepCheckpoint& checkpoint) {
    std::ifstream in(state.file);
    if (!in) return 0;
    const spec::Json saved = spec::Json::parse(in, nullptr, false);
    if (saved.is_discarded() || !saved.contains("key") || saved["key"] != state.key) return 0;
    checkpoint.restore(saved.at("tally"));
    return saved.at("next_chunk").get<std::uint64_t>();
}

// Written to a temporary file and renamed, so that an interruption leaves
// the previous state or the new one, never half of one.
void save(const SweepState& state, const SweepCheckpoint& checkpoint, std::uint64_t next_chunk) {
    const spec::Json saved = {{"key", state.key}, {"next_chunk", next_chunk}, {"tally", checkpoint.save()}};
    const auto temporary = std::filesystem::path(state.file).concat(".tmp");
    {
        std::ofstream out(temporary, std::ios::trunc);
        out << saved.dump();
        if (!out.flush()) throw std::runtime_error("cannot write the sweep state " + temporary.string());
    }
    std::filesystem::rename(temporary, state.file);
}

// The chunks [first, end) of part `index` of `count` of a sweep of `chunks`.
std::pair<std::uint64_t, std::uint64_t> part_chunks(std::uint64_t index, std::uint64_t count, std::uint64_t chunks) {
    return {index * chunks / count, (index + 1) * chunks / count};
}

// Joins the parts' tallies in chunk order into the checkpoint's total, after
// checking that they are the parts of this sweep: each part once, in order,
// cut from as many chunks as this sweep has.
void fold_parts(harness::ProbeContext& context, const ChunkPlan& plan, const harness::Instance::SweepSplit& split,
                const SweepCheckpoint& checkpoint) {
    if (split.fold.size() != split.count)
        throw std::invalid_argument("a sweep cut in " + std::to_string(split.count) + " parts folds as many, not " +
                                    std::to_string(split.fold.size()));
    for (std::uint64_t i = 0; i < split.count; ++i) {
        const spec::Json& part = split.fold[i];
        const auto [first, end] = part_chunks(i, split.count, plan.chunks());
        const spec::Json expected_chunks = {first, end};
        if (part.value("index", spec::Json()) != i || part.value("count", spec::Json()) != split.count ||
            part.value("of", spec::Json()) != plan.chunks() || part.value("chunks", spec::Json()) != expected_chunks ||
            part.value("domain", spec::Json()) != plan.size())
            throw std::invalid_argument("part " + std::to_string(i) + " of " + std::to_string(split.count) +
                                        " to fold is not that part of this sweep of " + std::to_string(plan.size()) +
                                        " inputs in " + std::to_string(plan.chunks()) + " chunks: chunks " +
                                        part.value("chunks", spec::Json()).dump() + " of " +
                                        part.value("of", spec::Json()).dump() + ", " +
                                        part.value("domain", spec::Json()).dump() + " inputs");
        if (part.value("chunk_elements", spec::Json()) != plan.chunk_elements())
            throw std::invalid_argument("part " + std::to_string(i) + " was cut in chunks of " +
                                        part.value("chunk_elements", spec::Json()).dump() + " inputs, this fold in " +
                                        std::to_string(plan.chunk_elements()) +
                                        ": fold with the KCS_SWEEP_CHUNK_ELEMENTS the parts ran with");
        if (i == 0) checkpoint.restore(part.at("tally"));
        else checkpoint.merge(part.at("tally"));
        context.count_calls_made_elsewhere(part.at("adapter_calls").get<std::uint64_t>());
    }
}

// A chunk that ran: its call (inputs[0] holds the chunk's encodings) and
// the outputs read back, or what the run threw.
struct Ran {
    harness::Invocation call;
    std::vector<harness::HostTensor> outputs;
    std::exception_ptr error;
};

// Runs a sweep's chunks in order on a thread of its own, ahead of the
// judging, while the chunks that ran and are not yet judged hold fewer than
// two full chunks' elements. So the device runs the next large chunk while
// the judge works on the last one, even where small chunks come between
// them (a sweep's call lengths cycle), and memory stays bounded by about
// three chunks. The runs themselves stay one at a time, in chunk order.
class ChunkRunner {
public:
    ChunkRunner(std::function<Ran(std::uint64_t)> run, const ChunkPlan& plan, std::uint64_t first, std::uint64_t stop)
        : run_(std::move(run)), plan_(plan), thread_([this, first, stop] { loop(first, stop); }) {}

    // Stops after the run in flight (which uses the probe's context).
    ~ChunkRunner() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        changed_.notify_all();
        thread_.join();
    }
    ChunkRunner(const ChunkRunner&) = delete;
    ChunkRunner& operator=(const ChunkRunner&) = delete;

    // The next chunk in order, once it has run; rethrows what its run threw.
    Ran next() {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return !ready_.empty(); });
        Ran ran = std::move(ready_.front());
        ready_.pop_front();
        if (ran.error) std::rethrow_exception(ran.error);
        return ran;
    }

    // The judge is done with a chunk of `elements`: its memory may go to the next run.
    void judged(std::uint64_t elements) {
        {
            std::lock_guard lock(mutex_);
            held_ -= elements;
        }
        changed_.notify_all();
    }

private:
    void loop(std::uint64_t first, std::uint64_t stop) {
        const std::uint64_t limit = 2 * plan_.chunk_elements();
        for (std::uint64_t c = first; c < stop; ++c) {
            const std::uint64_t elements = plan_.chunk(c).count;
            {
                std::unique_lock lock(mutex_);
                changed_.wait(lock, [&] { return stopping_ || held_ < limit; });
                if (stopping_) return;
                held_ += elements;
            }
            Ran ran;
            try {
                ran = run_(c);
            } catch (...) {
                ran.error = std::current_exception();
            }
            const bool failed = ran.error != nullptr;
            {
                std::lock_guard lock(mutex_);
                ready_.push_back(std::move(ran));
            }
            changed_.notify_all();
            if (failed) return;
        }
    }

    std::function<Ran(std::uint64_t)> run_;
    const ChunkPlan& plan_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Ran> ready_;
    std::uint64_t held_ = 0;  // elements of the chunks run or running and not yet judged
    bool stopping_ = false;
    std::thread thread_;  // last: it starts once the members above exist
};

}  // namespace

std::uint64_t chunk_elements_from_environment() {
    return positive_from_environment("KCS_SWEEP_CHUNK_ELEMENTS", kDefaultChunkElements);
}

harness::CaseResult paused_sweep_result(std::uint64_t next_chunk, std::uint64_t chunks) {
    return harness::verdict_only(harness::Verdict::error,
                                 "sweep paused after chunk " + std::to_string(next_chunk) + " of " +
                                     std::to_string(chunks) +
                                     " (KCS_SWEEP_CHUNK_BUDGET); its state is saved in KCS_SWEEP_STATE: run the "
                                     "same case again to resume");
}

SweepTiming run_sweep(harness::ProbeContext& context, const EncodingDomain& domain, const ChunkPlan& plan,
                      const std::string& label, const ChunkJudge& judge, const SweepCheckpoint* checkpoint) {
    using Clock = std::chrono::steady_clock;
    const auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
    const auto start = Clock::now();
    SweepTiming timing;
    const auto& instance = context.instance();
    // A part of a split sweep runs its own chunks; folding runs none.
    const auto& split = instance.sweep;
    if (split) {
        if (!checkpoint || !checkpoint->merge)
            throw std::invalid_argument("the sweep of " + instance.id + " keeps no tally that parts could join: it is not split");
        if (split->count == 0 || split->index >= split->count)
            throw std::invalid_argument("part " + std::to_string(split->index) + " of " + std::to_string(split->count) +
                                        " of a sweep: the index must be below the count");
        if (!split->fold.empty()) {
            fold_parts(context, plan, *split, *checkpoint);
            timing.folded_parts = split->count;
            return timing;
        }
    }
    const auto [begin, end] = split ? part_chunks(split->index, split->count, plan.chunks())
                                    : std::pair<std::uint64_t, std::uint64_t>{0, plan.chunks()};
    if (split && begin == end)
        throw harness::CaseStop{harness::verdict_only(
            harness::Verdict::error, "part " + std::to_string(split->index) + " of " + std::to_string(split->count) +
                                         " of this sweep holds none of its " + std::to_string(plan.chunks()) +
                                         " chunks: a sweep is cut in at most as many parts as it has chunks")};
    const auto part_done = [&] {
        if (split)
            timing.part = SweepPartRecord{split->index,          split->count, begin,
                                          end,                   plan.chunks(), plan.chunk_elements(),
                                          plan.size(),           context.adapter_calls(), checkpoint->save()};
    };
    const auto run_chunk = [&](std::uint64_t c) {
        Ran ran{chunk_invocation(instance, domain, plan.chunk(c)), {}, {}};
        ran.outputs = context.run(ran.call);
        return ran;
    };
    const std::optional<SweepState> state =
        checkpoint ? sweep_state(context, domain, plan) : std::optional<SweepState>{};
    const std::uint64_t budget = positive_from_environment("KCS_SWEEP_CHUNK_BUDGET", UINT64_MAX);
    if (budget != UINT64_MAX && !state)
        throw std::invalid_argument("KCS_SWEEP_CHUNK_BUDGET needs KCS_SWEEP_STATE, where the paused sweep's state goes");
    const std::uint64_t first_chunk = std::max(begin, state ? restore(*state, *checkpoint) : 0);
    timing.resumed_from = first_chunk > begin ? first_chunk : 0;
    const std::uint64_t stop = first_chunk + std::min(budget, end - std::min(first_chunk, end));
    context.progress(label, first_chunk < plan.chunks() ? plan.chunk(first_chunk).first : plan.size(), plan.size());
    if (first_chunk >= end) {
        if (state) std::filesystem::remove(state->file);
        part_done();
        return timing;
    }
    {
        ChunkRunner runner(run_chunk, plan, first_chunk, stop);  // its destructor waits for the run in flight
        for (std::uint64_t c = first_chunk; c < stop; ++c) {
            const auto waiting = Clock::now();
            Ran ran = runner.next();  // rethrows what the run threw
            const auto judging = Clock::now();
            timing.waiting_s += seconds(judging - waiting);
            const Chunk chunk = plan.chunk(c);
            judge(chunk, ran.call, ran.outputs);
            timing.judging_s += seconds(Clock::now() - judging);
            ran = {};
            runner.judged(chunk.count);
            if (state) save(*state, *checkpoint, c + 1);
            context.progress(label, chunk.first + chunk.count, plan.size());
        }
    }
    if (stop < end) throw harness::CaseStop{paused_sweep_result(stop, plan.chunks())};
    if (state) std::filesystem::remove(state->file);
    timing.wall_s = seconds(Clock::now() - start);
    part_done();
    return timing;
}

std::string sweep_label(const harness::Instance& instance) {
    std::string label = instance.contract->id;
    label.append(" ").append(instance.op->id);
    if (instance.function) label.append(".").append(*instance.function);
    label.append(" ").append(instance.config.id());
    return label;
}

}  // namespace kcs::suites::sweep
