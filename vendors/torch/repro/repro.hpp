// What the ATen repros share: tensors from host vectors, bf16 bits and
// ulps, seeded inputs (the bits of a float, ulps and the verdict line are
// device_common/repro/float_bits.hpp's).
// ATen (ATen/ATen.h) and c10's BFloat16 alone, no KCS code, called as the
// torch adapter calls them (operators.cpp): contiguous tensors, ATen's own
// thread count. Each repro exits 0 when it sees its behaviour, 1 when not,
// 2 on a usage or ATen error.
#pragma once
#include <ATen/ATen.h>
#include <c10/util/BFloat16.h>

#include "float_bits.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace repro {

inline std::uint16_t bf16_bits(c10::BFloat16 x) { return x.x; }

// The distance in ulps of bf16 values held in floats: in bf16 ulps.
inline double bf16_ulps(float a, float b) { return ulps(a, b) / 65536.0; }

// A tensor of `shape` holding `values` (f32), in `dtype` (rounded to nearest even).
inline at::Tensor tensor(const std::vector<float>& values, at::IntArrayRef shape, at::ScalarType dtype) {
    return at::tensor(values, at::kFloat).reshape(shape).to(dtype).contiguous();
}
// Every element of a tensor as floats (exact for f16 and bf16).
inline std::vector<float> values(const at::Tensor& t) {
    const at::Tensor f = t.to(at::kFloat).contiguous();
    return std::vector<float>(f.data_ptr<float>(), f.data_ptr<float>() + f.numel());
}

// n values from a normal(0, 1) or uniform(lo, hi) of a fixed seed, rounded to bf16.
inline std::vector<float> bf16_normal(std::size_t n, unsigned seed) {
    std::mt19937 rng(seed);
    std::normal_distribution<float> draw(0.f, 1.f);
    std::vector<float> v(n);
    for (float& x : v) x = static_cast<float>(c10::BFloat16(draw(rng)));
    return v;
}
inline std::vector<float> bf16_uniform(std::size_t n, float lo, float hi, unsigned seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> draw(lo, hi);
    std::vector<float> v(n);
    for (float& x : v) x = static_cast<float>(c10::BFloat16(draw(rng)));
    return v;
}

inline at::ScalarType dtype_of(const std::string& name) {
    if (name == "f32") return at::kFloat;
    if (name == "f16") return at::kHalf;
    if (name == "bf16") return at::kBFloat16;
    std::fprintf(stderr, "unknown dtype %s: expected f32, f16 or bf16\n", name.c_str());
    std::exit(2);
}


// Runs a repro's body; an ATen error exits 2 with its message.
template <class Body>
int guarded(Body&& body) {
    try {
        return body();
    } catch (const c10::Error& e) {
        std::fprintf(stderr, "ATen: %s\n", e.what_without_backtrace());
        return 2;
    }
}

}  // namespace repro
