// What the XNNPACK repros share: XNNPACK's operator API (xnnpack.h) as the
// xnnpack adapter calls it (no thread pool, output range [-inf, +inf],
// fully connected with XNN_FLAG_TRANSPOSE_WEIGHTS), the value of an f16
// bit pattern, and inputs padded by XNN_EXTRA_BYTES (the bits of a float,
// ulps and the verdict line are device_common/repro/float_bits.hpp's). No
// KCS code. Each repro exits 0 when it sees its behaviour, 1 when not, 2
// on a usage or XNNPACK error.
#pragma once
#include <xnnpack.h>

#include "float_bits.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace repro {

inline constexpr float kInf = INFINITY;

// The value of an f16 bit pattern, exactly (every f16 is an f32).
inline float half_value(std::uint16_t h) {
    const int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    const float sign = (h & 0x8000) ? -1.0f : 1.0f;
    if (exponent == 0x1f) return mantissa ? std::nanf("") : sign * kInf;
    if (exponent == 0) return sign * std::ldexp(static_cast<float>(mantissa), -24);
    return sign * std::ldexp(static_cast<float>(mantissa | 0x400), exponent - 25);
}
// Exits 2, saying which call failed, unless XNNPACK returned success.
inline void check(xnn_status status, const char* call) {
    if (status == xnn_status_success) return;
    std::fprintf(stderr, "%s returned xnn_status %d\n", call, static_cast<int>(status));
    std::exit(2);
}
inline void init() { check(xnn_initialize(nullptr), "xnn_initialize"); }

// A copy of `values` followed by XNN_EXTRA_BYTES of zeros ("The caller
// must allocate at least this many extra bytes after the tensor data
// passed to XNNPACK", xnnpack.h): what every input is passed as.
template <class T>
std::vector<T> room(const std::vector<T>& values) {
    std::vector<T> copy = values;
    copy.resize(values.size() + XNN_EXTRA_BYTES / sizeof(T));
    return copy;
}

// Runs an operator that has been set up, then deletes it.
inline void run(xnn_operator_t op) {
    check(xnn_run_operator(op, nullptr), "xnn_run_operator");
    xnn_delete_operator(op);
}

// C [m, n] = A [m, k] x B [k, n] in f32 by fully connected, as the adapter.
inline std::vector<float> matmul_f32(const std::vector<float>& a, const std::vector<float>& b, std::size_t m,
                                     std::size_t k, std::size_t n) {
    const auto a_room = room(a);
    xnn_operator_t op = nullptr;
    check(
        xnn_create_fully_connected_nc_f32(k, n, k, n, b.data(), nullptr, -kInf, kInf, XNN_FLAG_TRANSPOSE_WEIGHTS, &op),
        "xnn_create_fully_connected_nc_f32");
    std::vector<float> c(m * n);
    check(xnn_setup_fully_connected_nc_f32(op, m, a_room.data(), c.data(), nullptr),
          "xnn_setup_fully_connected_nc_f32");
    run(op);
    return c;
}

// The same in f16 (bit patterns in and out).
inline std::vector<std::uint16_t> matmul_f16(const std::vector<std::uint16_t>& a, const std::vector<std::uint16_t>& b,
                                             std::size_t m, std::size_t k, std::size_t n) {
    const auto a_room = room(a);
    xnn_operator_t op = nullptr;
    check(
        xnn_create_fully_connected_nc_f16(k, n, k, n, b.data(), nullptr, -kInf, kInf, XNN_FLAG_TRANSPOSE_WEIGHTS, &op),
        "xnn_create_fully_connected_nc_f16");
    std::vector<std::uint16_t> c(m * n);
    check(xnn_setup_fully_connected_nc_f16(op, m, a_room.data(), c.data(), nullptr),
          "xnn_setup_fully_connected_nc_f16");
    run(op);
    return c;
}

// The elementwise binary operators on N elements, as the adapter: one
// dimension, output range [-inf, +inf] where the operator has one.
enum class Binary { add, multiply, maximum };
inline std::vector<float> binary_f32(Binary kind, const std::vector<float>& a0, const std::vector<float>& b0) {
    const auto a = room(a0), b = room(b0);
    xnn_operator_t op = nullptr;
    const std::size_t shape[1] = {a0.size()};
    std::vector<float> y(a0.size());
    if (kind == Binary::add) {
        check(xnn_create_add_nd_f32(-kInf, kInf, 0, &op), "xnn_create_add_nd_f32");
        check(xnn_setup_add_nd_f32(op, 1, shape, 1, shape, a.data(), b.data(), y.data(), nullptr), "setup");
    } else if (kind == Binary::multiply) {
        check(xnn_create_multiply_nd_f32(-kInf, kInf, 0, &op), "xnn_create_multiply_nd_f32");
        check(xnn_setup_multiply_nd_f32(op, 1, shape, 1, shape, a.data(), b.data(), y.data(), nullptr), "setup");
    } else {
        check(xnn_create_maximum_nd_f32(0, &op), "xnn_create_maximum_nd_f32");
        check(xnn_setup_maximum_nd_f32(op, 1, shape, 1, shape, a.data(), b.data(), y.data(), nullptr), "setup");
    }
    run(op);
    return y;
}
inline std::vector<std::uint16_t> binary_f16(Binary kind, const std::vector<std::uint16_t>& a0,
                                             const std::vector<std::uint16_t>& b0) {
    const auto a = room(a0), b = room(b0);
    xnn_operator_t op = nullptr;
    const std::size_t shape[1] = {a0.size()};
    std::vector<std::uint16_t> y(a0.size());
    if (kind == Binary::add) {
        check(xnn_create_add_nd_f16(-kInf, kInf, 0, &op), "xnn_create_add_nd_f16");
        check(xnn_setup_add_nd_f16(op, 1, shape, 1, shape, a.data(), b.data(), y.data(), nullptr), "setup");
    } else {
        check(xnn_create_multiply_nd_f16(-kInf, kInf, 0, &op), "xnn_create_multiply_nd_f16");
        check(xnn_setup_multiply_nd_f16(op, 1, shape, 1, shape, a.data(), b.data(), y.data(), nullptr), "setup");
    }
    run(op);
    return y;
}

// softmax over rows of n, f32.
inline std::vector<float> softmax(const std::vector<float>& x, std::size_t n) {
    xnn_operator_t op = nullptr;
    check(xnn_create_softmax_nc_f32(n, n, n, 0, &op), "xnn_create_softmax_nc_f32");
    std::vector<float> y(x.size());
    const auto x_room = room(x);  // XNNPACK reads it in run(), not in setup
    check(xnn_setup_softmax_nc_f32(op, x.size() / n, x_room.data(), y.data(), nullptr), "xnn_setup_softmax_nc_f32");
    run(op);
    return y;
}

// sigmoid of every element, f32.
inline std::vector<float> sigmoid(const std::vector<float>& x) {
    xnn_operator_t op = nullptr;
    check(xnn_create_sigmoid_nc_f32(x.size(), x.size(), x.size(), 0, &op), "xnn_create_sigmoid_nc_f32");
    std::vector<float> y(x.size());
    const auto x_room = room(x);  // XNNPACK reads it in run(), not in setup
    check(xnn_setup_sigmoid_nc_f32(op, 1, x_room.data(), y.data(), nullptr), "xnn_setup_sigmoid_nc_f32");
    run(op);
    return y;
}


}  // namespace repro
