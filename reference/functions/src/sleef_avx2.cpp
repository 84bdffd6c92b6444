// Compiled with -mavx2 -mfma (reference/functions/CMakeLists.txt): see sleef_kernels.hpp.
#include <sleef.h>

#include "sleef_kernels.hpp"

namespace kcs::ref::unary_detail {

std::size_t sleef_avx2(SleefKernel k, const double* in, double* out, std::size_t n) {
    std::size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const __m256d v = _mm256_loadu_pd(in + i);
        __m256d r;
        switch (k) {
            case SleefKernel::exp: r = Sleef_expd4_u10avx2(v); break;
            case SleefKernel::log: r = Sleef_logd4_u10avx2(v); break;
            case SleefKernel::tanh: r = Sleef_tanhd4_u10avx2(v); break;
            case SleefKernel::erf: r = Sleef_erfd4_u10avx2(v); break;
            default: r = Sleef_erfcd4_u15avx2(v); break;
        }
        _mm256_storeu_pd(out + i, r);
    }
    return i;
}

}  // namespace kcs::ref::unary_detail
