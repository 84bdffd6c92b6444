// The CPU's F16C conversion (VCVTPS2PH, round to nearest even): an
// implementation of f32 -> f16 independent of ours, to compare against.
#pragma once

#include <cstddef>
#include <cstdint>

namespace kcs::ref::test_support {

// Whether this CPU has F16C (CPUID leaf 1, ECX bit 29).
bool cpu_has_f16c();

// out[i] = VCVTPS2PH(in[i]) under round-to-nearest-even, for n a multiple
// of 4. Call only where cpu_has_f16c() holds.
void f16c_f32_to_f16(const float* in, std::uint16_t* out, std::size_t n);

}  // namespace kcs::ref::test_support
