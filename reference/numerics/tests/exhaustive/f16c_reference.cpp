// Compiled alone with -mf16c (see CMakeLists.txt): only this file may hold
// instructions a CPU without F16C lacks, and the tests call it only after
// checking the CPU at runtime.
#include "f16c_reference.hpp"

#include <cpuid.h>
#include <immintrin.h>

namespace kcs::ref::test_support {

// CPUID, not __builtin_cpu_supports("f16c"): clang 14 does not know that name.
bool cpu_has_f16c() {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_F16C) != 0;
}

void f16c_f32_to_f16(const float* in, std::uint16_t* out, std::size_t n) {
    for (std::size_t i = 0; i < n; i += 4) {
        const __m128 x = _mm_loadu_ps(in + i);
        // The immediate selects round-to-nearest-even regardless of MXCSR.RC.
        const __m128i h = _mm_cvtps_ph(x, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        _mm_storel_epi64(reinterpret_cast<__m128i*>(out + i), h);
    }
}

}  // namespace kcs::ref::test_support
