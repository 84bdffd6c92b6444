// A device adapter through the C ABI, against reference-cpu where the
// contracts demand bitwise agreement: gather copies every bit (NaN payloads
// included) and raises for an index out of range; cast and elementwise add,
// mul, maximum and mul_add round once, exactly; reduce_max returns one of
// the row's values. matmul agrees by design rather than by contract: both
// device adapters, like reference-cpu, sum each output in k order in f32.
// Built once per device adapter (kcs_device_adapter_tests).
#include <cstring>

#include "device_under_test.hpp"
#include "kcs/reference/testing/splitmix64.hpp"

namespace kcs::cpu_core::test {
namespace {

constexpr std::size_t kElements = 4099;  // a few thousand, not a multiple of any work-group size

TEST(DeviceGather, RaisesForAnOutOfRangeIndex) {
    SKIP_WITHOUT_DEVICE();
    const std::vector<std::int32_t> index{0, 2, -1, 1};
    Bytes index_bytes(index.size() * 4);
    std::memcpy(index_bytes.data(), index.data(), index_bytes.size());
    const std::vector<Operand> in{{KCS_DTYPE_F32, {3, 5}, random_bits(60, 2)}, {KCS_DTYPE_I32, {4}, index_bytes}};
    std::vector<Operand> out{{KCS_DTYPE_F32, {4, 5}, {}}};
    EXPECT_EQ(run_on(device_under_test().adapter.api(), device_under_test().options, "gather", "", in, out),
              KCS_OUT_OF_RANGE);
}

TEST(DeviceBitwise, GatherCopiesEveryBit) {
    SKIP_WITHOUT_DEVICE();
    const std::int64_t rows = 37, columns = 19, positions = 211;
    for (const kcs_dtype table : {KCS_DTYPE_F32, KCS_DTYPE_F16, KCS_DTYPE_BF16}) {
        for (const kcs_dtype index : {KCS_DTYPE_I32, KCS_DTYPE_I64}) {
            ref::testing::SplitMix64 random(table * 10 + index);
            Bytes index_bytes(static_cast<std::size_t>(positions) * element_size(index));
            for (std::int64_t n = 0; n < positions; ++n) {
                const std::int64_t row = static_cast<std::int64_t>(random.next() % rows);
                std::memcpy(index_bytes.data() + n * element_size(index), &row, element_size(index));  // little-endian
            }
            const std::vector<Operand> in{
                {table, {rows, columns}, random_bits(rows * columns * element_size(table), table)},
                {index, {positions}, index_bytes}};
            expect_bitwise_agreement("gather", "", in, {table, {positions, columns}, {}}, true);
        }
    }
}

// Rows longer than 65535 elements: lavapipe ends a shader loop after 65535
// iterations, which left the tail of every such row unwritten when one
// invocation copied a row. Rows of no elements still raise for a bad index.
TEST(DeviceBitwise, GatherCopiesRowsLongerThanAShaderLoopMayRun) {
    SKIP_WITHOUT_DEVICE();
    const std::int64_t rows = 3, columns = 70001;
    const std::vector<std::int32_t> index{2, 0, 2, 1};
    Bytes index_bytes(index.size() * 4);
    std::memcpy(index_bytes.data(), index.data(), index_bytes.size());
    const auto positions = static_cast<std::int64_t>(index.size());
    for (const kcs_dtype table : {KCS_DTYPE_F32, KCS_DTYPE_BF16}) {
        const std::vector<Operand> in{
            {table, {rows, columns}, random_bits(rows * columns * element_size(table), table + 40)},
            {KCS_DTYPE_I32, {positions}, index_bytes}};
        expect_bitwise_agreement("gather", "", in, {table, {positions, columns}, {}}, true);
    }
    const std::vector<std::int32_t> bad{0, -1};
    Bytes bad_bytes(bad.size() * 4);
    std::memcpy(bad_bytes.data(), bad.data(), bad_bytes.size());
    const std::vector<Operand> empty_rows{{KCS_DTYPE_F32, {rows, 0}, {}}, {KCS_DTYPE_I32, {2}, bad_bytes}};
    std::vector<Operand> out{{KCS_DTYPE_F32, {2, 0}, {}}};
    EXPECT_EQ(run_on(device_under_test().adapter.api(), device_under_test().options, "gather", "", empty_rows, out),
              KCS_OUT_OF_RANGE);
}

TEST(DeviceBitwise, CastRoundsOnceToNearestEven) {
    SKIP_WITHOUT_DEVICE();
    const std::pair<kcs_dtype, kcs_dtype> configs[] = {
        {KCS_DTYPE_F32, KCS_DTYPE_F16}, {KCS_DTYPE_F32, KCS_DTYPE_BF16},
        {KCS_DTYPE_F16, KCS_DTYPE_F32}, {KCS_DTYPE_BF16, KCS_DTYPE_F32}};
    for (const auto& [from, to] : configs) {
        const std::vector<Operand> in{{from, {kElements}, random_bits(kElements * element_size(from), from * 7 + to)}};
        expect_bitwise_agreement("cast", "", in, {to, {kElements}, {}});
    }
}

TEST(DeviceBitwise, ElementwiseRoundsEachOperationOnce) {
    SKIP_WITHOUT_DEVICE();
    for (const kcs_dtype dtype : {KCS_DTYPE_F32, KCS_DTYPE_F16, KCS_DTYPE_BF16}) {
        for (const std::string function : {"add", "mul", "maximum", "mul_add"}) {
            const std::size_t bytes = kElements * element_size(dtype);
            std::vector<Operand> in{{dtype, {kElements}, random_bits(bytes, dtype * 3 + 1)},
                                    {dtype, {kElements}, random_bits(bytes, dtype * 3 + 2)}};
            if (function == "mul_add") in.push_back({dtype, {kElements}, random_bits(bytes, dtype * 3 + 3)});
            expect_bitwise_agreement("elementwise", function, in, {dtype, {kElements}, {}});
        }
    }
}

// Finite values of magnitude 2^-7 to 2^3, either sign, random mantissas:
// sums of a few thousand products stay finite and round in most steps.
Bytes moderate_values(kcs_dtype dtype, std::size_t count, std::uint64_t seed) {
    ref::testing::SplitMix64 random(seed);
    Bytes out(count * element_size(dtype));
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint64_t r = random.next();
        auto bits = static_cast<std::uint32_t>((r & 0x807FFFFFu) | ((120u + (r >> 32) % 11u) << 23));  // an f32
        if (dtype == KCS_DTYPE_BF16) bits >>= 16;
        if (dtype == KCS_DTYPE_F16)  // the same sign and exponent, 10 bits of mantissa
            bits = ((bits >> 16) & 0x8000u) | ((((bits >> 23) & 0xFFu) - 112u) << 10) | ((bits >> 13) & 0x3FFu);
        std::memcpy(out.data() + i * element_size(dtype), &bits, element_size(dtype));  // little-endian
    }
    return out;
}

// Shapes that leave part of a work-item's rows or columns past the edge
// (fewer columns than one work-item's 16, not a multiple of 16, one row, a
// batch), and K long enough that the order of the sum shows.
TEST(DeviceBitwise, MatmulSumsEachOutputInKOrder) {
    SKIP_WITHOUT_DEVICE();
    const std::vector<std::vector<std::int64_t>> shapes{  // [batch, M, K, N]
        {1, 1, 5, 1}, {1, 7, 1031, 33}, {1, 3, 17, 15}, {1, 5, 9, 16}, {1, 33, 640, 130}, {2, 3, 9, 17}};
    const std::pair<kcs_dtype, kcs_dtype> configs[] = {{KCS_DTYPE_F32, KCS_DTYPE_F32}, {KCS_DTYPE_F16, KCS_DTYPE_F16},
                                                       {KCS_DTYPE_F16, KCS_DTYPE_F32}, {KCS_DTYPE_BF16, KCS_DTYPE_BF16},
                                                       {KCS_DTYPE_BF16, KCS_DTYPE_F32}};
    for (const auto& s : shapes)
        for (const auto& [in_dtype, out_dtype] : configs) {
            SCOPED_TRACE(::testing::Message() << "batch " << s[0] << ", [M, K, N] = [" << s[1] << ", " << s[2] << ", "
                                              << s[3] << "], dtypes " << in_dtype << " -> " << out_dtype);
            const auto with_batch = [&](std::int64_t rows, std::int64_t columns) {
                return s[0] == 1 ? std::vector<std::int64_t>{rows, columns}
                                 : std::vector<std::int64_t>{s[0], rows, columns};
            };
            const auto count = [&](std::int64_t rows, std::int64_t columns) {
                return static_cast<std::size_t>(s[0] * rows * columns);
            };
            const std::vector<Operand> in{
                {in_dtype, with_batch(s[1], s[2]), moderate_values(in_dtype, count(s[1], s[2]), s[2] + 1)},
                {in_dtype, with_batch(s[2], s[3]), moderate_values(in_dtype, count(s[2], s[3]), s[2] + 2)}};
            expect_bitwise_agreement("matmul", "", in, {out_dtype, with_batch(s[1], s[3]), {}});
        }
}

TEST(DeviceBitwise, ReduceMaxReturnsOneOfTheRowsValues) {
    SKIP_WITHOUT_DEVICE();
    for (const kcs_dtype dtype : {KCS_DTYPE_F32, KCS_DTYPE_F16, KCS_DTYPE_BF16}) {
        const std::vector<Operand> in{{dtype, {64, 33}, random_bits(64 * 33 * element_size(dtype), dtype + 40)}};
        expect_bitwise_agreement("reduce_max", "", in, {dtype, {64}, {}});
    }
}

}  // namespace
}  // namespace kcs::cpu_core::test
