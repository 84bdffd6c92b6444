// What every probe needs to talk about an operator's data: dtype names,
// inputs drawn from the catalog generator, the invocation of an instance,
// and outputs read back as values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kcs/harness/claims.hpp"
#include "kcs/harness/guarded_device.hpp"
#include "kcs/harness/plan.hpp"
#include "kcs/reference/distributions.hpp"
#include "kcs/reference/formats.hpp"

namespace kcs::suites {

kcs_dtype abi_dtype(const std::string& catalog_dtype);  // "f16" -> KCS_DTYPE_F16; throws on an unknown name
ref::Format float_format(const std::string& catalog_dtype);  // f32 | f16 | bf16; throws otherwise

// The configuration's accumulate dtype. The plan runs a class that needs
// one only where it is declared (the class's `requires: accumulator`, or
// an operator whose every configuration declares one), so a missing one is
// a harness defect: std::logic_error.
const std::string& accumulate_dtype(const harness::Instance& instance);

// Input `tensor` (its position in the operator's input list) of dtype
// `dtype` and `shape`, drawn from `distribution` with the case seed
// (spec/SPEC.md section 4): any implementation regenerates the same bits.
harness::HostTensor generate(const std::string& dtype, std::vector<std::int64_t> shape,
                             const ref::Distribution& distribution, std::uint64_t seed, std::uint32_t tensor);

// A tensor of `dtype` and `shape` holding `values` (each rounded to nearest even).
harness::HostTensor from_values(const std::string& dtype, std::vector<std::int64_t> shape,
                                const std::vector<double>& values);

// The invocation of an instance's operator (name, function, declared
// accumulator) on `inputs`, with one output of the config's output dtype.
harness::Invocation invocation(const harness::Instance& instance, std::vector<harness::HostTensor> inputs,
                               std::vector<std::int64_t> output_shape);

// Inputs as the claims say a kernel reads them (spec/SPEC.md section 8):
// under subnormals: flush a subnormal input acts as a zero of its sign, so
// the probes of every class but C-CMP-02 (which tests the claim) write it
// as one, and kernel and oracle read the same value. Without the claim
// these change nothing.
bool flushes_subnormals(const harness::Claims& claims);
void read_as_claimed(std::vector<double>& values, ref::Format format, const harness::Claims& claims);
void read_as_claimed(std::vector<std::uint32_t>& bits, ref::Format format, const harness::Claims& claims);
void read_as_claimed(harness::HostTensor& tensor, const harness::Claims& claims);  // a float tensor

// The values of generate(...) read as the claims say.
std::vector<double> draw_as_claimed(const std::string& dtype, std::vector<std::int64_t> shape,
                                    const ref::Distribution& distribution, std::uint64_t seed, std::uint32_t tensor,
                                    const harness::Claims& claims);

// Every element of a tensor as its exact value.
std::vector<double> values(const harness::HostTensor& tensor);

// "0x3f800000": an element's encoding, for evidence.
std::string hex_bits(const harness::HostTensor& tensor, std::size_t index);

}  // namespace kcs::suites
