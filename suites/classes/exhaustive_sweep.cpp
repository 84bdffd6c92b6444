#include "exhaustive_sweep.hpp"

#include <bit>
#include <chrono>
#include <stdexcept>

#include "kcs/suites/operator_io.hpp"

namespace kcs::suites::sweep {

static_assert(std::endian::native == std::endian::little, "HostTensor stores little-endian elements");

ChunkPlan::ChunkPlan(std::uint64_t size, std::uint64_t chunk_elements)
    : size_(size), chunk_elements_(chunk_elements), chunks_(0) {
    if (chunk_elements == 0) throw std::invalid_argument("a sweep's chunks need at least one element");
    chunks_ = size / chunk_elements + (size % chunk_elements != 0 ? 1 : 0);
}

Chunk ChunkPlan::chunk(std::uint64_t index) const {
    if (index >= chunks_)
        throw std::out_of_range("sweep chunk " + std::to_string(index) + " of " + std::to_string(chunks_));
    const std::uint64_t first = index * chunk_elements_;
    return {index, first, std::min(chunk_elements_, size_ - first)};
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
    return {{"wall_s", wall_s}, {"waiting_for_device_s", waiting_s}, {"judging_s", judging_s}};
}

SweepTiming run_sweep(harness::ProbeContext& context, const EncodingDomain& domain, const ChunkPlan& plan,
                      const std::string& label, const ChunkJudge& judge) {
    using Clock = std::chrono::steady_clock;
    const auto seconds = [](Clock::duration d) { return std::chrono::duration<double>(d).count(); };
    const auto start = Clock::now();
    SweepTiming timing;
    struct Ran {
        harness::Invocation call;
        std::vector<harness::HostTensor> outputs;
    };
    const auto& instance = context.instance();
    const auto launch = [&](std::uint64_t c) {
        return std::async(std::launch::async, [&, c] {
            Ran ran{chunk_invocation(instance, domain, plan.chunk(c)), {}};
            ran.outputs = context.run(ran.call);
            return ran;
        });
    };
    context.progress(label, 0, plan.size());
    if (plan.chunks() == 0) return timing;
    std::future<Ran> next = launch(0);
    for (std::uint64_t c = 0; c < plan.chunks(); ++c) {
        const auto waiting = Clock::now();
        Ran ran = next.get();  // rethrows what the run threw
        const auto judging = Clock::now();
        timing.waiting_s += seconds(judging - waiting);
        if (c + 1 < plan.chunks()) next = launch(c + 1);
        const Chunk chunk = plan.chunk(c);
        try {
            judge(chunk, ran.call, ran.outputs);
            timing.judging_s += seconds(Clock::now() - judging);
        } catch (...) {
            if (next.valid()) next.wait();  // the run in flight uses the context: let it finish
            throw;
        }
        context.progress(label, chunk.first + chunk.count, plan.size());
    }
    timing.wall_s = seconds(Clock::now() - start);
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
