// Test support for the device adapters (OpenCL, Vulkan): the adapter a test
// program is built for, loaded as the harness loads it, and operators run on
// it and on reference-cpu with the same inputs. Each test program names its
// adapter with compile definitions (see CMakeLists.txt, kcs_device_adapter_tests).
//
// Without a device (no driver, no platform, no device) every test is
// skipped, visibly: CTest counts them as skipped, never as passed.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "loaded_adapter.hpp"

namespace kcs::cpu_core::test {

using Bytes = std::vector<unsigned char>;

struct DeviceUnderTest {
    LoadedAdapter& adapter;
    std::vector<std::string> options;  // what every test opens it with
    std::string label;                 // "opencl", "vulkan"
};
const DeviceUnderTest& device_under_test();

// Why the adapter cannot open a device here, or nullopt when it can.
const std::optional<std::string>& no_device_reason();

#define SKIP_WITHOUT_DEVICE()                                                                            \
    do {                                                                                                 \
        if (const auto& reason = no_device_reason())                                                     \
            GTEST_SKIP() << "no " << device_under_test().label << " device: " << *reason;               \
    } while (0)

std::size_t element_size(kcs_dtype dtype);
std::size_t elements(const std::vector<std::int64_t>& shape);

struct Operand {
    kcs_dtype dtype;
    std::vector<std::int64_t> shape;
    Bytes bytes;  // inputs: the contents; outputs: sized by shape
};

// Random bit patterns: every class of value (NaN, inf, subnormal, zero of
// either sign) turns up in a few thousand elements.
Bytes random_bits(std::size_t bytes, std::uint64_t seed);

// Runs op on one adapter: every tensor in a buffer of its own, at an odd
// element offset behind guard bytes, outputs poisoned first. Returns the
// run status and fills the outputs' bytes; checks that nothing was written
// past an output.
kcs_status run_on(const kcs_adapter_api& api, const std::vector<std::string>& options, const std::string& name,
                  const std::string& function, const std::vector<Operand>& inputs, std::vector<Operand>& outputs);

// The op on the device under test (opened with `extra_options` added) and
// on reference-cpu; every output element must have the same bits (or both
// be NaN, unless nan_payloads_matter).
void expect_bitwise_agreement(const std::string& name, const std::string& function, const std::vector<Operand>& inputs,
                              const Operand& output, bool nan_payloads_matter = false,
                              const std::vector<std::string>& extra_options = {});

}  // namespace kcs::cpu_core::test
