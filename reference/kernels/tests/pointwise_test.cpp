// The pointwise kernels (unary, elementwise, cast, gather) against the
// oracles, their calibration violations (each passes the functional test
// and breaks its contract), and the violations table.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "kcs/reference/cast_oracle.hpp"
#include "kcs/reference/elementwise_oracle.hpp"
#include "kcs/reference/formats.hpp"
#include "kcs/reference/gather_oracle.hpp"
#include "kcs/reference/kernels.hpp"
#include "kcs/reference/testing/splitmix64.hpp"
#include "kcs/reference/unary_functions.hpp"
#include "kcs/reference/unary_oracle.hpp"

namespace kcs::kernels {
namespace {

using ref::Format;
using ref::UnaryFunction;

constexpr Dtype kFloatDtypes[] = {Dtype::f32, Dtype::f16, Dtype::bf16};

Format format_of(Dtype dtype) {
    switch (dtype) {
        case Dtype::f16: return Format::f16;
        case Dtype::bf16: return Format::bf16;
        default: return Format::f32;
    }
}

// A host tensor of encodings: f32, f16 and bf16 elements are set and read
// as bit patterns (low 16 bits for f16 and bf16), index dtypes as integers.
struct HostTensor {
    Dtype dtype;
    std::vector<std::int64_t> shape;
    std::vector<unsigned char> bytes;

    HostTensor(Dtype d, std::vector<std::int64_t> s) : dtype(d), shape(std::move(s)) {
        std::int64_t n = 1;
        for (auto e : shape) n *= e;
        bytes.assign(static_cast<std::size_t>(n) * size_of(dtype), 0xA5);  // poison, as the harness does
    }
    std::size_t size() const { return bytes.size() / size_of(dtype); }

    void set_bits(std::size_t i, std::uint32_t bits) {
        if (size_of(dtype) == 4) std::memcpy(&bytes[i * 4], &bits, 4);
        else {
            const auto half = static_cast<std::uint16_t>(bits);
            std::memcpy(&bytes[i * 2], &half, 2);
        }
    }
    std::uint32_t bits(std::size_t i) const {
        if (size_of(dtype) == 4) {
            std::uint32_t b;
            std::memcpy(&b, &bytes[i * 4], 4);
            return b;
        }
        std::uint16_t h;
        std::memcpy(&h, &bytes[i * 2], 2);
        return h;
    }
    void set_value(std::size_t i, double v) { set_bits(i, ref::encode(format_of(dtype), v)); }
    double value(std::size_t i) const { return ref::decode(format_of(dtype), bits(i)); }
    void set_index(std::size_t i, std::int64_t v) {
        if (dtype == Dtype::i32) {
            const auto narrow = static_cast<std::int32_t>(v);
            std::memcpy(&bytes[i * 4], &narrow, 4);
        } else {
            std::memcpy(&bytes[i * 8], &v, 8);
        }
    }

    Tensor view() { return Tensor{bytes.data(), dtype, shape, {}}; }
};

Result run_call(const std::string& name, const std::string& function, std::vector<HostTensor*> inputs,
                HostTensor& output, const Settings& settings = {}) {
    OpCall call;
    call.name = name;
    call.function = function;
    for (auto* t : inputs) call.inputs.push_back(t->view());
    call.outputs.push_back(output.view());
    return run(call, settings);
}

// ---- inputs ---------------------------------------------------------------

// Encodings of every special and edge value a test should see, then
// `count` normal(0, 1) values and `count` uniformly random bit patterns.
std::vector<std::uint32_t> test_patterns(Dtype dtype, std::size_t count, std::uint64_t seed) {
    const Format format = format_of(dtype);
    std::vector<std::uint32_t> out;
    for (double v : {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 4.0, 9.0, 0x1p-5, 1e-3, -1e-3, 88.5, -88.5, 89.0, -100.0,
                     -104.0, 10.8, 11.2, -12.0, -17.0, 65504.0, -65504.0, 1e30, -1e30, 0x1p-126, 0x1p-140,
                     0x1p-149, -0x1p-149, 0x1p-24, 0x1p-14, -0x1p-20})
        out.push_back(ref::encode(format, v));
    for (double v : {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                     std::numeric_limits<double>::quiet_NaN()})
        out.push_back(ref::encode(format, v));
    ref::testing::SplitMix64 random(seed);
    for (std::size_t i = 0; i < count; ++i) out.push_back(ref::encode(format, random.normal()));
    const std::uint64_t mask = format == Format::f32 ? 0xFFFFFFFFu : 0xFFFFu;
    for (std::size_t i = 0; i < count; ++i) out.push_back(static_cast<std::uint32_t>(random.next() & mask));
    return out;
}

// Every encoding of a 16-bit format.
std::vector<std::uint32_t> all_patterns_16() {
    std::vector<std::uint32_t> out(65536);
    for (std::uint32_t b = 0; b < 65536; ++b) out[b] = b;
    return out;
}

HostTensor tensor_of(Dtype dtype, const std::vector<std::uint32_t>& patterns) {
    HostTensor t(dtype, {static_cast<std::int64_t>(patterns.size())});
    for (std::size_t i = 0; i < patterns.size(); ++i) t.set_bits(i, patterns[i]);
    return t;
}

std::vector<double> normal_values(std::size_t n, std::uint64_t seed) {
    ref::testing::SplitMix64 random(seed);
    std::vector<double> v(n);
    for (auto& x : v) x = random.normal();
    return v;
}

// ---- unary ------------------------------------------------------------------

// C-CMP-01's ulp table (spec/v1/classes/C-CMP-01.yaml).
std::uint64_t ulp_bound(UnaryFunction f, Dtype dtype) {
    static const std::map<UnaryFunction, std::array<std::uint64_t, 3>> table{
        {UnaryFunction::exp, {3, 2, 2}},  {UnaryFunction::log, {3, 2, 2}},      {UnaryFunction::tanh, {5, 2, 2}},
        {UnaryFunction::erf, {16, 4, 4}}, {UnaryFunction::gelu, {33, 4, 4}},   {UnaryFunction::sigmoid, {8, 2, 2}},
        {UnaryFunction::rsqrt, {2, 1, 1}},
    };
    return table.at(f)[dtype == Dtype::f32 ? 0 : dtype == Dtype::f16 ? 1 : 2];
}

struct UlpSurvey {
    std::uint64_t worst = 0;
    std::uint32_t worst_input = 0;
};

// Runs unary `f` over the patterns and measures every result against the
// correctly rounded value. Special inputs and results (zeros, infinities,
// NaN) must match exactly, the sign of zero included.
UlpSurvey survey_unary(UnaryFunction f, Dtype dtype, const std::vector<std::uint32_t>& patterns,
                       const Settings& settings = {}) {
    const Format format = format_of(dtype);
    HostTensor x = tensor_of(dtype, patterns);
    HostTensor y(dtype, x.shape);
    const Result r = run_call("unary", std::string(ref::unary_function_name(f)), {&x}, y, settings);
    EXPECT_EQ(r.status, Status::ok) << r.message;
    UlpSurvey survey;
    for (std::size_t i = 0; i < patterns.size(); ++i) {
        const std::uint32_t cr = ref::correctly_rounded_bits(f, format, patterns[i]);
        const std::uint64_t err = ref::ulp_distance(format, y.bits(i), cr);
        const auto cls = ref::classify(format, cr);
        const bool exact_kind = cls == ref::FloatClass::zero || cls == ref::FloatClass::infinite;
        if (settings.violation == Violation::none && exact_kind) {
            EXPECT_EQ(y.bits(i), cr) << ref::unary_function_name(f) << " " << name_of(dtype) << " x bits 0x"
                                     << std::hex << patterns[i];
        }
        if (err > survey.worst) survey = {err, patterns[i]};
    }
    return survey;
}

TEST(Unary, EveryFunctionMeetsTheUlpTableOnSampledF32) {
    const auto patterns = test_patterns(Dtype::f32, 16384, 11);
    for (const UnaryFunction f : ref::kUnaryFunctions) {
        const UlpSurvey s = survey_unary(f, Dtype::f32, patterns);
        EXPECT_LE(s.worst, ulp_bound(f, Dtype::f32))
            << ref::unary_function_name(f) << " worst input 0x" << std::hex << s.worst_input;
    }
}

TEST(Unary, EveryFunctionMeetsTheUlpTableOnEveryF16AndBf16Input) {
    for (const Dtype dtype : {Dtype::f16, Dtype::bf16}) {
        for (const UnaryFunction f : ref::kUnaryFunctions) {
            const UlpSurvey s = survey_unary(f, dtype, all_patterns_16());
            EXPECT_LE(s.worst, ulp_bound(f, dtype)) << ref::unary_function_name(f) << " " << name_of(dtype)
                                                    << " worst input 0x" << std::hex << s.worst_input;
        }
    }
}

TEST(Unary, ExpIsExactAtTheEdgesOfItsRange) {
    // The overflow threshold and the subnormal results, where fast_exp fails.
    std::vector<std::uint32_t> patterns;
    for (double edge : {88.72283935546875, -87.33654022216797, -103.97207641601562}) {
        const std::uint32_t b = ref::encode(Format::f32, edge);
        for (std::uint32_t k = 0; k < 17; ++k) patterns.push_back(b - 8 + k);
    }
    EXPECT_LE(survey_unary(UnaryFunction::exp, Dtype::f32, patterns).worst, 1u);
}

TEST(Unary, ResultsDoNotDependOnTheThreadCount) {
    const auto patterns = test_patterns(Dtype::f32, 40000, 3);
    HostTensor x = tensor_of(Dtype::f32, patterns);
    HostTensor one(Dtype::f32, x.shape), four(Dtype::f32, x.shape);
    ASSERT_EQ(run_call("unary", "gelu", {&x}, one, {Violation::none, 1, 0}).status, Status::ok);
    ASSERT_EQ(run_call("unary", "gelu", {&x}, four, {Violation::none, 4, 0}).status, Status::ok);
    EXPECT_EQ(one.bytes, four.bytes);
}

// tail-bf16-exp leaves a call of a multiple of 8 elements as reference-cpu
// computes it, and rounds the n mod 8 elements past its last vector of 8
// to bf16 precision: a call of 7 holds nothing else.
TEST(TailBf16Exp, OnlyTheElementsPastTheLastVectorOf8Change) {
    const auto patterns = test_patterns(Dtype::f32, 4096, 5);
    for (const std::size_t n : {std::size_t{16}, std::size_t{4096}, std::size_t{1031}, std::size_t{7}}) {
        HostTensor x = tensor_of(Dtype::f32, {patterns.begin(), patterns.begin() + static_cast<std::ptrdiff_t>(n)});
        HostTensor reference(Dtype::f32, x.shape), violator(Dtype::f32, x.shape);
        ASSERT_EQ(run_call("unary", "exp", {&x}, reference, {Violation::none, 1, 0}).status, Status::ok);
        ASSERT_EQ(run_call("unary", "exp", {&x}, violator, {Violation::tail_bf16_exp, 1, 0}).status, Status::ok);
        std::size_t changed = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (i < n - n % 8) {
                EXPECT_EQ(violator.bits(i), reference.bits(i)) << n << ": " << i;
                continue;
            }
            EXPECT_EQ(violator.bits(i), ref::encode(Format::f32, ref::bf16_to_f32(ref::f32_to_bf16(
                                                                       static_cast<float>(reference.value(i))))))
                << n << ": " << i;
            changed += violator.bits(i) != reference.bits(i);
        }
        if (n % 8 != 0) {
            EXPECT_GT(changed, 0u) << n;
        }
    }
}

TEST(Unary, DeclinesWhatItDoesNotCompute) {
    HostTensor x(Dtype::f32, {4}), y16(Dtype::f16, {4}), y(Dtype::f32, {4}), y5(Dtype::f32, {5});
    EXPECT_EQ(run_call("unary", "exp", {&x}, y16).status, Status::unsupported);  // f32 -> f16
    EXPECT_EQ(run_call("unary", "sin", {&x}, y).status, Status::unsupported);
    EXPECT_EQ(run_call("unary", "", {&x}, y).status, Status::invalid_argument);
    EXPECT_EQ(run_call("unary", "exp", {&x}, y5).status, Status::invalid_argument);
    HostTensor i32(Dtype::i32, {4}), yi(Dtype::i32, {4});
    EXPECT_EQ(run_call("unary", "exp", {&i32}, yi).status, Status::unsupported);
}

// ---- elementwise ------------------------------------------------------------

struct ElementwiseCase {
    std::string function;
    ref::ElementwiseFunction oracle;
};

const ElementwiseCase kElementwiseCases[] = {
    {"add", ref::ElementwiseFunction::add},
    {"mul", ref::ElementwiseFunction::mul},
    {"maximum", ref::ElementwiseFunction::maximum},
    {"mul_add", ref::ElementwiseFunction::mul_add},
};

TEST(Elementwise, EveryFunctionIsBitwiseTheOracleInEveryDtype) {
    for (const Dtype dtype : kFloatDtypes) {
        const Format format = format_of(dtype);
        // Operands from the edge set, normal values and random patterns,
        // each list shuffled against the others by a different seed.
        const auto pa = test_patterns(dtype, 8192, 21), pb = test_patterns(dtype, 8192, 22),
                   pc = test_patterns(dtype, 8192, 23);
        std::vector<std::uint32_t> b_patterns(pb.rbegin(), pb.rend());
        HostTensor a = tensor_of(dtype, pa), b = tensor_of(dtype, b_patterns), c = tensor_of(dtype, pc);
        std::vector<double> av(a.size()), bv(a.size()), cv(a.size());
        for (std::size_t i = 0; i < a.size(); ++i) av[i] = a.value(i), bv[i] = b.value(i), cv[i] = c.value(i);
        for (const auto& test : kElementwiseCases) {
            HostTensor out(dtype, a.shape);
            const bool ternary = test.function == "mul_add";
            const Result r = run_call("elementwise", test.function,
                                      ternary ? std::vector{&a, &b, &c} : std::vector{&a, &b}, out);
            ASSERT_EQ(r.status, Status::ok) << r.message;
            const auto expected = ref::elementwise_oracle(test.oracle, av, bv, ternary ? cv : std::vector<double>{},
                                                          format);
            std::size_t mismatches = 0;
            for (std::size_t i = 0; i < a.size(); ++i) {
                const std::uint32_t want = ref::encode(format, expected.value[i]);
                const bool both_nan = ref::is_nan(format, want) && ref::is_nan(format, out.bits(i));
                if (!both_nan && out.bits(i) != want && mismatches++ < 5)
                    ADD_FAILURE() << test.function << " " << name_of(dtype) << " a=" << av[i] << " b=" << bv[i]
                                  << " c=" << cv[i] << " got " << out.value(i) << " want " << expected.value[i];
            }
            EXPECT_EQ(mismatches, 0u) << test.function << " " << name_of(dtype);
        }
    }
}

// The IEEE probes of C-CMP-03: infinities, signed zeros and NaN operands.
TEST(Elementwise, IeeeSpecialValuesAndSignedZeros) {
    const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
    struct Probe {
        std::string function;
        double a, b, c, want;
    };
    const Probe probes[] = {
        {"add", inf, -inf, 0, nan},      {"mul", 0.0, inf, 0, nan},        {"mul_add", inf, 0, 1, nan},
        {"mul_add", inf, 1, -inf, nan},  {"add", -0.0, -0.0, 0, -0.0},    {"add", -0.0, 0.0, 0, 0.0},
        {"mul", -0.0, 3, 0, -0.0},       {"mul", -1, 0.0, 0, -0.0},       {"mul_add", -0.0, 1, -0.0, -0.0},
        {"maximum", 0.0, -0.0, 0, 0.0},  {"maximum", -0.0, 0.0, 0, 0.0},  {"maximum", 1.5, nan, 0, nan},
        {"maximum", nan, 1.5, 0, nan},   {"maximum", -inf, -1, 0, -1},    {"add", 1, 2, 0, 3},
    };
    for (const Dtype dtype : kFloatDtypes) {
        for (const Probe& p : probes) {
            HostTensor a(dtype, {1}), b(dtype, {1}), c(dtype, {1}), out(dtype, {1});
            a.set_value(0, p.a), b.set_value(0, p.b), c.set_value(0, p.c);
            const bool ternary = p.function == "mul_add";
            ASSERT_EQ(run_call("elementwise", p.function, ternary ? std::vector{&a, &b, &c} : std::vector{&a, &b},
                               out).status,
                      Status::ok);
            const double got = out.value(0);
            if (std::isnan(p.want)) {
                EXPECT_TRUE(std::isnan(got)) << p.function << "(" << p.a << ", " << p.b << ") " << name_of(dtype);
            } else {
                EXPECT_EQ(got, p.want) << p.function << "(" << p.a << ", " << p.b << ") " << name_of(dtype);
                EXPECT_EQ(std::signbit(got), std::signbit(p.want)) << p.function << " " << name_of(dtype);
            }
        }
    }
}

TEST(Elementwise, BinaryFunctionsIgnoreAThirdOperandAndMulAddNeedsIt) {
    HostTensor a(Dtype::f32, {2}), b(Dtype::f32, {2}), c(Dtype::f32, {2}), out(Dtype::f32, {2});
    for (std::size_t i = 0; i < 2; ++i) a.set_value(i, 1.0), b.set_value(i, 2.0), c.set_value(i, 4.0);
    ASSERT_EQ(run_call("elementwise", "add", {&a, &b, &c}, out).status, Status::ok);
    EXPECT_EQ(out.value(1), 3.0);
    EXPECT_EQ(run_call("elementwise", "mul_add", {&a, &b}, out).status, Status::invalid_argument);
    HostTensor b16(Dtype::f16, {2}), short_b(Dtype::f32, {1});
    EXPECT_EQ(run_call("elementwise", "add", {&a, &b16}, out).status, Status::unsupported);
    EXPECT_EQ(run_call("elementwise", "add", {&a, &short_b}, out).status, Status::invalid_argument);
    EXPECT_EQ(run_call("elementwise", "sub", {&a, &b}, out).status, Status::unsupported);
}

// ---- cast ---------------------------------------------------------------------

TEST(Cast, WideningIsExactForEveryF16AndBf16Input) {
    for (const Dtype from : {Dtype::f16, Dtype::bf16}) {
        HostTensor x = tensor_of(from, all_patterns_16());
        HostTensor y(Dtype::f32, x.shape);
        ASSERT_EQ(run_call("cast", "", {&x}, y).status, Status::ok);
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double want = ref::cast_oracle(x.value(i), format_of(from), Format::f32);
            if (std::isnan(want)) {
                ASSERT_TRUE(std::isnan(y.value(i))) << std::hex << x.bits(i);
            } else {
                ASSERT_EQ(y.value(i), want) << std::hex << x.bits(i);
                ASSERT_EQ(std::signbit(y.value(i)), std::signbit(want));
            }
        }
    }
}

TEST(Cast, NarrowingRoundsOnceToNearestEven) {
    for (const Dtype to : {Dtype::f16, Dtype::bf16}) {
        auto patterns = test_patterns(Dtype::f32, 1 << 16, 31);
        // Overflow thresholds and ties: f16 65520 (to inf) and its neighbour
        // below, bf16 (2 - 2^-8) 2^127, a tie on the f16 subnormal grid.
        for (double v : {65520.0, 65519.99609375, 0x1.FFp127, 0x1.FEFFFEp127, 3 * 0x1p-25, 0x1.0018p0})
            patterns.push_back(ref::encode(Format::f32, v));
        HostTensor x = tensor_of(Dtype::f32, patterns);
        HostTensor y(to, x.shape);
        ASSERT_EQ(run_call("cast", "", {&x}, y).status, Status::ok);
        for (std::size_t i = 0; i < x.size(); ++i) {
            const double want = ref::cast_oracle(x.value(i), Format::f32, format_of(to));
            if (std::isnan(want)) {
                ASSERT_TRUE(std::isnan(y.value(i))) << std::hex << x.bits(i);
            } else {
                ASSERT_EQ(y.bits(i), ref::encode(format_of(to), want)) << std::hex << "x 0x" << x.bits(i);
            }
        }
    }
}

TEST(Cast, DeclinesConversionsOutsideItsConfigs) {
    HostTensor x16(Dtype::f16, {3}), ybf(Dtype::bf16, {3}), x32(Dtype::f32, {3}), y32(Dtype::f32, {3});
    EXPECT_EQ(run_call("cast", "", {&x16}, ybf).status, Status::unsupported);
    EXPECT_EQ(run_call("cast", "", {&x32}, y32).status, Status::unsupported);
}

// ---- gather -------------------------------------------------------------------

struct GatherProblem {
    HostTensor table;
    HostTensor index;
    HostTensor out;
};

GatherProblem gather_problem(Dtype table_dtype, Dtype index_dtype, std::int64_t rows, std::int64_t cols,
                             const std::vector<std::int64_t>& indices) {
    GatherProblem p{HostTensor(table_dtype, {rows, cols}),
                    HostTensor(index_dtype, {static_cast<std::int64_t>(indices.size())}),
                    HostTensor(table_dtype, {static_cast<std::int64_t>(indices.size()), cols})};
    ref::testing::SplitMix64 random(41);
    const std::uint64_t mask = size_of(table_dtype) == 4 ? 0xFFFFFFFFu : 0xFFFFu;
    for (std::size_t i = 0; i < p.table.size(); ++i)  // any bits: NaN payloads, subnormals, -0
        p.table.set_bits(i, static_cast<std::uint32_t>(random.next() & mask));
    for (std::size_t n = 0; n < indices.size(); ++n) p.index.set_index(n, indices[n]);
    return p;
}

TEST(Gather, CopiesRowsBitForBitInEveryConfig) {
    const std::vector<std::int64_t> indices = {3, 0, 16, 3, 7, 16, 1};
    for (const Dtype table : kFloatDtypes) {
        for (const Dtype index : {Dtype::i32, Dtype::i64}) {
            GatherProblem p = gather_problem(table, index, 17, 13, indices);
            const Result r = run_call("gather", "", {&p.table, &p.index}, p.out, {Violation::none, 3, 0});
            ASSERT_EQ(r.status, Status::ok) << r.message;
            std::vector<std::uint32_t> table_bits(p.table.size());
            for (std::size_t i = 0; i < table_bits.size(); ++i) table_bits[i] = p.table.bits(i);
            const auto want = ref::gather_oracle<std::uint32_t>(table_bits, {17, 13}, indices, ref::OobPolicy::raise);
            ASSERT_EQ(want.status, ref::GatherStatus::ok);
            for (std::size_t i = 0; i < want.value.size(); ++i) ASSERT_EQ(p.out.bits(i), want.value[i]) << i;
        }
    }
}

TEST(Gather, RaisesOnAnyIndexOutsideTheTable) {
    for (const std::int64_t bad : {std::int64_t{17}, std::int64_t{-1}, std::int64_t{1} << 40}) {
        const Dtype index = bad > std::numeric_limits<std::int32_t>::max() ? Dtype::i64 : Dtype::i32;
        GatherProblem p = gather_problem(Dtype::f32, index, 17, 4, {0, 5, 2, bad, 1});
        const Result r = run_call("gather", "", {&p.table, &p.index}, p.out);
        EXPECT_EQ(r.status, Status::out_of_range);
        EXPECT_NE(r.message.find("index[3] = " + std::to_string(bad)), std::string::npos) << r.message;
    }
    GatherProblem empty = gather_problem(Dtype::f16, Dtype::i64, 0, 4, {0});
    EXPECT_EQ(run_call("gather", "", {&empty.table, &empty.index}, empty.out).status, Status::out_of_range);
}

TEST(Gather, ChecksItsShapes) {
    GatherProblem p = gather_problem(Dtype::f32, Dtype::i32, 5, 3, {1, 2});
    HostTensor wrong_out(Dtype::f32, {2, 4}), f16_out(Dtype::f16, {2, 3}), float_index(Dtype::f32, {2});
    EXPECT_EQ(run_call("gather", "", {&p.table, &p.index}, wrong_out).status, Status::invalid_argument);
    EXPECT_EQ(run_call("gather", "", {&p.table, &p.index}, f16_out).status, Status::unsupported);
    EXPECT_EQ(run_call("gather", "", {&p.table, &float_index}, p.out).status, Status::unsupported);
}

// ---- violations -----------------------------------------------------------------

// The basic functional test of SPEC.md section 6: |y - r| <= atol + rtol |r|
// with r = RN_out(y*), atol = rtol = 1e-2, NaN failing. Returns the largest
// |y - r| / (atol + rtol |r|): the test passes below 1.
double allclose_ratio(const HostTensor& y, const std::vector<double>& reference) {
    double worst = 0.0;
    for (std::size_t i = 0; i < reference.size(); ++i) {
        const double got = y.value(i), r = reference[i];
        if (std::isnan(got) || std::isnan(r)) return std::numeric_limits<double>::infinity();
        worst = std::max(worst, std::fabs(got - r) / (1e-2 + 1e-2 * std::fabs(r)));
    }
    return worst;
}

constexpr std::size_t kFunctionalElements = 65536;

double unary_functional_ratio(UnaryFunction f, Dtype dtype, Violation violation) {
    HostTensor x(dtype, {static_cast<std::int64_t>(kFunctionalElements)});
    const auto values = normal_values(kFunctionalElements, 51);
    for (std::size_t i = 0; i < values.size(); ++i) x.set_value(i, values[i]);
    HostTensor y(dtype, x.shape);
    EXPECT_EQ(run_call("unary", std::string(ref::unary_function_name(f)), {&x}, y, {violation, 1, 0}).status,
              Status::ok);
    std::vector<double> exact(kFunctionalElements);
    for (std::size_t i = 0; i < exact.size(); ++i) exact[i] = ref::unary_oracle(f, x.value(i), format_of(dtype));
    return allclose_ratio(y, exact);
}

double unary_at(UnaryFunction f, Dtype dtype, double x, Violation violation) {
    HostTensor in(dtype, {1}), out(dtype, {1});
    in.set_value(0, x);
    EXPECT_EQ(run_call("unary", std::string(ref::unary_function_name(f)), {&in}, out, {violation, 1, 0}).status,
              Status::ok);
    return out.value(0);
}

TEST(FastExp, PassesTheFunctionalTest) {
    for (const Dtype dtype : kFloatDtypes)
        EXPECT_LT(unary_functional_ratio(UnaryFunction::exp, dtype, Violation::fast_exp), 1.0) << name_of(dtype);
}

TEST(FastExp, IsAccurateInTheCoreAndWrongAtTheEdges) {
    for (const Dtype dtype : kFloatDtypes) {
        const Format format = format_of(dtype);
        // The core: arguments whose exp is a normal number below the top
        // half binade meet exp's bound.
        std::vector<std::uint32_t> core;
        const double low = dtype == Dtype::f16 ? -9.0 : -87.0, high = dtype == Dtype::f16 ? 10.5 : 88.0;
        for (int k = 0; k <= 4000; ++k) core.push_back(ref::encode(format, low + (high - low) * k / 4000));
        const UlpSurvey s = survey_unary(UnaryFunction::exp, dtype, core, {Violation::fast_exp, 1, 0});
        EXPECT_LE(s.worst, ulp_bound(UnaryFunction::exp, dtype)) << name_of(dtype);

        // Underflow: no subnormal results.
        const double underflow = ref::round_to(format, dtype == Dtype::f16 ? -12.0 : -90.0);
        EXPECT_GT(ref::unary_oracle(UnaryFunction::exp, underflow, format), 0.0);
        EXPECT_EQ(unary_at(UnaryFunction::exp, dtype, underflow, Violation::fast_exp), 0.0) << name_of(dtype);
        // Overflow edge: infinite while exp is still finite.
        const double edge = ref::round_to(format, dtype == Dtype::f16 ? 10.8 : 88.5);
        EXPECT_TRUE(std::isfinite(ref::unary_oracle(UnaryFunction::exp, edge, format)));
        EXPECT_TRUE(std::isinf(unary_at(UnaryFunction::exp, dtype, edge, Violation::fast_exp))) << name_of(dtype);
    }
}

TEST(ApproxTanh, PassesTheFunctionalTest) {
    for (const Dtype dtype : kFloatDtypes)
        EXPECT_LT(unary_functional_ratio(UnaryFunction::tanh, dtype, Violation::approx_tanh), 1.0) << name_of(dtype);
}

TEST(ApproxTanh, IsAccurateInTheCoreAndCancelsForSmallArguments) {
    for (const Dtype dtype : kFloatDtypes) {
        const Format format = format_of(dtype);
        std::vector<std::uint32_t> core;
        for (int k = 0; k <= 4000; ++k) core.push_back(ref::encode(format, 0x1p-5 + (9.0 - 0x1p-5) * k / 4000));
        EXPECT_LE(survey_unary(UnaryFunction::tanh, dtype, core, {Violation::approx_tanh, 1, 0}).worst,
                  ulp_bound(UnaryFunction::tanh, dtype))
            << name_of(dtype);
    }
    // Small arguments: f32 (evaluated in double) and bf16 (in f32) lose
    // their significant bits; f16's smallest values are too large for that.
    for (const auto& [dtype, x] : {std::pair{Dtype::f32, 1e-20}, std::pair{Dtype::bf16, 1e-10}}) {
        const Format format = format_of(dtype);
        const std::uint32_t cr = ref::correctly_rounded_bits(UnaryFunction::tanh, format, ref::encode(format, x));
        const double got = unary_at(UnaryFunction::tanh, dtype, x, Violation::approx_tanh);
        EXPECT_GT(ref::ulp_distance(format, ref::encode(format, got), cr), 1000u) << name_of(dtype) << " " << got;
    }
}

TEST(ContractedMulAdd, PassesTheFunctionalTestAndFuses) {
    for (const Dtype dtype : kFloatDtypes) {
        const Format format = format_of(dtype);
        HostTensor a(dtype, {static_cast<std::int64_t>(kFunctionalElements)}), b(dtype, a.shape), c(dtype, a.shape);
        const auto av = normal_values(kFunctionalElements, 61), bv = normal_values(kFunctionalElements, 62),
                   cv = normal_values(kFunctionalElements, 63);
        for (std::size_t i = 0; i < av.size(); ++i) a.set_value(i, av[i]), b.set_value(i, bv[i]), c.set_value(i, cv[i]);
        HostTensor out(dtype, a.shape);
        ASSERT_EQ(run_call("elementwise", "mul_add", {&a, &b, &c}, out, {Violation::contracted_mul_add, 1, 0}).status,
                  Status::ok);
        std::vector<double> exact(av.size());
        for (std::size_t i = 0; i < exact.size(); ++i)
            exact[i] = ref::mul_add_oracle(a.value(i), b.value(i), c.value(i), format).unfused;
        EXPECT_LT(allclose_ratio(out, exact), 1.0) << name_of(dtype);

        // C-CMP-03's probe: c = -RN(a * b) leaves 0 unfused, the product's
        // rounding error fused.
        const double x = dtype == Dtype::f16 ? 8 + 0x1p-7 : dtype == Dtype::bf16 ? 1 + 0x1p-7 : 1 + 0x1p-12;
        HostTensor pa(dtype, {1}), pb(dtype, {1}), pc(dtype, {1}), po(dtype, {1});
        pa.set_value(0, x), pb.set_value(0, x), pc.set_value(0, -ref::round_to(format, x * x));
        ASSERT_EQ(run_call("elementwise", "mul_add", {&pa, &pb, &pc}, po, {Violation::contracted_mul_add, 1, 0}).status,
                  Status::ok);
        const auto want = ref::mul_add_oracle(x, x, pc.value(0), format);
        EXPECT_EQ(want.unfused, 0.0);
        EXPECT_NE(want.fused, 0.0);
        EXPECT_EQ(po.value(0), want.fused) << name_of(dtype);
    }
}

TEST(NanDroppingMax, PassesTheFunctionalTestAndDropsNan) {
    for (const Dtype dtype : kFloatDtypes) {
        HostTensor a(dtype, {static_cast<std::int64_t>(kFunctionalElements)}), b(dtype, a.shape), out(dtype, a.shape);
        const auto av = normal_values(kFunctionalElements, 71), bv = normal_values(kFunctionalElements, 72);
        std::vector<double> exact(av.size());
        for (std::size_t i = 0; i < av.size(); ++i) {
            a.set_value(i, av[i]), b.set_value(i, bv[i]);
            exact[i] = ref::maximum_oracle(a.value(i), b.value(i));
        }
        ASSERT_EQ(run_call("elementwise", "maximum", {&a, &b}, out, {Violation::nan_dropping_max, 1, 0}).status,
                  Status::ok);
        EXPECT_LT(allclose_ratio(out, exact), 1.0) << name_of(dtype);

        a.set_value(0, std::numeric_limits<double>::quiet_NaN());
        b.set_value(1, std::numeric_limits<double>::quiet_NaN());
        ASSERT_EQ(run_call("elementwise", "maximum", {&a, &b}, out, {Violation::nan_dropping_max, 1, 0}).status,
                  Status::ok);
        EXPECT_EQ(out.value(0), b.value(0)) << "maximum(NaN, b) must be NaN; the violation returns b";
        EXPECT_EQ(out.value(1), a.value(1));
    }
}

TEST(OobZeroUnderRaise, GathersInRangeRowsAndZeroesTheRestWithoutRaising) {
    GatherProblem p = gather_problem(Dtype::bf16, Dtype::i64, 17, 5, {2, 16, 0});
    ASSERT_EQ(run_call("gather", "", {&p.table, &p.index}, p.out, {Violation::oob_zero_under_raise, 1, 0}).status,
              Status::ok);
    for (std::size_t c = 0; c < 5; ++c) EXPECT_EQ(p.out.bits(5 + c), p.table.bits(16 * 5 + c));

    GatherProblem bad = gather_problem(Dtype::f32, Dtype::i32, 17, 5, {2, -1, 17});
    ASSERT_EQ(run_call("gather", "", {&bad.table, &bad.index}, bad.out, {Violation::oob_zero_under_raise, 1, 0}).status,
              Status::ok);
    for (std::size_t c = 0; c < 5; ++c) {
        EXPECT_EQ(bad.out.bits(c), bad.table.bits(2 * 5 + c));
        EXPECT_EQ(bad.out.bits(5 + c), 0u);   // +0 row for -1
        EXPECT_EQ(bad.out.bits(10 + c), 0u);  // and for 17
    }
}

TEST(Violations, TableNamesEveryViolationOnceWithItsClass) {
    std::map<std::string, int> seen;
    for (const ViolationInfo& v : violations()) {
        EXPECT_NE(v.violation, Violation::none);
        EXPECT_FALSE(v.description.empty()) << v.name;
        EXPECT_TRUE(v.class_id.starts_with("C-")) << v.name;
        EXPECT_EQ(++seen[std::string(v.name)], 1) << v.name;
        EXPECT_EQ(parse_violation(v.name), v.violation) << v.name;
    }
    EXPECT_EQ(parse_violation("none"), Violation::none);
    EXPECT_EQ(parse_violation("fast_exp"), std::nullopt);  // catalog ids use hyphens
}

}  // namespace
}  // namespace kcs::kernels
