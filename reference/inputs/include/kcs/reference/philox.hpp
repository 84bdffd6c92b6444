// Philox4x32-10, the catalog's counter-based generator (SPEC.md section 4,
// catalog name "philox4x32-10"). Every input element is a pure function of
// (case seed, tensor, stream, element index): no state is carried from one
// element to the next, so any element can be regenerated alone, in any
// order, by any implementation.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace kcs::ref {

inline constexpr std::string_view kGeneratorName = "philox4x32-10";

using PhiloxCounter = std::array<std::uint32_t, 4>;  // (c0, c1, c2, c3)
using PhiloxKey = std::array<std::uint32_t, 2>;      // (k0, k1)
using PhiloxBlock = std::array<std::uint32_t, 4>;    // (w0, w1, w2, w3)

// Streams a (the counter's last word). 0 carries tensor values, 1 is
// reserved for canaries, 2 + j carries permutation j; auxiliary draws that
// a class's protocol assigns use 2^16 and above.
inline constexpr std::uint32_t kValueStream = 0;
inline constexpr std::uint32_t kCanaryStream = 1;
inline constexpr std::uint32_t kFirstPermutationStream = 2;
inline constexpr std::uint32_t kFirstAuxiliaryStream = std::uint32_t{1} << 16;

constexpr std::uint32_t auxiliary_stream(std::uint32_t k) { return kFirstAuxiliaryStream + k; }

// The ten rounds of SPEC.md, written exactly as specified.
constexpr PhiloxBlock philox4x32_10(PhiloxCounter c, PhiloxKey k) {
    constexpr std::uint64_t kM0 = 0xD2511F53u;
    constexpr std::uint64_t kM1 = 0xCD9E8D57u;
    constexpr std::uint32_t kBump0 = 0x9E3779B9u;
    constexpr std::uint32_t kBump1 = 0xBB67AE85u;
    for (int round = 0; round < 10; ++round) {
        if (round > 0) {
            k[0] += kBump0;  // unsigned: wraps mod 2^32 as specified
            k[1] += kBump1;
        }
        const std::uint64_t p0 = kM0 * c[0];
        const std::uint64_t p1 = kM1 * c[2];
        const auto hi0 = static_cast<std::uint32_t>(p0 >> 32);
        const auto lo0 = static_cast<std::uint32_t>(p0);
        const auto hi1 = static_cast<std::uint32_t>(p1 >> 32);
        const auto lo1 = static_cast<std::uint32_t>(p1);
        c = PhiloxCounter{hi1 ^ c[1] ^ k[0], lo1, hi0 ^ c[3] ^ k[1], lo0};
    }
    return c;
}

constexpr std::uint32_t lo32(std::uint64_t v) { return static_cast<std::uint32_t>(v); }
constexpr std::uint32_t hi32(std::uint64_t v) { return static_cast<std::uint32_t>(v >> 32); }

// The block of element `index` of tensor `tensor` (0-based position in the
// operator's input list) in stream `stream`, for case seed `seed`:
// key (lo32(s), hi32(s)), counter (lo32(i), hi32(i), t, a).
constexpr PhiloxBlock philox_block(std::uint64_t seed, std::uint32_t tensor, std::uint32_t stream,
                                   std::uint64_t index) {
    return philox4x32_10(PhiloxCounter{lo32(index), hi32(index), tensor, stream},
                         PhiloxKey{lo32(seed), hi32(seed)});
}

// Seed of case j of a run with base seed B: B + j (mod 2^64).
constexpr std::uint64_t case_seed(std::uint64_t base_seed, std::uint64_t j) { return base_seed + j; }

}  // namespace kcs::ref
