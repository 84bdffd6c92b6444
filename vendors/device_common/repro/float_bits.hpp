// What the standalone repros of the library adapters (onednn, xnnpack,
// torch) share, and nothing of KCS: the bits of a float, an ulp distance,
// and the verdict line every repro ends with. Each repro exits 0 when it
// sees its behaviour, 1 when not.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace repro {

inline std::uint32_t bits(float x) {
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    return u;
}
inline float from_bits(std::uint32_t u) {
    float x;
    std::memcpy(&x, &u, 4);
    return x;
}
// The distance in ulps between two finite floats: how many floats lie
// between them (the bit patterns, ordered as integers across zero).
inline double ulps(float a, float b) {
    auto ordered = [](float x) {
        const std::int64_t u = bits(x) & 0x7fffffffu;
        return (bits(x) >> 31) ? -u : u;
    };
    return static_cast<double>(std::llabs(ordered(a) - ordered(b)));
}

// "SEEN: behaviour" or "NOT SEEN: behaviour"; the repro's exit status.
inline int verdict(bool seen, const char* behaviour) {
    std::printf("%s: %s\n", seen ? "SEEN" : "NOT SEEN", behaviour);
    return seen ? 0 : 1;
}

}  // namespace repro
