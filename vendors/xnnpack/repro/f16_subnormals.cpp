// XNNPACK flushes f32 subnormals but keeps f16 ones, as the xnnpack
// adapter calls it (claim subnormals: flush), alone:
//   cast-f32-f16  f32 2^-24 (normal) to f16: the subnormal 0x0001, not 0  (C-CMP-02 cast f32-f16)
//   cast-f16-f32  the f16 subnormal 0x0001 to f32: 2^-24, not 0           (C-CMP-02 cast f16-f32)
//   add           f16 0x0100 + 0x0100: the subnormal 0x0200, not 0        (C-CMP-02 elementwise.add f16)
//   mul           f16 0.5 x 0x0200: the subnormal 0x0100, not 0           (C-CMP-02 elementwise.mul f16)
//   matmul        f16 fully connected 2^-7 x 2^-10: 2^-17, not 0          (C-CMP-02 matmul f16, f16_matmul=offer)
// and, for strict (which judges as subnormals: preserve), the f32 side alone:
//   f32 OP        the f32 OP's subnormal result is 0 (OP: add, mul, maximum,  (C-CMP-02 OP f32, strict)
//                 matmul, softmax, sigmoid)
// beside f32 add of 2^-140 + 2^-140, which XNNPACK flushes to 0 (2^-139
// is subnormal). xnn_run_operator runs every operator with
// PTHREADPOOL_FLAG_DISABLE_DENORMALS (src/operator-run.c), MXCSR's FTZ and
// DAZ on x86; the F16C conversions XNNPACK's f16 kernels load and store
// with (VCVTPH2PS, VCVTPS2PH) do not flush f16 values, and f16
// subnormals are normal numbers once widened to f32.
// Usage: f16_subnormals cast-f32-f16|cast-f16-f32|add|mul|matmul, or
// f16_subnormals f32 OP. Exit 0: the f16 subnormal survives while f32 is
// flushed (f32 OP: the f32 result is flushed) (seen); 1: not; 2: usage.
#include <string>

#include "repro.hpp"

using repro::bits;

namespace {

// One f16 operation on (a, b): XNNPACK's result bits.
std::uint16_t f16_result(const std::string& mode, std::uint16_t a, std::uint16_t b) {
    if (mode == "add") return repro::binary_f16(repro::Binary::add, {a}, {b})[0];
    if (mode == "mul") return repro::binary_f16(repro::Binary::multiply, {a}, {b})[0];
    return repro::matmul_f16({a}, {b}, 1, 1, 1)[0];
}

std::uint16_t to_f16(float x) {
    xnn_operator_t op = nullptr;
    repro::check(xnn_create_convert_nc_f32_f16(1, 1, 1, 0, &op), "xnn_create_convert_nc_f32_f16");
    const auto in = repro::room(std::vector<float>{x});
    std::uint16_t y = 0xffff;
    repro::check(xnn_setup_convert_nc_f32_f16(op, 1, in.data(), &y, nullptr), "xnn_setup_convert_nc_f32_f16");
    repro::run(op);
    return y;
}

float to_f32(std::uint16_t x) {
    xnn_operator_t op = nullptr;
    repro::check(xnn_create_convert_nc_f16_f32(1, 1, 1, 0, &op), "xnn_create_convert_nc_f16_f32");
    const auto in = repro::room(std::vector<std::uint16_t>{x});
    float y = std::nanf("");
    repro::check(xnn_setup_convert_nc_f16_f32(op, 1, in.data(), &y, nullptr), "xnn_setup_convert_nc_f16_f32");
    repro::run(op);
    return y;
}

// The f32 operator OP on inputs whose IEEE result is a subnormal: XNNPACK's
// result and the IEEE one.
struct F32Result {
    float got, ieee;
};
F32Result f32_result(const std::string& op) {
    const float tiny = std::ldexp(1.0f, -140), small = std::ldexp(1.0f, -70);
    if (op == "add") return {repro::binary_f32(repro::Binary::add, {tiny}, {tiny})[0], tiny + tiny};
    if (op == "mul") return {repro::binary_f32(repro::Binary::multiply, {small}, {small})[0], small * small};
    if (op == "maximum") return {repro::binary_f32(repro::Binary::maximum, {tiny}, {-1.0f})[0], tiny};
    if (op == "matmul") return {repro::matmul_f32({small}, {small}, 1, 1, 1)[0], small * small};
    const float e = std::exp(-100.0f);  // a subnormal: e^-100 / (1 + e^-100) is e^-100 in f32
    if (op == "softmax") return {repro::softmax({0.0f, -100.0f}, 2)[1], e};
    return {repro::sigmoid({-100.0f})[0], e};
}

int f32_flush(const std::string& op) {
    if (op != "add" && op != "mul" && op != "maximum" && op != "matmul" && op != "softmax" && op != "sigmoid") {
        std::fprintf(stderr, "usage: f16_subnormals f32 add|mul|maximum|matmul|softmax|sigmoid\n");
        return 2;
    }
    const F32Result r = f32_result(op);
    std::printf("XNNPACK f32 %s: 0x%08x (IEEE: 0x%08x, a subnormal)\n", op.c_str(), bits(r.got), bits(r.ieee));
    return repro::verdict(r.got == 0.0f && r.ieee != 0.0f, "XNNPACK flushes the f32 subnormal result to 0");
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "f32") {
        repro::init();
        return f32_flush(argc > 2 ? argv[2] : "");
    }
    if (mode != "cast-f32-f16" && mode != "cast-f16-f32" && mode != "add" && mode != "mul" && mode != "matmul") {
        std::fprintf(stderr, "usage: f16_subnormals cast-f32-f16|cast-f16-f32|add|mul|matmul | f32 OP\n");
        return 2;
    }
    repro::init();
    const float tiny = std::ldexp(1.0f, -140);
    const float f32_sum = repro::binary_f32(repro::Binary::add, {tiny}, {tiny})[0];
    std::printf("f32 add 2^-140 + 2^-140 = 0x%08x (IEEE: 0x%08x)\n", bits(f32_sum), bits(tiny + tiny));
    const bool f32_flushed = f32_sum == 0.0f;
    bool f16_kept = false;
    if (mode == "cast-f32-f16") {
        const std::uint16_t y = to_f16(std::ldexp(1.0f, -24));
        std::printf("convert f32 2^-24 -> f16 0x%04x (IEEE: 0x0001; flushed: 0x0000)\n", y);
        f16_kept = y == 0x0001;
    } else if (mode == "cast-f16-f32") {
        const float y = to_f32(0x0001);
        std::printf("convert f16 0x0001 -> f32 0x%08x (IEEE: 0x33800000; as zero: 0x00000000)\n", bits(y));
        f16_kept = bits(y) == 0x33800000u;
    } else {
        struct Case {
            std::uint16_t a, b, ieee;
        };
        const Case c = mode == "add"   ? Case{0x0100, 0x0100, 0x0200}
                       : mode == "mul" ? Case{0x3800, 0x0200, 0x0100}
                                       : Case{0x2000, 0x1400, 0x0080};
        const std::uint16_t y = f16_result(mode, c.a, c.b);
        std::printf("f16 %s 0x%04x, 0x%04x = 0x%04x (IEEE: 0x%04x; flushed: 0x0000)\n", mode.c_str(), c.a, c.b, y,
                    c.ieee);
        f16_kept = y == c.ieee;
    }
    return repro::verdict(f32_flushed && f16_kept, "XNNPACK flushes f32 subnormals and keeps f16 subnormals");
}
