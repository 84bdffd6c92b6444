// GuardedDevice: the integrity protocol of SPEC.md section 7 around every
// run. Each tensor position (inputs then outputs) owns one adapter buffer
// laid out as guard zone, tensor, guard zone; per run the harness writes
// canaries with the inputs or the poisoned outputs, runs the operator,
// reads every buffer back whole and checks it against what it wrote.
#include "kcs/harness/guarded_device.hpp"


#include <algorithm>
#include <array>
#include <bit>
#include <cstdio>
#include <cstring>
#include <span>
#include <stdexcept>
#include <utility>

#include "guarded_protocol.hpp"
#include "kcs/reference/philox.hpp"

namespace kcs::harness {

// ---- the protocol's pieces ---------------------------------------------------

namespace guarded {

namespace {

std::string hex_byte(std::byte b) {
    char text[5];
    std::snprintf(text, sizeof text, "0x%02x", std::to_integer<unsigned>(b));
    return text;
}

std::string hex_bits(std::uint64_t bits, std::size_t bytes) {
    char text[19];
    std::snprintf(text, sizeof text, "0x%0*llx", static_cast<int>(2 * bytes), static_cast<unsigned long long>(bits));
    return text;
}

// A byte's position relative to the tensor it guards: "start-12" in the
// leading zone (12 bytes before the tensor's first byte), "end+0" in the
// trailing one (the first byte past the tensor's last).
std::string edge_position(const BufferLayout& layout, std::uint64_t buffer_offset) {
    if (buffer_offset < layout.tensor_offset())
        return "start-" + std::to_string(layout.tensor_offset() - buffer_offset);
    return "end+" + std::to_string(buffer_offset - layout.after_offset());
}

struct ZoneRange {
    bool after = false;
    std::uint64_t offset = 0;
    std::uint64_t size = 0;
};

std::vector<Breach> check_zone(const TensorImages& tensor, const ZoneRange& zone) {
    if (std::memcmp(tensor.written.data() + zone.offset, tensor.read_back.data() + zone.offset, zone.size) == 0)
        return {};
    std::uint64_t changed = 0, first = 0, last = 0;
    for (std::uint64_t i = zone.offset; i < zone.offset + zone.size; ++i) {
        if (tensor.written[i] == tensor.read_back[i]) continue;
        if (changed++ == 0) first = i;
        last = i;
    }
    if (changed == 0) return {};
    const auto describe = [&](std::uint64_t i) {
        return edge_position(tensor.layout, i) + " (" + hex_byte(tensor.written[i]) + " -> " +
               hex_byte(tensor.read_back[i]) + ")";
    };
    const std::uint32_t index = zone.after ? zone_after(tensor.position) : zone_before(tensor.position);
    return {Breach{std::string(kCanaryChanged),
                   tensor.name + ": " + std::to_string(changed) + " of " + std::to_string(zone.size) +
                       " canary bytes changed in zone " + std::to_string(index) +
                       (zone.after ? " after" : " before") + " the tensor, first at " + describe(first) +
                       ", last at " + describe(last)}};
}

std::span<const std::byte> tensor_part(const TensorImages& tensor, std::span<const std::byte> image) {
    return image.subspan(tensor.layout.tensor_offset(), tensor.layout.tensor_bytes);
}

}  // namespace

BufferLayout layout_for(std::uint64_t tensor_bytes, const TensorPlacement& placement, std::uint64_t element_bytes) {
    constexpr std::uint64_t kPage = 4096;
    std::uint64_t lead = kGuardBytes;
    if (const std::uint64_t a = placement.alignment_offset) {
        const std::uint64_t offset = std::max(a, element_bytes) % kPage;
        lead = kPage + offset;
    }
    const std::uint64_t end = lead + tensor_bytes;
    const std::uint64_t padded = (end + kTensorAlignment - 1) / kTensorAlignment * kTensorAlignment;
    return {tensor_bytes, kGuardBytes + (padded - end), lead};
}

void fill_canary(std::span<std::byte> zone, std::uint64_t seed, std::uint32_t zone_index) {
    for (std::uint64_t block = 0; 16 * block < zone.size(); ++block) {
        const ref::PhiloxBlock words = ref::philox_block(seed, zone_index, ref::kCanaryStream, block);
        const std::size_t start = static_cast<std::size_t>(16 * block);
        const std::size_t count = std::min<std::size_t>(16, zone.size() - start);
        for (std::size_t i = 0; i < count; ++i)
            zone[start + i] = static_cast<std::byte>(words[i / 4] >> (8 * (i % 4)));
    }
}

void fill_poison(std::span<std::byte> tensor, kcs_dtype dtype, PoisonPattern pattern) {
    const std::size_t size = dtype_size(dtype);
    const std::uint64_t poison = poison_bits(dtype, pattern);
    std::array<std::byte, 8> element{};
    for (std::size_t i = 0; i < size; ++i) element[i] = static_cast<std::byte>(poison >> (8 * i));
    // One element (or the part of one that fits), then the filled prefix
    // copied onto the rest, doubling: a few large copies, not one per element.
    if (tensor.empty()) return;  // memcpy may not be given an empty span's null pointer
    const std::size_t first = std::min(size, tensor.size());
    std::memcpy(tensor.data(), element.data(), first);
    for (std::size_t filled = first; filled < tensor.size();) {
        const std::size_t count = std::min(filled, tensor.size() - filled);  // whole elements: filled is a multiple of size
        std::memcpy(tensor.data() + filled, tensor.data(), count);
        filled += count;
    }
}

std::string tensor_name(bool is_input, std::size_t index, kcs_dtype dtype, const std::vector<std::int64_t>& shape) {
    std::string text = (is_input ? "input " : "output ") + std::to_string(index) + " (" + dtype_name(dtype) + " [";
    for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "])";
}

std::vector<Breach> check_canaries(const TensorImages& tensor) {
    std::vector<Breach> breaches = check_zone(tensor, {false, 0, tensor.layout.lead_bytes});
    for (auto& b : check_zone(tensor, {true, tensor.layout.after_offset(), tensor.layout.after_bytes}))
        breaches.push_back(std::move(b));
    return breaches;
}

std::vector<Breach> check_input(const TensorImages& tensor) {
    const auto written = tensor_part(tensor, tensor.written);
    const auto read_back = tensor_part(tensor, tensor.read_back);
    if (std::memcmp(written.data(), read_back.data(), written.size()) == 0) return {};
    std::uint64_t changed = 0, first = 0;
    for (std::uint64_t i = 0; i < written.size(); ++i)
        if (written[i] != read_back[i] && changed++ == 0) first = i;
    return {Breach{std::string(kInputModified),
                   tensor.name + ": SHA-256 " + hex(sha256(written)) + " when written, " + hex(sha256(read_back)) +
                       " after the run; " + std::to_string(changed) + " bytes differ, the first at byte " +
                       std::to_string(first) + " (element " + std::to_string(first / dtype_size(tensor.dtype)) +
                       ")"}};
}

namespace {

// How many of the whole elements of `bytes` equal `pattern` (an element's
// bits, little-endian as the dtypes are), and the index of the first. The
// element type is what lets the compiler compare many elements per
// instruction: a memcmp per element costs a call per element.
template <class Element>
std::pair<std::size_t, std::size_t> count_equal(std::span<const std::byte> bytes, std::uint64_t pattern) {
    const auto want = static_cast<Element>(pattern);
    const std::size_t elements = bytes.size() / sizeof(Element);
    const std::byte* data = bytes.data();
    std::size_t count = 0;
    for (std::size_t i = 0; i < elements; ++i) {
        Element e;
        std::memcpy(&e, data + i * sizeof(Element), sizeof(Element));
        count += e == want;
    }
    if (count == 0) return {0, 0};
    for (std::size_t i = 0;; ++i) {  // only a breach pays for finding the first
        Element e;
        std::memcpy(&e, data + i * sizeof(Element), sizeof(Element));
        if (e == want) return {count, i};
    }
}

// How many elements hold `pattern`, and the first of them.
std::pair<std::size_t, std::size_t> count_pattern(std::span<const std::byte> tensor, kcs_dtype dtype,
                                                  std::uint64_t pattern) {
    static_assert(std::endian::native == std::endian::little, "elements are compared as native integers");
    switch (dtype_size(dtype)) {
        case 1: return count_equal<std::uint8_t>(tensor, pattern);
        case 2: return count_equal<std::uint16_t>(tensor, pattern);
        case 4: return count_equal<std::uint32_t>(tensor, pattern);
        default: return count_equal<std::uint64_t>(tensor, pattern);
    }
}

std::uint64_t element_bits(std::span<const std::byte> tensor, std::size_t i, std::size_t size) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, tensor.data() + i * size, size);
    return bits;
}

// A NaN of a float dtype: all exponent bits set, a nonzero significand.
bool is_nan_bits(std::uint64_t bits, kcs_dtype dtype) {
    switch (dtype) {
        case KCS_DTYPE_F32: return (bits & 0x7F800000u) == 0x7F800000u && (bits & 0x007FFFFFu) != 0;
        case KCS_DTYPE_F16: return (bits & 0x7C00u) == 0x7C00u && (bits & 0x03FFu) != 0;
        case KCS_DTYPE_BF16: return (bits & 0x7F80u) == 0x7F80u && (bits & 0x007Fu) != 0;
        case KCS_DTYPE_F64:
            return (bits & 0x7FF0000000000000u) == 0x7FF0000000000000u && (bits & 0x000FFFFFFFFFFFFFu) != 0;
        default: return false;
    }
}

}  // namespace

std::vector<Breach> check_poison(const TensorImages& tensor) {
    const auto read_back = tensor_part(tensor, tensor.read_back);
    const std::size_t size = dtype_size(tensor.dtype);
    const std::uint64_t poison = poison_bits(tensor.dtype);
    const auto left = count_pattern(read_back, tensor.dtype, poison);
    if (left.first == 0) return {};
    return {Breach{std::string(kStaleOrPoisonLeft),
                   tensor.name + ": " + std::to_string(left.first) + " of " + std::to_string(read_back.size() / size) +
                       " elements still hold the poison pattern " + hex_bits(poison, size) + ", the first at element " +
                       std::to_string(left.second)}};
}

std::vector<std::size_t> poisoned_elements(std::span<const std::byte> tensor, kcs_dtype dtype, PoisonPattern pattern) {
    const std::size_t size = dtype_size(dtype);
    const std::uint64_t poison = poison_bits(dtype, pattern);
    const auto [count, first] = count_pattern(tensor, dtype, poison);  // the common case, none, stays vectorised
    std::vector<std::size_t> out;
    if (count == 0) return out;
    out.reserve(count);
    for (std::size_t i = first; (i + 1) * size <= tensor.size(); ++i)
        if (element_bits(tensor, i, size) == poison) out.push_back(i);
    return out;
}

std::vector<Breach> check_rerun(const std::string& name, kcs_dtype dtype, const std::vector<std::size_t>& suspects,
                                std::span<const std::byte> first, std::span<const std::byte> second) {
    const std::size_t size = dtype_size(dtype);
    const std::uint64_t second_poison = poison_bits(dtype, PoisonPattern::second);
    std::size_t both = 0, changed = 0;
    std::optional<std::size_t> first_unwritten, first_changed;
    std::uint64_t changed_to = 0;
    for (const std::size_t i : suspects) {
        const std::uint64_t a = element_bits(first, i, size), b = element_bits(second, i, size);
        if (a == b || (is_nan_bits(a, dtype) && is_nan_bits(b, dtype) && b != second_poison)) continue;  // written
        if (!first_unwritten) first_unwritten = i;
        if (b == second_poison) {
            ++both;
        } else if (changed++ == 0) {
            first_changed = i;
            changed_to = b;
        }
    }
    if (!first_unwritten) return {};
    const std::size_t elements = first.size() / size;
    std::string detail = name + ": " + std::to_string(both + changed) + " of " + std::to_string(elements) +
                         " elements still hold the poison pattern " + hex_bits(poison_bits(dtype), size) +
                         ", the first at element " + std::to_string(*first_unwritten) + "; run again poisoned with " +
                         hex_bits(second_poison, size) + ", ";
    if (changed == 0) detail += "they held that pattern instead";
    else
        detail += std::to_string(changed) + " of them gave another value (element " + std::to_string(*first_changed) +
                  ": " + hex_bits(changed_to, size) + "), so the first run left them unwritten";
    return {Breach{std::string(kStaleOrPoisonLeft), detail}};
}

std::vector<Breach> check_run(std::span<const TensorImages> tensors) {
    std::vector<Breach> breaches;
    const auto add = [&](std::vector<Breach> found) {
        for (auto& b : found) breaches.push_back(std::move(b));
    };
    for (const TensorImages& tensor : tensors) {
        add(check_canaries(tensor));
        if (tensor.is_input) add(check_input(tensor));
    }
    return breaches;
}

}  // namespace guarded

// ---- the device --------------------------------------------------------------

// One tensor position's buffers, each with its host images, one per size
// the position held: a run reuses the buffer of its size (rule 4's reuse),
// so the call lengths a sweep cycles through, or the shapes a case
// alternates, are allocated and their images prepared once. The most
// recently used last. Besides the one in use, at most kSizesKept sizes of
// kBytesKept bytes in all are kept (the images hold twice that on the
// host); the least recently used are given back first.
struct GuardedDevice::Slot {
    static constexpr std::size_t kSizesKept = 7;
    static constexpr std::uint64_t kBytesKept = std::uint64_t{32} << 20;
    std::vector<guarded::SlotState> sizes;
};

namespace {

using guarded::SlotState;

// One tensor position of an invocation, as the harness places it.
struct TensorSpec {
    std::string name;
    bool is_input = false;
    kcs_dtype dtype = KCS_DTYPE_F32;
    const std::vector<std::int64_t>* shape = nullptr;
    const HostTensor* input = nullptr;  // outputs: none
    guarded::BufferLayout layout;
};

// Whether the inputs must hold their bytes: a run needs them; supports()
// decides from dtypes and shapes, so the support phase declares none.
enum class Bytes { required, optional };

TensorSpec input_spec(const HostTensor& input, std::size_t index, const TensorPlacement& placement, Bytes bytes) {
    TensorSpec spec{guarded::tensor_name(true, index, input.dtype, input.shape), true, input.dtype, &input.shape,
                    &input, {}};
    const std::uint64_t expected = input.elements() * dtype_size(input.dtype);
    if (input.bytes.size() != expected && !(bytes == Bytes::optional && input.bytes.empty()))
        throw std::invalid_argument(spec.name + " holds " + std::to_string(input.bytes.size()) +
                                    " bytes; its dtype and shape need " + std::to_string(expected));
    spec.layout = guarded::layout_for(expected, placement, dtype_size(input.dtype));
    return spec;
}

TensorSpec output_spec(const OutputSpec& output, std::size_t index, const TensorPlacement& placement) {
    TensorSpec spec{guarded::tensor_name(false, index, output.dtype, output.shape), false, output.dtype,
                    &output.shape, nullptr, {}};
    spec.layout =
        guarded::layout_for(element_count(output.shape) * dtype_size(output.dtype), placement, dtype_size(output.dtype));
    return spec;
}

// Every tensor position, inputs then outputs; throws std::invalid_argument
// for an input whose bytes do not fit its dtype and shape, or a bad dtype.
std::vector<TensorSpec> describe_tensors(const Invocation& invocation, const TensorPlacement& placement = {},
                                         Bytes bytes = Bytes::required) {
    std::vector<TensorSpec> tensors;
    for (std::size_t i = 0; i < invocation.inputs.size(); ++i)
        tensors.push_back(input_spec(invocation.inputs[i], i, placement, bytes));
    for (std::size_t i = 0; i < invocation.outputs.size(); ++i)
        tensors.push_back(output_spec(invocation.outputs[i], i, placement));
    return tensors;
}

// Runs one adapter call and adds the time it took to `total`.
template <class Call>
auto timed(std::chrono::nanoseconds& total, Call&& call) {
    const auto start = std::chrono::steady_clock::now();
    auto result = call();
    total += std::chrono::steady_clock::now() - start;
    return result;
}

host::CallResult in_context(host::CallResult result, const std::string& what) {
    result.message = what + ": " + result.message;
    return result;
}

// A buffer is usable while the worker that allocated it still runs.
bool is_live(const SlotState& slot, const host::IsolatedAdapter& adapter) {
    return slot.buffer.id != 0 && adapter.worker_pid().has_value() && slot.buffer.generation == adapter.generation();
}

// Releases the slot's buffer if it still exists; a handle of a lost worker
// is simply dropped (its memory went with the worker).
void release_buffer(host::IsolatedAdapter& adapter, SlotState& slot, std::chrono::nanoseconds& time) {
    if (is_live(slot, adapter)) timed(time, [&] { return adapter.release(slot.buffer); });
    slot.buffer = {};
}

// A position's images outlive it: the next instance's runs reuse them
// (IsolatedAdapter::reused_shared), so its first run faults in no page.
void keep_images(host::IsolatedAdapter& adapter, SlotState& slot) {
    adapter.keep_shared(std::move(slot.written));
    adapter.keep_shared(std::move(slot.read_back));
    slot.prepared.reset();
}

// Rule 4: the same buffer for the same size, so a result left in it from an
// earlier run shows; a new buffer when the worker changed.
std::optional<host::CallResult> ensure_buffer(host::IsolatedAdapter& adapter, SlotState& slot, const TensorSpec& spec,
                                              std::chrono::nanoseconds& time) {
    if (is_live(slot, adapter)) {
        slot.layout = spec.layout;
        return std::nullopt;
    }
    const std::uint64_t bytes = spec.layout.total_bytes();
    release_buffer(adapter, slot, time);
    auto allocated = timed(time, [&] { return adapter.alloc(bytes); });
    if (!allocated.ok())
        return in_context(allocated.result, "alloc of " + std::to_string(bytes) + " bytes for " + spec.name);
    slot.buffer = allocated.value;
    slot.layout = spec.layout;
    return std::nullopt;
}

// A position's buffer of `bytes` (with its images), made the most recently
// used; a new one when none is kept, after giving back the least recently
// used beyond the position's bounds (GuardedDevice::Slot).
template <class Slot>
SlotState& state_of_size(host::IsolatedAdapter& adapter, Slot& slot, std::uint64_t bytes,
                         std::chrono::nanoseconds& time) {
    auto& sizes = slot.sizes;
    const auto kept = std::ranges::find_if(sizes, [&](const SlotState& s) { return s.layout.total_bytes() == bytes; });
    if (kept != sizes.end()) {
        std::rotate(kept, kept + 1, sizes.end());
        return sizes.back();
    }
    const auto kept_bytes = [&] {
        std::uint64_t sum = 0;
        for (const SlotState& s : sizes) sum += s.layout.total_bytes();
        return sum;
    };
    while (!sizes.empty() && (sizes.size() > Slot::kSizesKept || kept_bytes() > Slot::kBytesKept)) {
        release_buffer(adapter, sizes.front(), time);
        keep_images(adapter, sizes.front());
        sizes.erase(sizes.begin());
    }
    return sizes.emplace_back();
}

// The host images of the buffer, in regions shared with the worker: grown
// when the buffer outgrows them, reused otherwise. The written image holds
// canaries around the input or around the poisoned output; it is rebuilt
// only when its layout, seed or dtype changed (an output's image is then
// identical and is still written to the device every run: rule 2). An
// input's bytes are copied in every run.
void prepare_image(host::IsolatedAdapter& adapter, SlotState& slot, const TensorSpec& spec, std::size_t position,
                   std::uint64_t seed, PoisonPattern poison) {
    const auto& layout = slot.layout;
    if (slot.written.size() < layout.total_bytes()) {
        adapter.keep_shared(std::exchange(
            slot.written, adapter.reused_shared(layout.total_bytes(), host::WorkerAccess::read_only)));
        slot.prepared.reset();
    }
    if (slot.read_back.size() < layout.total_bytes())
        adapter.keep_shared(std::exchange(
            slot.read_back, adapter.reused_shared(layout.total_bytes(), host::WorkerAccess::read_write)));
    const std::span<std::byte> image = slot.written_image();
    const auto tensor = image.subspan(layout.tensor_offset(), layout.tensor_bytes);
    const SlotState::Prepared want{layout, seed, spec.dtype, spec.input != nullptr, spec.input ? PoisonPattern::first : poison};
    if (slot.prepared != want) {
        guarded::fill_canary(image.first(layout.tensor_offset()), seed, guarded::zone_before(position));
        if (!spec.input) guarded::fill_poison(tensor, spec.dtype, poison);
        guarded::fill_canary(image.subspan(layout.after_offset()), seed, guarded::zone_after(position));
        slot.prepared = want;
    }
    if (spec.input) std::memcpy(tensor.data(), spec.input->bytes.data(), tensor.size());
}

guarded::TensorImages images_of(const SlotState& slot, const TensorSpec& spec, std::size_t position) {
    return {spec.name, spec.is_input, spec.dtype, position, slot.layout, slot.written_image(),
            slot.read_back_image()};
}

HostTensor output_of(const SlotState& slot, const TensorSpec& spec) {
    HostTensor out;
    out.dtype = spec.dtype;
    out.shape = *spec.shape;
    const auto tensor = slot.read_back_image().subspan(slot.layout.tensor_offset(), slot.layout.tensor_bytes);
    out.bytes.assign(tensor.begin(), tensor.end());
    return out;
}

// The operation the adapter sees; `buffers` empty: for supports(), no data.
host::Operation operation_of(const Invocation& invocation, const std::vector<TensorSpec>& tensors,
                             const std::vector<host::BufferHandle>& buffers) {
    host::Operation op{invocation.op, invocation.function, invocation.accumulate, invocation.attributes, {}, {}};
    for (std::size_t p = 0; p < tensors.size(); ++p) {
        const TensorSpec& spec = tensors[p];
        host::Tensor tensor{buffers.empty() ? host::BufferHandle{} : buffers[p],
                            buffers.empty() ? 0 : spec.layout.tensor_offset(), spec.dtype, *spec.shape, {}};
        (spec.is_input ? op.inputs : op.outputs).push_back(std::move(tensor));
    }
    return op;
}

GuardedRun failed_at(GuardedRun run, GuardedStep step, host::CallResult call) {
    run.step = step;
    run.call = std::move(call);
    return run;
}

// Writes every image (inputs, poisoned outputs, canaries), runs the
// operator and reads every buffer back, in one trip through the worker
// (the images lie in shared regions). False when a call failed (`out` says
// which) or the worker or device was lost with the buffers.
bool exchange(host::IsolatedAdapter& adapter, std::span<SlotState* const> slots, std::uint64_t seed,
              const std::vector<TensorSpec>& tensors,
              const Invocation& invocation, PoisonPattern poison, GuardedRun& out) {
    // Fresh canaries, inputs and poison in every run, reused buffer or not.
    std::vector<host::TripWrite> writes;
    std::vector<host::TripRead> reads;
    std::vector<host::BufferHandle> buffers;
    for (std::size_t p = 0; p < tensors.size(); ++p) {
        SlotState& slot = *slots[p];
        prepare_image(adapter, slot, tensors[p], p, seed, poison);
        writes.push_back({slot.buffer, 0, slot.written_image()});
        reads.push_back({slot.buffer, 0, slot.read_back_image()});
        buffers.push_back(slot.buffer);
    }
    const host::Operation op = operation_of(invocation, tensors, buffers);
    const host::TripResult trip = timed(out.adapter_time, [&] { return adapter.write_run_read(writes, op, reads); });
    using Stage = host::TripResult::Stage;
    if (trip.stopped && trip.stopped->stage == Stage::write) {
        const auto& name = tensors[trip.stopped->index].name;
        out = failed_at(std::move(out), GuardedStep::write, in_context(trip.stopped->result, "write " + name));
        return false;
    }
    out.step = GuardedStep::run;
    out.call = trip.run;
    if (trip.stopped && trip.stopped->stage == Stage::read) {
        const auto& name = tensors[trip.stopped->index].name;
        out = failed_at(std::move(out), GuardedStep::read_back, in_context(trip.stopped->result, "read back " + name));
        return false;
    }
    // A lost worker (or KCS_DEVICE_LOST, after which the worker is closed)
    // took the buffers with it: nothing is left to read or to judge.
    if (std::ranges::any_of(slots, [&](const SlotState* slot) { return !is_live(*slot, adapter); })) {
        for (SlotState* slot : slots) slot->buffer = {};
        return false;
    }
    return true;
}

std::vector<guarded::TensorImages> images(std::span<SlotState* const> slots, const std::vector<TensorSpec>& tensors) {
    std::vector<guarded::TensorImages> out;
    for (std::size_t p = 0; p < tensors.size(); ++p) out.push_back(images_of(*slots[p], tensors[p], p));
    return out;
}

}  // namespace

GuardedDevice::GuardedDevice(host::IsolatedAdapter& adapter, std::uint64_t seed) : adapter_(adapter), seed_(seed) {}

GuardedDevice::GuardedDevice(GuardedDevice&& other) noexcept
    : adapter_(other.adapter_), seed_(other.seed_), slots_(std::move(other.slots_)) {
    other.slots_.clear();
}

GuardedDevice::~GuardedDevice() {
    std::chrono::nanoseconds unused{0};
    for (Slot& slot : slots_)
        for (SlotState& state : slot.sizes) {
            try {
                release_buffer(adapter_, state, unused);
                keep_images(adapter_, state);
            } catch (...) {
                // A destructor must not throw; the worker frees the buffer when it ends.
            }
        }
}

void GuardedDevice::reseed(std::uint64_t seed) { seed_ = seed; }

std::vector<Placement> GuardedDevice::placements() const {
    std::vector<Placement> out;
    for (const Slot& slot : slots_) {
        if (slot.sizes.empty()) {  // a run that failed to allocate before this position
            out.emplace_back();
            continue;
        }
        const SlotState& in_use = slot.sizes.back();
        out.push_back({in_use.buffer, in_use.layout.total_bytes(), in_use.layout.tensor_offset(), in_use.layout.tensor_bytes});
    }
    return out;
}

host::CallResult GuardedDevice::supports(const Invocation& invocation) {
    return adapter_.supports(operation_of(invocation, describe_tensors(invocation, {}, Bytes::optional), {}));
}

GuardedRun GuardedDevice::run(const Invocation& invocation, const TensorPlacement& placement) {
    const std::vector<TensorSpec> tensors = describe_tensors(invocation, placement);
    GuardedRun out;
    auto& time = out.adapter_time;

    // Place: at each tensor position the buffer of the tensor's size; the
    // buffers of positions this invocation does not have are given back.
    while (slots_.size() > tensors.size()) {
        for (SlotState& state : slots_.back().sizes) {
            release_buffer(adapter_, state, time);
            keep_images(adapter_, state);
        }
        slots_.pop_back();
    }
    slots_.resize(tensors.size());
    std::vector<SlotState*> in_use;
    for (std::size_t p = 0; p < tensors.size(); ++p) {
        SlotState& state = state_of_size(adapter_, slots_[p], tensors[p].layout.total_bytes(), time);
        if (auto failed = ensure_buffer(adapter_, state, tensors[p], time))
            return failed_at(std::move(out), GuardedStep::allocate, std::move(*failed));
        in_use.push_back(&state);
    }

    if (!exchange(adapter_, in_use, seed_, tensors, invocation, PoisonPattern::first, out)) return out;
    out.checked = true;
    // Canaries and inputs whatever the run returned; outputs only after KCS_OK.
    out.breaches = guarded::check_run(images(in_use, tensors));
    if (!out.call.ok()) return out;

    const std::size_t first_output = invocation.inputs.size();
    std::vector<std::vector<std::size_t>> suspects;
    bool any_suspect = false;
    for (std::size_t p = first_output; p < tensors.size(); ++p) {
        out.outputs.push_back(output_of(*in_use[p], tensors[p]));
        suspects.push_back(guarded::poisoned_elements(out.outputs.back().bytes, tensors[p].dtype, PoisonPattern::first));
        any_suspect = any_suspect || !suspects.back().empty();
    }
    if (!any_suspect) return out;

    // Rule 2: an element that reads back the poison may be a genuine result
    // equal to it. The same call again, its outputs poisoned with the other
    // pattern, decides: a result repeats, untouched memory shows the new
    // pattern. The first run's outputs are the ones judged.
    GuardedRun again;
    const bool decided = exchange(adapter_, in_use, seed_, tensors, invocation, PoisonPattern::second, again);
    out.adapter_time += again.adapter_time;
    if (!decided || !again.call.ok()) {
        again.adapter_time = out.adapter_time;
        again.checked = false;
        again.call.message = "the run again, to tell a result equal to the poison from unwritten memory: " +
                             again.call.message;
        return again;
    }
    for (auto& b : guarded::check_run(images(in_use, tensors))) out.breaches.push_back(std::move(b));
    for (std::size_t k = 0; k < out.outputs.size(); ++k) {
        const std::size_t p = first_output + k;
        const auto second =
            in_use[p]->read_back_image().subspan(in_use[p]->layout.tensor_offset(), in_use[p]->layout.tensor_bytes);
        for (auto& b : guarded::check_rerun(tensors[p].name, tensors[p].dtype, suspects[k], out.outputs[k].bytes, second))
            out.breaches.push_back(std::move(b));
    }
    return out;
}

}  // namespace kcs::harness
