// gather oracle: in-range copies and the three out-of-range policies on
// the catalog's probe indices (R, -1, -R-1, INT32_MAX, INT64_MIN, ...).
#include "kcs/reference/gather_oracle.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace kcs::ref::test {
namespace {

constexpr std::size_t kRows = 5, kCols = 3;
constexpr std::int64_t kR = static_cast<std::int64_t>(kRows);

std::vector<double> numbered_table() {
    std::vector<double> table(kRows * kCols);
    for (std::size_t i = 0; i < table.size(); ++i) table[i] = 100.0 * static_cast<double>(i / kCols) + static_cast<double>(i % kCols);
    return table;
}

// in range, R, -1, -R-1, INT32_MAX, INT64_MIN, INT64_MAX, in range
const std::vector<std::int64_t> kIndices = {
    0, 4, kR, -1, -kR - 1, std::numeric_limits<std::int32_t>::max(),
    std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(), 2};

void expect_rows(const std::vector<double>& out, const std::vector<std::int64_t>& rows) {
    ASSERT_EQ(out.size(), rows.size() * kCols);
    for (std::size_t n = 0; n < rows.size(); ++n) {
        for (std::size_t c = 0; c < kCols; ++c) {
            const double got = out[n * kCols + c];
            if (rows[n] < 0) {
                EXPECT_EQ(std::bit_cast<std::uint64_t>(got), 0u) << "position " << n;  // +0
            } else {
                EXPECT_EQ(got, 100.0 * static_cast<double>(rows[n]) + static_cast<double>(c)) << "position " << n;
            }
        }
    }
}

TEST(GatherOracle, RaiseReportsTheFirstOutOfRangePosition) {
    const auto table = numbered_table();
    const auto r = gather_oracle<double>(table, {.rows = kRows, .length = kCols}, kIndices, OobPolicy::raise);
    EXPECT_EQ(r.status, GatherStatus::out_of_range);
    EXPECT_EQ(r.first_out_of_range, 2u);
    EXPECT_EQ(r.out_of_range_count, 6u);
    EXPECT_TRUE(r.value.empty());
}

TEST(GatherOracle, ClampReadsTheNearestRow) {
    const auto table = numbered_table();
    const auto r = gather_oracle<double>(table, {.rows = kRows, .length = kCols}, kIndices, OobPolicy::clamp);
    EXPECT_EQ(r.status, GatherStatus::ok);
    EXPECT_EQ(r.out_of_range_count, 6u);
    expect_rows(r.value, {0, 4, 4, 0, 0, 4, 0, 4, 2});
}

TEST(GatherOracle, ZeroWritesPositiveZeroRows) {
    const auto table = numbered_table();
    const auto r = gather_oracle<double>(table, {.rows = kRows, .length = kCols}, kIndices, OobPolicy::zero);
    EXPECT_EQ(r.status, GatherStatus::ok);
    expect_rows(r.value, {0, 4, -1, -1, -1, -1, -1, -1, 2});
}

TEST(GatherOracle, InRangeIndicesCopyUnderEveryPolicy) {
    const auto table = numbered_table();
    const std::vector<std::int64_t> index = {3, 3, 0, 4, 1};
    for (const OobPolicy policy : {OobPolicy::raise, OobPolicy::clamp, OobPolicy::zero}) {
        const auto r = gather_oracle<double>(table, {.rows = kRows, .length = kCols}, index, policy);
        EXPECT_EQ(r.status, GatherStatus::ok);
        EXPECT_EQ(r.out_of_range_count, 0u);
        expect_rows(r.value, index);
    }
}

// Encodings are copied bit for bit: an f16 signalling NaN with a payload,
// -0 and a subnormal.
TEST(GatherOracle, CopiesEncodingsBitForBit) {
    const std::vector<std::uint16_t> table = {0x7D01, 0x8000, 0x0001, 0x3C00};
    const std::vector<std::int64_t> index = {2, 0, 1, 3};
    const auto r = gather_oracle<std::uint16_t>(table, {.rows = 2, .length = 2}, index, OobPolicy::zero);
    // Rows {0x7D01, 0x8000} and {0x0001, 0x3C00}; indices 2 and 3 are out of range.
    const std::vector<std::uint16_t> expected = {0x0000, 0x0000, 0x7D01, 0x8000,
                                                 0x0001, 0x3C00, 0x0000, 0x0000};
    EXPECT_EQ(r.value, expected);
}

TEST(GatherOracle, EmptyTableAndBadShapes) {
    const std::vector<std::int64_t> index = {0};
    EXPECT_THROW(select_gather_rows(index, 0, OobPolicy::clamp), std::invalid_argument);
    EXPECT_EQ(select_gather_rows(index, 0, OobPolicy::raise).status, GatherStatus::out_of_range);
    EXPECT_EQ(select_gather_rows(index, 0, OobPolicy::zero).source[0], GatherSelection::kZeroRow);
    const std::vector<double> table(7);
    EXPECT_THROW(gather_oracle<double>(table, {.rows = 2, .length = 3}, index, OobPolicy::raise),
                 std::invalid_argument);
}

}  // namespace
}  // namespace kcs::ref::test
