// alloc, release, write and read: round trips at any offset and size,
// empty buffers, and every malformed request refused with nothing copied.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>
#include <vector>

#include "loaded_adapter.hpp"

namespace kcs::cpu_core::test {
namespace {

std::vector<unsigned char> pattern(std::size_t n, unsigned char seed) {
    std::vector<unsigned char> bytes(n);
    for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<unsigned char>(seed + 7 * i);
    return bytes;
}

TEST(Buffers, RoundTripAtOddOffsetsAndSizes) {
    Instance instance(reference_cpu().api());
    for (const std::uint64_t size : {1u, 3u, 17u, 4099u}) {
        const kcs_buffer buffer = instance.alloc(size);
        const auto whole = pattern(size, 1);
        instance.write(buffer, 0, whole.data(), size);
        for (const std::uint64_t offset : {std::uint64_t{0}, std::uint64_t{1} % size, size / 2, size - 1, size}) {
            for (const std::uint64_t bytes : {std::uint64_t{0}, std::min<std::uint64_t>(1, size - offset), size - offset}) {
                const auto part = pattern(bytes, static_cast<unsigned char>(offset + bytes));
                instance.write(buffer, offset, part.data(), bytes);
                std::vector<unsigned char> back(bytes, 0xEE);
                instance.read(buffer, offset, back.data(), bytes);
                EXPECT_EQ(back, part) << "size " << size << " offset " << offset << " bytes " << bytes;
            }
        }
        // Writes land exactly where they were asked to: the rest is intact.
        instance.write(buffer, 0, whole.data(), size);
        const unsigned char marker = 0x5A;
        instance.write(buffer, size / 2, &marker, 1);
        std::vector<unsigned char> all(size);
        instance.read(buffer, 0, all.data(), size);
        auto expected = whole;
        expected[size / 2] = marker;
        EXPECT_EQ(all, expected);
        EXPECT_EQ(instance.api().release(instance.get(), buffer), KCS_OK);
    }
}

TEST(Buffers, EmptyBuffersAreValid) {
    Instance instance(reference_cpu().api());
    const kcs_buffer empty = instance.alloc(0);
    EXPECT_NE(empty, 0u);
    EXPECT_EQ(instance.api().write(instance.get(), empty, 0, nullptr, 0), KCS_OK);
    EXPECT_EQ(instance.api().read(instance.get(), empty, 0, nullptr, 0), KCS_OK);
    unsigned char byte = 0;
    EXPECT_EQ(instance.api().write(instance.get(), empty, 0, &byte, 1), KCS_INVALID_ARGUMENT);
    EXPECT_EQ(instance.api().read(instance.get(), empty, 1, &byte, 0), KCS_INVALID_ARGUMENT);
    EXPECT_EQ(instance.api().release(instance.get(), empty), KCS_OK);
}

TEST(Buffers, HandlesAreNonzeroDistinctAndNeverReused) {
    Instance instance(reference_cpu().api());
    std::set<kcs_buffer> seen;
    for (int i = 0; i < 50; ++i) {
        const kcs_buffer b = instance.alloc(static_cast<std::uint64_t>(i));
        EXPECT_NE(b, 0u);
        EXPECT_TRUE(seen.insert(b).second);
        if (i % 2 == 0) {
            EXPECT_EQ(instance.api().release(instance.get(), b), KCS_OK);
        }
    }
}

TEST(Buffers, UnknownAndReleasedHandlesAreRefused) {
    Instance instance(reference_cpu().api());
    const kcs_adapter_api& api = instance.api();
    const kcs_buffer buffer = instance.alloc(8);
    ASSERT_EQ(api.release(instance.get(), buffer), KCS_OK);
    unsigned char bytes[8] = {};
    for (const kcs_buffer bad : {kcs_buffer{0}, buffer, kcs_buffer{12345}}) {
        EXPECT_EQ(api.release(instance.get(), bad), KCS_INVALID_ARGUMENT) << bad;
        EXPECT_EQ(api.write(instance.get(), bad, 0, bytes, 8), KCS_INVALID_ARGUMENT) << bad;
        EXPECT_EQ(api.read(instance.get(), bad, 0, bytes, 8), KCS_INVALID_ARGUMENT) << bad;
        EXPECT_NE(instance.last_error().find("unknown buffer"), std::string::npos) << instance.last_error();
    }
}

TEST(Buffers, OutOfBoundsCopiesAreRefusedAndCopyNothing) {
    Instance instance(reference_cpu().api());
    const kcs_adapter_api& api = instance.api();
    const kcs_buffer buffer = instance.alloc(16);
    const auto original = pattern(16, 3);
    instance.write(buffer, 0, original.data(), 16);
    const auto other = pattern(32, 99);
    struct Range {
        std::uint64_t offset, bytes;
    };
    for (const Range r : {Range{0, 17}, Range{16, 1}, Range{17, 0}, Range{15, 2}, Range{~std::uint64_t{0}, 2},
                          Range{8, ~std::uint64_t{0} - 4}}) {
        EXPECT_EQ(api.write(instance.get(), buffer, r.offset, other.data(), r.bytes), KCS_INVALID_ARGUMENT)
            << r.offset << " " << r.bytes;
        EXPECT_NE(instance.last_error().find("outside buffer"), std::string::npos) << instance.last_error();
        std::vector<unsigned char> dst(32, 0xEE);
        EXPECT_EQ(api.read(instance.get(), buffer, r.offset, dst.data(), r.bytes), KCS_INVALID_ARGUMENT);
        EXPECT_EQ(dst, std::vector<unsigned char>(32, 0xEE)) << "a refused read copied bytes";
    }
    std::vector<unsigned char> back(16);
    instance.read(buffer, 0, back.data(), 16);
    EXPECT_EQ(back, original) << "a refused write copied bytes";
    EXPECT_EQ(api.write(instance.get(), buffer, 0, nullptr, 4), KCS_INVALID_ARGUMENT);
    EXPECT_EQ(api.alloc(instance.get(), 4, nullptr), KCS_INVALID_ARGUMENT);
}

TEST(Buffers, AnImpossibleSizeIsOutOfMemory) {
    Instance instance(reference_cpu().api());
    kcs_buffer buffer = 0;
    EXPECT_EQ(instance.api().alloc(instance.get(), ~std::uint64_t{0}, &buffer), KCS_OUT_OF_MEMORY);
    EXPECT_NE(instance.last_error(), "");
}

TEST(Buffers, InstancesKeepTheirBuffersApart) {
    Instance first(reference_cpu().api()), second(reference_cpu().api());
    const kcs_buffer a = first.alloc(4);
    const kcs_buffer b = second.alloc(8);
    EXPECT_EQ(a, b);  // each instance counts from 1
    unsigned char bytes[8] = {};
    EXPECT_EQ(first.api().read(first.get(), a, 0, bytes, 8), KCS_INVALID_ARGUMENT);  // a holds 4
    EXPECT_EQ(second.api().read(second.get(), b, 0, bytes, 8), KCS_OK);
}

}  // namespace
}  // namespace kcs::cpu_core::test
