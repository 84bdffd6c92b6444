// An operator call as the ABI's kcs_op describes it, checked for what the
// ABI requires (struct size, names, known dtypes, ranks, extents, attribute
// encoding) and copied, so nothing points into the caller's memory. Which
// operators, dtypes and shapes the adapter computes is operators.cpp's
// business.
#pragma once

#include <kcs/adapter.h>
#include <kcs/dtypes.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace kcs::device {

using kcs::Dtype;
using kcs::name_of;
using kcs::size_of;

struct TensorRef {
    kcs_buffer buffer = 0;
    std::uint64_t offset = 0;  // bytes
    Dtype dtype = Dtype::f32;
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> strides;

    std::uint64_t elements() const;  // product of the shape (1 for rank 0)
    bool contiguous() const;          // row-major; strides of extent-1 axes are free
};

std::string shape_text(const std::vector<std::int64_t>& shape);  // "[2, 3]"

using AttributeValue = std::variant<bool, std::int64_t, double, std::string>;

struct Request {
    std::string name;
    std::string function;  // "" when the op has none
    bool has_accumulate = false;
    Dtype accumulate = Dtype::f32;
    std::map<std::string, AttributeValue> attributes;
    std::vector<TensorRef> inputs;
    std::vector<TensorRef> outputs;

    bool has(const std::string& attribute) const { return attributes.count(attribute) != 0; }
    bool flag(const std::string& attribute, bool fallback) const;
    double number(const std::string& attribute, double fallback) const;
};

// "matmul bf16 x bf16 -> f32", "unary exp f32 -> f32": the call's
// configuration, as messages and info() name it.
std::string label_of(const Request& request);

// Throws AdapterFailure (KCS_INVALID_ARGUMENT) for a malformed op. Reads
// the arrays with the element sizes the op carries (KCS-ABI-13). Shared by
// every adapter built here (cpu_core and the device adapters).
Request parse_request(const kcs_op* op);

}  // namespace kcs::device
