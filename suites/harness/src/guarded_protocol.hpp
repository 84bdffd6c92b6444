// The pieces of the integrity protocol (SPEC.md section 7) that need no
// adapter: where a tensor lies in its buffer, the canary bytes of a zone,
// the poison pattern, and the checks that turn what was written and what was
// read back into C-EXC-02 breaches. GuardedDevice drives them; the tests
// call them directly as well. Private to kcs_harness.
#pragma once

#include "kcs/spec/sha256.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kcs/harness/guarded_device.hpp"

namespace kcs::harness::guarded {

// Each zone is at least 1 KiB (rule 1); a multiple of 64 so that the tensor
// after it starts 64-byte aligned, enough for every dtype and device.
inline constexpr std::uint64_t kGuardBytes = 1024;
inline constexpr std::uint64_t kTensorAlignment = 64;

// One buffer: leading zone, tensor, trailing zone. The leading zone is
// kGuardBytes by default, or reaches the tensor's alignment offset
// (TensorPlacement); the trailing zone starts right at the tensor's end, so a
// write one byte past it lands on a canary, and absorbs the padding that
// keeps the buffer a multiple of 64 bytes.
struct BufferLayout {
    std::uint64_t tensor_bytes = 0;
    std::uint64_t after_bytes = 0;        // the trailing zone: kGuardBytes plus the padding
    std::uint64_t lead_bytes = kGuardBytes;  // the leading zone, at least kGuardBytes

    std::uint64_t tensor_offset() const { return lead_bytes; }
    std::uint64_t after_offset() const { return lead_bytes + tensor_bytes; }
    std::uint64_t total_bytes() const { return after_offset() + after_bytes; }
    bool operator==(const BufferLayout&) const = default;
};

// `element_bytes`: the tensor's element size, which an alignment offset is
// raised to where it is smaller (the ABI's offsets are element multiples).
BufferLayout layout_for(std::uint64_t tensor_bytes, const TensorPlacement& placement = {},
                        std::uint64_t element_bytes = 1);

// Zones are numbered in tensor order, inputs then outputs, the zone before
// a tensor then the one after: tensor position p owns zones 2p and 2p + 1.
constexpr std::uint32_t zone_before(std::size_t position) { return static_cast<std::uint32_t>(2 * position); }
constexpr std::uint32_t zone_after(std::size_t position) { return static_cast<std::uint32_t>(2 * position + 1); }

// Fills `zone` with the canary bytes of zone `zone_index` for `seed`: block
// b (counter (lo32(b), hi32(b), zone_index, 1), key from the seed) gives
// bytes 16b .. 16b+15 as w0..w3, each little-endian.
void fill_canary(std::span<std::byte> zone, std::uint64_t seed, std::uint32_t zone_index);

// Fills `tensor` with a poison pattern of `dtype`, element after element.
void fill_poison(std::span<std::byte> tensor, kcs_dtype dtype, PoisonPattern pattern = PoisonPattern::first);

using kcs::Sha256;
using kcs::sha256;
using kcs::hex;

// "input 1 (f32 [2, 37, 5])", the way every breach names a tensor.
std::string tensor_name(bool is_input, std::size_t index, kcs_dtype dtype, const std::vector<std::int64_t>& shape);

// One tensor position after a run: the buffer's bytes as written and as
// read back, with what the checks need to know about them.
struct TensorImages {
    std::string name;     // tensor_name(...)
    bool is_input = false;
    kcs_dtype dtype = KCS_DTYPE_F32;
    std::size_t position = 0;  // in tensor order, inputs then outputs
    BufferLayout layout;
    std::span<const std::byte> written;    // layout.total_bytes() bytes
    std::span<const std::byte> read_back;  // the same range after the run
};

// Rule 1: one breach per zone with a changed byte, naming the zone, the
// number of changed bytes, and the first and last of them by their offset
// from the tensor's edge with their old and new values.
std::vector<Breach> check_canaries(const TensorImages& tensor);
// Rule 3, for an input: the bytes read back against the bytes written,
// compared directly (equal bytes: equal SHA-256, and a difference is never
// missed); SHA-256 of both goes into the breach.
std::vector<Breach> check_input(const TensorImages& tensor);
// Rule 2, for an output of a successful run: elements still holding the
// first poison pattern, as one breach (the device asks a second run first).
std::vector<Breach> check_poison(const TensorImages& tensor);

// The indices of the elements of an output's bytes that hold a poison pattern.
std::vector<std::size_t> poisoned_elements(std::span<const std::byte> tensor, kcs_dtype dtype, PoisonPattern pattern);

// Rule 2, decided by the second run: of the elements that held the first
// pattern after the first run (`suspects`), those the second run, poisoned
// with the second pattern, did not give again (bitwise, or NaN where the
// first was NaN) were never written by the kernel. `first` and `second` are
// the output's bytes after each run. One breach, or none.
std::vector<Breach> check_rerun(const std::string& name, kcs_dtype dtype, const std::vector<std::size_t>& suspects,
                                std::span<const std::byte> first, std::span<const std::byte> second);

// The checks of one run that apply whatever it returned (SPEC: also when
// outputs are not judged): canaries and input hashes. Poison is decided
// after KCS_OK, by check_poison or, on the device, poisoned_elements and
// check_rerun.
std::vector<Breach> check_run(std::span<const TensorImages> tensors);

// What GuardedDevice keeps per tensor position between runs: the buffer and
// the host images, in memory shared with the adapter's worker so that they
// cross without a copy through the channel, kept from run to run (a sweep
// faults no fresh pages per chunk).
struct SlotState {
    host::BufferHandle buffer;  // id 0: none
    BufferLayout layout;
    // The image as written: canaries around the input or the poisoned
    // output. Read-only for the worker (sealed), so it stays the harness's
    // reference whatever the adapter does.
    host::SharedBytes written;
    host::SharedBytes read_back;  // the buffer as read back after the run
    // What `written` holds besides an input's bytes, so that an identical
    // image is not rebuilt: none after it was (re)made.
    struct Prepared {
        BufferLayout layout;
        std::uint64_t seed = 0;
        kcs_dtype dtype = KCS_DTYPE_F32;
        bool is_input = false;
        PoisonPattern poison = PoisonPattern::first;
        bool operator==(const Prepared&) const = default;
    };
    std::optional<Prepared> prepared;

    std::span<std::byte> written_image() const { return written.bytes().first(layout.total_bytes()); }
    std::span<std::byte> read_back_image() const { return read_back.bytes().first(layout.total_bytes()); }
};

}  // namespace kcs::harness::guarded
