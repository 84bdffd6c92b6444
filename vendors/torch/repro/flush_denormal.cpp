// What torch.set_flush_denormal(True) (at::globalContext().setFlushDenormal,
// the torch adapter's flush_denormal=true) flushes, alone:
//   subnormal-survives WHAT   a subnormal survives the flush in WHAT          (C-CMP-02 under flush_denormal=true)
// WHAT: cast-f32-f16, cast-f32-bf16, cast-f16-f32, cast-bf16-f32 (Tensor::to),
// add-f16, mul-f16, maximum-f32, maximum-f16, maximum-bf16 (at::add, mul,
// maximum), sum-f16, sum-f16-f32 (at::sum), max-f16, max-bf16 (at::amax),
// matmul (at::matmul f32, 128 x 128 x 128).
// The flush is MXCSR's FTZ and DAZ on the calling thread (c10's
// set_flush_denormal, cpuinfo): it acts on SSE/AVX arithmetic alone. c10
// converts f16 and bf16 to and from f32 with integer operations
// (c10/util/Half.h, BFloat16.h), so f16 and bf16 subnormals pass through
// every conversion, and f16 arithmetic is f32 arithmetic on values that
// are normal in f32; f32 maximum's scalar path compares (where DAZ reads
// a subnormal as 0) but returns the operand's own bits, while its AVX2
// body (MAXPS) returns the 0 DAZ made of it, so what survives depends on
// the length (7 elements: 4 of 7); and the BLAS's own threads, which
// compute part of a large f32 product, never had the flag set.
// Usage: flush_denormal subnormal-survives WHAT. Exit 0: seen; 1: not; 2: usage.
#include <dlfcn.h>

#include <functional>
#include <map>

#include "repro.hpp"

namespace {

// A call's inputs, made before the flush is set (making them is arithmetic
// too), and the call.
struct Case {
    std::vector<at::Tensor> in;
    std::function<at::Tensor(const std::vector<at::Tensor>&)> call;
};

at::Tensor of_bits(std::uint16_t bits, at::ScalarType dtype, std::uint16_t others = 0xbf80, std::int64_t n = 1) {
    std::vector<std::int16_t> v(static_cast<std::size_t>(n), static_cast<std::int16_t>(others));
    v[0] = static_cast<std::int16_t>(bits);
    return at::tensor(v, at::kShort).view(dtype).clone();
}
at::Tensor f32(std::uint32_t bits, std::int64_t n = 64) {  // n elements of these bits: vector body and tail
    const std::vector<std::int32_t> v(static_cast<std::size_t>(n), static_cast<std::int32_t>(bits));
    return at::tensor(v, at::kInt).view(at::kFloat).clone();
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "", what = argc > 2 ? argv[2] : "";
    const auto half = at::kHalf, bf16 = at::kBFloat16;
    const auto one = [](auto f) { return [f](const std::vector<at::Tensor>& in) { return f(in[0]); }; };
    const auto two = [](auto f) { return [f](const std::vector<at::Tensor>& in) { return f(in[0], in[1]); }; };
    // The products of 128 x 128 x 128 small normals (2^-70 x 2^-70 = 2^-140, subnormal) by the BLAS.
    const at::Tensor small = at::full({128, 128}, std::ldexp(1.0f, -70));
    const std::map<std::string, Case> cases{
        {"cast-f32-f16", {{f32(0x33800000u)}, one([](const at::Tensor& x) { return x.to(at::kHalf); })}},  // 2^-24: f16 0x0001
        {"cast-f32-bf16", {{f32(0x00010000u)}, one([](const at::Tensor& x) { return x.to(at::kBFloat16); })}},
        {"cast-f16-f32", {{of_bits(0x0001, half)}, one([](const at::Tensor& x) { return x.to(at::kFloat); })}},
        {"cast-bf16-f32", {{of_bits(0x0001, bf16)}, one([](const at::Tensor& x) { return x.to(at::kFloat); })}},
        {"add-f16", {{of_bits(0x0200, half, 0), of_bits(0x0000, half, 0)}, two([](auto a, auto b) { return at::add(a, b); })}},
        {"mul-f16", {{of_bits(0x014a, half, 0), of_bits(0x3c00, half, 0)}, two([](auto a, auto b) { return at::mul(a, b); })}},
        {"maximum-f32", {{f32(0x004c7f24u, 7), f32(0xbf800000u, 7)}, two([](auto a, auto b) { return at::maximum(a, b); })}},
        {"maximum-f16", {{of_bits(0x0264, half), of_bits(0xbc00, half)}, two([](auto a, auto b) { return at::maximum(a, b); })}},
        {"maximum-bf16", {{of_bits(0x004c, bf16), of_bits(0xbf80, bf16)}, two([](auto a, auto b) { return at::maximum(a, b); })}},
        {"sum-f16", {{of_bits(0x0200, half, 0, 16)}, one([](const at::Tensor& x) { return at::sum(x, {0}, false, at::kHalf); })}},
        {"sum-f16-f32", {{of_bits(0x0200, half, 0, 16)}, one([](const at::Tensor& x) { return at::sum(x, {0}, false, at::kFloat); })}},
        {"max-f16", {{of_bits(0x0371, half, 0xbc00, 16)}, one([](const at::Tensor& x) { return at::amax(x, {0}); })}},
        {"max-bf16", {{of_bits(0x0078, bf16, 0xbf80, 16)}, one([](const at::Tensor& x) { return at::amax(x, {0}); })}},
        {"matmul", {{small, small}, two([](auto a, auto b) { return at::matmul(a, b); })}}};
    const auto found = cases.find(what);
    if (mode != "subnormal-survives" || found == cases.end()) {
        std::fprintf(stderr, "usage: flush_denormal subnormal-survives WHAT (");
        for (const auto& entry : cases) std::fprintf(stderr, " %s", entry.first.c_str());
        std::fprintf(stderr, " )\n");
        return 2;
    }
    return repro::guarded([&] {
        if (!at::globalContext().setFlushDenormal(true)) {
            std::fprintf(stderr, "setFlushDenormal(true) returned false: this CPU cannot flush\n");
            return 2;
        }
        const at::Tensor result = found->second.call(found->second.in);
        at::globalContext().setFlushDenormal(false);
        const std::vector<float> y = repro::values(result);
        std::size_t kept = 0;
        for (const float v : y) kept += v != 0;
        // Every output is 0 under a full flush.
        std::printf("%s under set_flush_denormal(true): %zu of %zu outputs nonzero (first %g); a full flush gives 0\n",
                    what.c_str(), kept, y.size(), y[0]);
        if (what == "matmul") {
            // OpenBLAS (the libblas.so.3 alternative here) names its thread count: its other threads keep subnormals.
            void* blas = dlopen("libblas.so.3", RTLD_NOW | RTLD_NOLOAD);
            const auto threads = blas ? reinterpret_cast<int (*)()>(dlsym(blas, "openblas_get_num_threads")) : nullptr;
            if (threads) std::printf("libblas.so.3 is OpenBLAS with %d threads\n", threads());
        }
        return repro::verdict(kept > 0, "a subnormal survives flush_denormal");
    });
}
