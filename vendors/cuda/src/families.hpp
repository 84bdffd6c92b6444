// The CUDA adapter's kernels as NVRTC compiles them: one module per kernel
// family, kernels/common.cuh followed by the family's file, with a name
// expression for each kernel template instance the family serves
// ("kcs::softmax<__half, float>"). Host code: the CPU-side tests compile
// every family without a device.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "op_request.hpp"

namespace kcs::cuda {

enum class Family { matmul, reduce, softmax, norms, attention, unary, elementwise, cast, gather };
inline constexpr Family kFamilies[] = {Family::matmul,    Family::reduce, Family::softmax,
                                       Family::norms,     Family::attention, Family::unary,
                                       Family::elementwise, Family::cast,  Family::gather};

const char* name_of(Family family);  // "softmax"

// The module's source: common.cuh, then the family's file.
std::string module_source(Family family);

// The name expression of kernel template `kernel` (with its namespace left
// out: "softmax", "unary_exp") for input and output dtypes.
std::string name_expression(std::string_view kernel, device::Dtype input, device::Dtype output);
// gather's, for its table's and its index's dtypes: the table is copied as
// bits, unsigned int for f32 and unsigned short for f16 and bf16.
std::string gather_expression(device::Dtype table, device::Dtype index);

// Every name expression the family's module instantiates.
std::vector<std::string> name_expressions(Family family);

}  // namespace kcs::cuda
