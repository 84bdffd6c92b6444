// ATen's matrix products (at::matmul, at::_scaled_dot_product_attention)
// as the torch adapter calls them, alone, and which kernel computes them:
//   bf16-accumulation   bf16 matmul rounds each product and its running sum to  (C-PRC-01 matmul bf16)
//                       bf16 at every step: ATen's own gemm loop, not a BLAS
//   bf16-accumulation-dot  the same, or in a [1 x 4096] x [4096 x 1] product    (C-ORD-01 matmul bf16)
//                       alone where oneDNN computes the larger one (AVX-512)
//   bf16-attention      bf16 attention rounds scores, probabilities and both    (C-PRC-01, C-ORD-01, C-PRC-02,
//                       products' running sums to bf16                          C-PRC-04 attention bf16)
//   bf16-attention-subnormal  ... so the weighted sum of subnormal values       (C-CMP-02 attention bf16)
//                       vanishes: each tiny product is lost in a bf16 sum
//   batch-rows          f32 matmul: a row's result changes with the number of   (C-ORD-03 matmul f32, strict)
//                       rows beside it, exactly as libblas.so.3's sgemm_ does
//   batch-rows-attention  the same for f32 attention's query rows               (C-ORD-03 attention f32, strict)
//   dispatch            which kernel a rank-3 f32 product runs by its size: ATen's own loop below
//                       400 multiply-adds a batch item, the BLAS above
// The causes, in ATen 1.13.1's source: a bf16 product goes to
// at::native::cpublas::gemm, whose oneDNN path needs AVX-512 (mkldnn/Utils.h,
// mkldnn_bf16_device_check) and which then runs gemm_notrans_
// (native/cpu/BlasKernel.cpp): c[...] += a[...] * val with c the bf16
// output and c10's BFloat16 operator+=, so each product and each partial
// sum is rounded to bf16. An f32 product
// calls the Fortran sgemm_ of libblas.so.3 (BLAS_INFO=generic), a Debian
// alternative (here OpenBLAS). bmm (rank 3) computes batch items of fewer
// than 400 multiply-adds (contraction * rows * columns) with its own loop,
// r += s[k] * m[k][j] in order (native/LinearAlgebra.cpp,
// bmm_out_or_baddbmm_, baddbmm_cpu_kernel), and larger ones with mm per
// item. _scaled_dot_product_attention is a composite in the input's dtype
// (native/transformers/attention.cpp, _scaled_dot_product_attention_math):
// q * (1/sqrt(D)), matmul, softmax, matmul.
// Usage: matmul MODE. Exit 0: the behaviour is seen; 1: not; 2: usage.
#include <dlfcn.h>

#include "repro.hpp"

namespace {

using repro::bits;
using B = c10::BFloat16;

// One bf16 product of [m x k] x [k x n]: true when every element equals
// the products and sum kept in bf16 step by step, and fewer equal the f32
// sum rounded once.
bool stepwise_bf16(std::int64_t m, std::int64_t k, std::int64_t n) {
    const auto a = repro::bf16_normal(m * k, 1), b = repro::bf16_normal(k * n, 2);
    const auto c = repro::values(at::matmul(repro::tensor(a, {m, k}, at::kBFloat16), repro::tensor(b, {k, n}, at::kBFloat16)));
    std::size_t stepwise = 0, once = 0;
    for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
            // gemm_notrans_'s c += a * val: the product (exact in float) converted to bf16 for
            // c10's operator+=(BFloat16&, const BFloat16&), the sum rounded to bf16.
            B sum(0.f);
            float wide = 0;
            for (std::int64_t l = 0; l < k; ++l) {
                sum = B(static_cast<float>(sum) + static_cast<float>(B(a[i * k + l] * b[l * n + j])));
                wide += a[i * k + l] * b[l * n + j];
            }
            const float got = c[i * n + j];
            stepwise += bits(got) == bits(static_cast<float>(sum));
            once += bits(got) == bits(static_cast<float>(B(wide)));
        }
    std::printf("at::matmul bf16 [%ld x %ld] x [%ld x %ld]: %zu of %ld elements equal the products and sum kept in bf16 "
                "step by step, %zu the f32 sum rounded once\n", m, k, k, n, stepwise, m * n, once);
    return stepwise == static_cast<std::size_t>(m * n) && once < stepwise;
}

// Two of the failing cases' shapes: a product with rows and columns, and a
// single dot product. Where oneDNN's bf16 path runs (a CPU with AVX-512,
// e.g. AMD Zen 4) the first comes out as the f32 sum rounded once while
// the second is still rounded step by step.
// `with_dot`: the case's shapes include the dot product (C-ORD-01's do,
// C-PRC-01's k-sweep does not).
int bf16_accumulation(bool with_dot) {
    const bool matrix = stepwise_bf16(128, 256, 7);
    const bool dot = with_dot && stepwise_bf16(1, 4096, 1);
    return repro::verdict(matrix || dot, "bf16 matmul rounds each product and its running sum to bf16 at every step");
}

// O = attention(Q, K, V) in `dtype` from f32 values, as floats.
std::vector<float> attention(const std::vector<float>& q, const std::vector<float>& k, const std::vector<float>& v,
                             std::int64_t s, std::int64_t t, std::int64_t d, at::ScalarType dtype) {
    const auto o = at::_scaled_dot_product_attention(repro::tensor(q, {1, s, d}, dtype), repro::tensor(k, {1, t, d}, dtype),
                                                     repro::tensor(v, {1, t, d}, dtype), {}, 0.0, false, false);
    return repro::values(std::get<0>(o));
}

int bf16_attention() {
    const std::int64_t s = 8, t = 256, d = 16;  // the C-ORD-01 case's shape
    const auto q = repro::bf16_uniform(s * d, -1, 1, 1), k = repro::bf16_uniform(t * d, -1, 1, 2), v = repro::bf16_normal(t * d, 3);
    const auto o16 = attention(q, k, v, s, t, d, at::kBFloat16), o32 = attention(q, k, v, s, t, d, at::kFloat);
    std::size_t off = 0;
    double worst = 0;
    for (std::size_t i = 0; i < o16.size(); ++i) {
        const double e = repro::bf16_ulps(o16[i], static_cast<float>(B(o32[i])));
        off += e > 1;
        worst = std::max(worst, e);
    }
    std::printf("at::_scaled_dot_product_attention bf16 [%ld x %ld x %ld]: %zu of %zu outputs more than 1 bf16 ulp "
                "from the f32 attention of the same values rounded to bf16 (worst %.0f ulp)\n", s, t, d, off, o16.size(), worst);
    return repro::verdict(off > 0, "bf16 attention computes in bf16 throughout");
}

int bf16_attention_subnormal() {
    const std::int64_t s = 4, t = 4096, d = 16;  // equal scores (Q = 0): O = the mean of V's rows
    const float tiny = static_cast<float>(B(0x0060, B::from_bits()));
    const auto o = attention(std::vector<float>(s * d, 0.f), repro::bf16_normal(t * d, 2),
                             std::vector<float>(t * d, tiny), s, t, d, at::kBFloat16);
    std::printf("at::_scaled_dot_product_attention bf16, Q = 0, every V = %g (bf16 0x0060, subnormal): O[0] = %g "
                "(the mean of V is V)\n", tiny, o[0]);
    return repro::verdict(o[0] == 0, "bf16 attention loses subnormal values: 2^-12 * V is below bf16's range");
}

// sgemm_ of libblas.so.3, the BLAS ATen calls, or exit 2.
using Sgemm = void (*)(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                       const int*, const float*, const int*, const float*, float*, const int*);
Sgemm blas_sgemm() {
    void* blas = dlopen("libblas.so.3", RTLD_NOW | RTLD_NOLOAD);
    if (!blas) blas = dlopen("libblas.so.3", RTLD_NOW);
    const auto sgemm = blas ? reinterpret_cast<Sgemm>(dlsym(blas, "sgemm_")) : nullptr;
    if (!sgemm) {
        std::fprintf(stderr, "libblas.so.3 has no sgemm_\n");
        std::exit(2);
    }
    Dl_info where{};
    dladdr(reinterpret_cast<void*>(sgemm), &where);
    std::printf("libblas.so.3's sgemm_ is in %s\n", where.dli_fname ? where.dli_fname : "?");
    return sgemm;
}

// C [m, n] = A [m, k] B [k, n] row-major by sgemm_ as ATen's mm calls it:
// column-major C^T = B^T A^T.
std::vector<float> sgemm_rows(Sgemm sgemm, const float* a, const std::vector<float>& b, int m, int k, int n) {
    std::vector<float> c(static_cast<std::size_t>(m) * n);
    const float one = 1, zero = 0;
    sgemm("N", "N", &n, &m, &k, &one, b.data(), &n, a, &k, &zero, c.data(), &n);
    return c;
}

int batch_rows(bool through_attention) {
    const std::int64_t k = 64, n = 64, rows = 43;  // row 0 computed in batches of 1 to 43 rows
    const auto a = repro::bf16_normal(rows * k, 1), b = repro::bf16_normal(k * n, 2), v = repro::bf16_normal(k * n, 3);
    const Sgemm sgemm = through_attention ? nullptr : blas_sgemm();
    std::vector<float> alone;
    int changed = 0, as_blas = 0;
    for (std::int64_t m = 1; m <= rows; ++m) {
        const std::vector<float> part(a.begin(), a.begin() + m * k);
        std::vector<float> row;
        if (through_attention) {  // Q [m, 64] against K = B^T's rows [64 keys, 64], V [64, 64]
            row = attention(part, b, v, m, n, k, at::kFloat);
        } else {
            row = repro::values(at::matmul(repro::tensor(part, {m, k}, at::kFloat), repro::tensor(b, {k, n}, at::kFloat)));
            const auto blas = sgemm_rows(sgemm, part.data(), b, static_cast<int>(m), static_cast<int>(k), static_cast<int>(n));
            as_blas += std::memcmp(row.data(), blas.data(), row.size() * 4) == 0;
        }
        row.resize(n);
        if (alone.empty()) alone = row;
        changed += std::memcmp(row.data(), alone.data(), n * 4) != 0;
    }
    std::printf("%s f32, row 0 among 1 to %ld rows: its %ld outputs change in %d of %ld batch sizes", 
                through_attention ? "at::_scaled_dot_product_attention" : "at::matmul", rows, n, changed, rows);
    if (!through_attention) std::printf("; ATen equals sgemm_ bit for bit in %d of %ld", as_blas, rows);
    std::printf("\n");
    return repro::verdict(changed > 0 && (through_attention || as_blas == rows),
                          "a row's result depends on the rows computed with it");
}

int dispatch() {
    // [1, m, k] x [1, k, n]: 7 * 8 * 7 = 392 multiply-adds (ATen's loop) and 8 * 8 * 7 = 448 (mm: the BLAS).
    const Sgemm sgemm = blas_sgemm();
    int loop_small = 0, blas_large = 0, cases = 0;
    for (unsigned seed = 1; seed <= 50; ++seed) {
        const int k = 8, n = 7;
        const auto a = repro::bf16_normal(8 * k, seed), b = repro::bf16_normal(k * n, seed + 100);
        for (const int m : {7, 8}) {
            const std::vector<float> part(a.begin(), a.begin() + m * k);
            const auto c = repro::values(at::matmul(repro::tensor(part, {1, m, k}, at::kFloat), repro::tensor(b, {1, k, n}, at::kFloat)));
            std::vector<float> loop(c.size());
            for (int i = 0; i < m; ++i)
                for (int j = 0; j < n; ++j) {
                    float r = 0;
                    for (int l = 0; l < k; ++l) r += part[i * k + l] * b[l * n + j];
                    loop[i * n + j] = r;
                }
            const auto blas = sgemm_rows(sgemm, part.data(), b, m, k, n);
            if (m == 7) loop_small += std::memcmp(c.data(), loop.data(), c.size() * 4) == 0;
            else blas_large += std::memcmp(c.data(), blas.data(), c.size() * 4) == 0;
        }
        ++cases;
    }
    std::printf("at::matmul f32 rank 3, 50 inputs each: [1, 7, 8] x [1, 8, 7] (392 multiply-adds) equals ATen's "
                "in-order loop in %d; [1, 8, 8] x [1, 8, 7] (448) equals sgemm_ in %d\n", loop_small, blas_large);
    return repro::verdict(loop_small == cases && blas_large == cases,
                          "bmm runs its own loop below 400 multiply-adds and the BLAS above");
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    return repro::guarded([&] {
        if (mode == "bf16-accumulation") return bf16_accumulation(false);
        if (mode == "bf16-accumulation-dot") return bf16_accumulation(true);
        if (mode == "bf16-attention") return bf16_attention();
        if (mode == "bf16-attention-subnormal") return bf16_attention_subnormal();
        if (mode == "batch-rows") return batch_rows(false);
        if (mode == "batch-rows-attention") return batch_rows(true);
        if (mode == "dispatch") return dispatch();
        std::fprintf(stderr, "usage: matmul bf16-accumulation|bf16-accumulation-dot|bf16-attention|bf16-attention-subnormal|batch-rows|"
                             "batch-rows-attention|dispatch\n");
        return 2;
    });
}
