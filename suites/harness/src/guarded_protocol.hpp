// The pieces of the integrity protocol (SPEC.md section 7) that need no
// adapter: where a tensor lies in its buffer, the canary bytes of a zone,
// input hashes, and the checks that turn what was written and what was
// read back into C-EXC-02 breaches. GuardedDevice drives them; the tests
// call them directly as well. Private to kcs_harness.
#pragma once

#include "kcs/spec/sha256.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kcs/harness/guarded_device.hpp"

namespace kcs::harness::guarded {

// Each zone is at least 1 KiB (rule 1); a multiple of 64 so that the tensor
// after it starts 64-byte aligned, enough for every dtype and device.
inline constexpr std::uint64_t kGuardBytes = 1024;
inline constexpr std::uint64_t kTensorAlignment = 64;

// One buffer: leading zone, tensor, trailing zone. The trailing zone starts
// right at the tensor's end, so a write one byte past it lands on a canary;
// it absorbs the padding that keeps the buffer a multiple of 64 bytes.
struct BufferLayout {
    std::uint64_t tensor_bytes = 0;
    std::uint64_t after_bytes = 0;  // the trailing zone: kGuardBytes plus the padding

    std::uint64_t tensor_offset() const { return kGuardBytes; }
    std::uint64_t after_offset() const { return kGuardBytes + tensor_bytes; }
    std::uint64_t total_bytes() const { return after_offset() + after_bytes; }
};

BufferLayout layout_for(std::uint64_t tensor_bytes);

// Zones are numbered in tensor order, inputs then outputs, the zone before
// a tensor then the one after: tensor position p owns zones 2p and 2p + 1.
constexpr std::uint32_t zone_before(std::size_t position) { return static_cast<std::uint32_t>(2 * position); }
constexpr std::uint32_t zone_after(std::size_t position) { return static_cast<std::uint32_t>(2 * position + 1); }

// Fills `zone` with the canary bytes of zone `zone_index` for `seed`: block
// b (counter (lo32(b), hi32(b), zone_index, 1), key from the seed) gives
// bytes 16b .. 16b+15 as w0..w3, each little-endian.
void fill_canary(std::span<std::byte> zone, std::uint64_t seed, std::uint32_t zone_index);

// Fills `tensor` with the poison pattern of `dtype`, element after element.
void fill_poison(std::span<std::byte> tensor, kcs_dtype dtype);

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
    Sha256 written_hash{};                 // inputs: SHA-256 of the tensor as written
};

// Rule 1: one breach per zone with a changed byte, naming the zone, the
// number of changed bytes, and the first and last of them by their offset
// from the tensor's edge with their old and new values.
std::vector<Breach> check_canaries(const TensorImages& tensor);
// Rule 3, for an input: its SHA-256 read back against the one written.
std::vector<Breach> check_input(const TensorImages& tensor);
// Rule 2, for an output of a successful run: elements still poisoned.
std::vector<Breach> check_poison(const TensorImages& tensor);

// Every check of one run: canaries and input hashes whatever the run
// returned (SPEC: they apply even when outputs are not judged), poison only
// when it returned KCS_OK.
std::vector<Breach> check_run(std::span<const TensorImages> tensors, bool run_ok);

// What GuardedDevice keeps per tensor position between runs: the buffer and
// the host images, kept to reuse their memory.
struct SlotState {
    host::BufferHandle buffer;  // id 0: none
    BufferLayout layout;
    std::vector<std::byte> written;
    std::vector<std::byte> read_back;
    Sha256 written_hash{};
};

}  // namespace kcs::harness::guarded
