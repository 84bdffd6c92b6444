// XNNPACK's output clamp, as the xnnpack adapter uses its operators with
// the range [-inf, +inf], alone: a NaN result comes out as -inf.
//   add f32|f16      add(NaN, 1), add(1, NaN), add(+inf, -inf)   (C-EXC-01, C-CMP-03 elementwise.add)
//   mul f32|f16      mul(NaN, 2), mul(2, NaN), mul(+0, +inf)     (C-EXC-01, C-CMP-03 elementwise.mul)
//   matmul f32|f16   a row of A holding a NaN, or +inf against 0 (C-EXC-01 matmul)
//   softmax f32      a row that is all -inf, a row holding a NaN  (C-EXC-01 softmax)
// Every one of these is NaN in IEEE 754 arithmetic (and in the catalog).
// The operators' micro-kernels end with max(acc, min) then min(acc, max)
// (_mm256_max_ps(vacc, vmin) in src/f32-gemm, src/f32-vbinary,
// src/f16-vbinary and the softmax's final src/f32-vbinary vmulc): x86 MAXPS
// returns its second operand when either is NaN, so NaN becomes min, -inf.
// Usage: clamp_nan add|mul|matmul|softmax f32|f16. Exit 0: NaN came out as
// -inf (seen); 1: every NaN stayed NaN; 2: usage.
#include <string>

#include "repro.hpp"

using repro::bits;

namespace {

constexpr std::uint16_t kNan16 = 0x7e00, kOne16 = 0x3c00, kTwo16 = 0x4000, kInf16 = 0x7c00, kNegInf16 = 0xfc00,
                        kZero16 = 0x0000;

// How many of `got` are -inf where NaN is due (each in its own line).
int count_f32(const char* what, const std::vector<float>& got) {
    int minus_inf = 0;
    for (const float y : got) minus_inf += y == -repro::kInf;
    std::printf("  %-34s -> 0x%08x (%d of %zu -inf)\n", what, bits(got[0]), minus_inf, got.size());
    return minus_inf;
}
int count_f16(const char* what, const std::vector<std::uint16_t>& got) {
    int minus_inf = 0;
    for (const std::uint16_t y : got) minus_inf += y == kNegInf16;
    std::printf("  %-34s -> 0x%04x (%d of %zu -inf)\n", what, got[0], minus_inf, got.size());
    return minus_inf;
}

// 64 copies of (a, b): the vector bodies run, not only the tails.
// `invalid_a` op `invalid_b` is an invalid operation (NaN); `other` is the
// number beside each NaN operand.
int binary(repro::Binary kind, bool f16, const char* name, float invalid_a, float invalid_b, float other) {
    const std::size_t n = 64;
    int seen = 0;
    if (!f16) {
        const float nan = std::nanf("");
        seen += count_f32((std::string(name) + "(NaN, x)").c_str(),
                          repro::binary_f32(kind, std::vector<float>(n, nan), std::vector<float>(n, other)));
        seen += count_f32((std::string(name) + "(x, NaN)").c_str(),
                          repro::binary_f32(kind, std::vector<float>(n, other), std::vector<float>(n, nan)));
        seen += count_f32((std::string(name) + "(invalid operation)").c_str(),
                          repro::binary_f32(kind, std::vector<float>(n, invalid_a), std::vector<float>(n, invalid_b)));
        return seen;
    }
    const std::uint16_t x16 = other == 2.0f ? kTwo16 : kOne16;
    const std::uint16_t a16 = invalid_a == 0.0f ? kZero16 : kInf16;
    const std::uint16_t b16 = invalid_b == -repro::kInf ? kNegInf16 : kInf16;
    seen +=
        count_f16((std::string(name) + "(NaN, x)").c_str(),
                  repro::binary_f16(kind, std::vector<std::uint16_t>(n, kNan16), std::vector<std::uint16_t>(n, x16)));
    seen +=
        count_f16((std::string(name) + "(x, NaN)").c_str(),
                  repro::binary_f16(kind, std::vector<std::uint16_t>(n, x16), std::vector<std::uint16_t>(n, kNan16)));
    seen += count_f16((std::string(name) + "(invalid operation)").c_str(),
                      repro::binary_f16(kind, std::vector<std::uint16_t>(n, a16), std::vector<std::uint16_t>(n, b16)));
    return seen;
}

// C [2, 16] = A [2, 3] x B [3, 16], B ones but for a row of zeros: row 0
// of A holds a NaN; row 1 is (0, +inf, 0), whose +inf meets B's zeros.
int matmul(bool f16) {
    const std::size_t m = 2, k = 3, n = 16;
    const float nan = std::nanf("");
    const std::vector<float> a{nan, 1, 1, 0, repro::kInf, 0};
    std::vector<float> b(k * n, 1.0f);
    for (std::size_t j = 0; j < n; ++j) b[1 * n + j] = 0.0f;  // row 1 of B: +inf * 0 in row 1 of C
    std::vector<float> c(m * n);
    if (!f16) {
        c = repro::matmul_f32(a, b, m, k, n);
    } else {
        const auto half = [](float x) -> std::uint16_t {
            return std::isnan(x) ? kNan16 : std::isinf(x) ? kInf16 : x == 1.0f ? kOne16 : kZero16;
        };
        std::vector<std::uint16_t> a16, b16;
        for (const float x : a) a16.push_back(half(x));
        for (const float x : b) b16.push_back(half(x));
        const auto c16 = repro::matmul_f16(a16, b16, m, k, n);
        for (std::size_t i = 0; i < c.size(); ++i) c[i] = repro::half_value(c16[i]);
    }
    const int row0 = count_f32("row (NaN, 1, 1) . ones", std::vector<float>(c.begin(), c.begin() + n));
    const int row1 = count_f32("row (0, +inf, 0) . (1, 0, 1)", std::vector<float>(c.begin() + n, c.end()));
    return row0 + row1;
}

int softmax() {
    const std::size_t n = 17;
    const float nan = std::nanf("");
    std::vector<float> x(2 * n, -repro::kInf);
    for (std::size_t j = 0; j < n; ++j) x[n + j] = static_cast<float>(j) / 4;
    x[n + 3] = nan;
    const auto y = repro::softmax(x, n);
    const int masked = count_f32("row of 17 x -inf", std::vector<float>(y.begin(), y.begin() + n));
    const int with_nan = count_f32("row of 17 holding one NaN", std::vector<float>(y.begin() + n, y.end()));
    return masked + with_nan;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "", dtype = argc > 2 ? argv[2] : "f32";
    const bool f16 = dtype == "f16";
    if ((mode != "add" && mode != "mul" && mode != "matmul" && mode != "softmax") || (dtype != "f32" && !f16) ||
        (mode == "softmax" && f16)) {
        std::fprintf(stderr, "usage: clamp_nan add|mul|matmul|softmax f32|f16 (softmax: f32)\n");
        return 2;
    }
    repro::init();
    std::printf("XNNPACK %s %s, output range [-inf, +inf], no thread pool:\n", mode.c_str(), dtype.c_str());
    int seen = 0;
    if (mode == "add")
        seen = binary(repro::Binary::add, f16, "add", repro::kInf, -repro::kInf, 1.0f);
    else if (mode == "mul")
        seen = binary(repro::Binary::multiply, f16, "mul", 0.0f, repro::kInf, 2.0f);
    else if (mode == "matmul")
        seen = matmul(f16);
    else
        seen = softmax();
    return repro::verdict(seen > 0, "XNNPACK's output clamp turns NaN results into -inf");
}
