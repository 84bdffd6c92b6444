// The integrity protocol (spec/SPEC.md section 7), applied by the harness to
// every run of every probe: guard zones of canary bytes around every tensor
// on the device, poisoned outputs, inputs compared byte for byte before and
// after, buffers reused across seeds with fresh inputs. Probes never see
// device buffers. The host images of the buffers live in memory shared with
// the adapter's worker (IsolatedAdapter::shared), so bulk data does not
// cross the worker channel.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <kcs/dtypes.hpp>

#include "kcs/host/isolated_adapter.hpp"

namespace kcs::harness {

// A tensor in host memory: little-endian elements of `dtype`, row-major.
struct HostTensor {
    kcs_dtype dtype = KCS_DTYPE_F32;
    std::vector<std::int64_t> shape;
    std::vector<std::byte> bytes;

    static HostTensor zeros(kcs_dtype dtype, std::vector<std::int64_t> shape);
    std::size_t elements() const;
    std::uint64_t bits(std::size_t i) const;            // raw element bits
    void set_bits(std::size_t i, std::uint64_t bits);
    // Every element's bits at once (as many as the tensor has elements): a
    // generated tensor is filled so, not element by element.
    template <class Bits>
    void set_all_bits(std::span<const Bits> all);
    double value(std::size_t i) const;                  // float dtypes: exact value; integers: as double
    void set_value(std::size_t i, double value);        // float dtypes: rounded to nearest even
};

struct OutputSpec {
    kcs_dtype dtype = KCS_DTYPE_F32;
    std::vector<std::int64_t> shape;
};

// One operator invocation as a probe describes it: what to run, on which
// host data, producing which outputs.
struct Invocation {
    std::string op;
    std::optional<std::string> function;
    kcs_dtype accumulate = 0;
    std::vector<host::Attribute> attributes;
    std::vector<HostTensor> inputs;
    std::vector<OutputSpec> outputs;
};

// The class every breach of the integrity protocol FAILs, whatever the
// probe measured (SPEC section 7), and its signature ids
// (spec/v1/classes/C-EXC-02.yaml).
inline constexpr std::string_view kBreachClass = "C-EXC-02";
inline constexpr std::string_view kCanaryChanged = "canary-changed";
inline constexpr std::string_view kStaleOrPoisonLeft = "stale-or-poison-left";
inline constexpr std::string_view kInputModified = "input-modified";

// A breach of the integrity protocol, with the C-EXC-02 signature it matches.
struct Breach {
    std::string signature;  // canary-changed | stale-or-poison-left | input-modified
    std::string detail;     // which tensor, which byte or element
};

// The adapter calls of one guarded run, in order.
enum class GuardedStep { allocate, write, run, read_back };

struct GuardedRun {
    // The adapter's answer to run(); or, when a call around it failed (an
    // allocation, a write, a read-back), that call's answer, its message
    // prefixed with what the harness was doing, and `step` says which.
    host::CallResult call;
    GuardedStep step = GuardedStep::run;
    // The canary and input checks ran (and, when the run returned KCS_OK,
    // the poison check): false when a call failed before the read-back
    // completed, or the run lost the worker or the device with its buffers.
    bool checked = false;
    std::vector<HostTensor> outputs;      // read back (when the run returned KCS_OK)
    std::vector<Breach> breaches;         // empty when the protocol held
    std::chrono::nanoseconds adapter_time{0};  // time inside adapter calls (alloc, release, write, run, read)
};

// Where the tensors of a run start within their buffers (SPEC.md section
// 7, rule 1: after a guard zone of at least 1 KiB). By default 1 KiB in,
// 64-byte aligned. With an alignment offset a (C-ORD-02's 4, 64 and 4096
// bytes): a bytes past the buffer's first 4096-byte boundary beyond the
// guard zone, i.e. at 4096 + a (4096 for a = 4096), so that the tensor is
// aligned to a and to nothing coarser; an offset below a tensor's element
// size is raised to it.
struct TensorPlacement {
    std::uint64_t alignment_offset = 0;  // 0: the default
};

// Where a tensor position's tensor lies on the device (as of the last run).
struct Placement {
    host::BufferHandle buffer;
    std::uint64_t buffer_bytes = 0;   // guard zone, tensor, padding and guard zone
    std::uint64_t tensor_offset = 0;  // the leading zone's size: a multiple of 64
    std::uint64_t tensor_bytes = 0;   // the trailing zone starts right after the tensor
};

class GuardedDevice {
public:
    // `seed` keys the canary bytes (stream 1 of the catalog generator).
    GuardedDevice(host::IsolatedAdapter& adapter, std::uint64_t seed);
    ~GuardedDevice();  // releases the buffers it still holds
    GuardedDevice(GuardedDevice&& other) noexcept;
    GuardedDevice(const GuardedDevice&) = delete;
    GuardedDevice& operator=(const GuardedDevice&) = delete;

    // Runs one invocation under the protocol. Buffers are kept between runs
    // and reused by the next run whose tensors have the same sizes (rule 4:
    // fresh inputs in reused buffers); a new worker generation drops them.
    GuardedRun run(const Invocation& invocation, const TensorPlacement& placement = {});

    // Asks the adapter whether it computes this invocation (no data moves;
    // the inputs may hold no bytes, as the support phase declares them).
    host::CallResult supports(const Invocation& invocation);

    // The canary seed for the next runs (a case's next seed).
    void reseed(std::uint64_t seed);
    std::uint64_t seed() const noexcept { return seed_; }

    const host::IsolatedAdapter& adapter() const noexcept { return adapter_; }
    // A second worker of the same adapter, for load run beside this device's calls.
    host::IsolatedAdapter& companion() { return adapter_.companion(); }

    // One entry per tensor position of the last run, inputs then outputs.
    std::vector<Placement> placements() const;

private:
    struct Slot;

    host::IsolatedAdapter& adapter_;
    std::uint64_t seed_;
    std::vector<Slot> slots_;  // one per tensor position, inputs then outputs
};

// The poison patterns of a dtype (SPEC section 7, rule 2): pattern 0 before
// every run, pattern 1 for the second run that decides whether elements
// holding pattern 0 were written. Both signalling NaNs for the floats.
// Both functions throw std::invalid_argument for a dtype outside the ABI's enum.
enum class PoisonPattern { first, second };
std::uint64_t poison_bits(kcs_dtype dtype, PoisonPattern pattern = PoisonPattern::first);
// Bytes per element; std::invalid_argument for an unknown dtype. Inline:
// per-element tensor access calls it.
[[noreturn]] void throw_unknown_dtype(kcs_dtype dtype);
inline std::size_t dtype_size(kcs_dtype dtype) {
    if (const auto d = dtype_of_code(dtype)) return size_of(*d);
    throw_unknown_dtype(dtype);
}
std::string dtype_name(kcs_dtype dtype);  // "f32", "bf16", "i64", ...; "dtype N" outside the enum
// The number of elements of a shape (1 for a scalar); throws std::invalid_argument for a negative extent.
std::size_t element_count(const std::vector<std::int64_t>& shape);

}  // namespace kcs::harness
