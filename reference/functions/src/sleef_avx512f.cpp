// Compiled with -mavx512f (reference/functions/CMakeLists.txt): see sleef_kernels.hpp.
#include <sleef.h>

#include "sleef_kernels.hpp"

namespace kcs::ref::unary_detail {

std::size_t sleef_avx512f(SleefKernel k, const double* in, double* out, std::size_t n) {
    std::size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        const __m512d v = _mm512_loadu_pd(in + i);
        __m512d r;
        switch (k) {
            case SleefKernel::exp: r = Sleef_expd8_u10avx512f(v); break;
            case SleefKernel::log: r = Sleef_logd8_u10avx512f(v); break;
            case SleefKernel::tanh: r = Sleef_tanhd8_u10avx512f(v); break;
            case SleefKernel::erf: r = Sleef_erfd8_u10avx512f(v); break;
            default: r = Sleef_erfcd8_u15avx512f(v); break;
        }
        _mm512_storeu_pd(out + i, r);
    }
    return i;
}

}  // namespace kcs::ref::unary_detail
