// The checks shared by the check() functions of the reducing operators
// (matmul, reduce_sum, reduce_max, softmax, layernorm, rmsnorm, attention):
// operand counts, dtype configurations, attributes and row shapes. Each
// returns ok() or a Result whose message names the operator.
//
// Status convention: what the kernel declines (a dtype configuration the
// operator file does not list, a rank it does not compute, an attribute it
// does not know) is unsupported; a call that contradicts itself (wrong
// operand count, shapes that do not fit together, a bad attribute value)
// is invalid.
#pragma once

#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "operator_kernels.hpp"

namespace kcs::kernels::detail {

inline bool failed(const Result& result) { return result.status != Status::ok; }

inline std::string shape_text(const std::vector<std::int64_t>& shape) {
    std::string text = "[";
    for (std::size_t d = 0; d < shape.size(); ++d) text += (d ? ", " : "") + std::to_string(shape[d]);
    return text + "]";
}

inline std::string shape_text(const Tensor& tensor) { return shape_text(tensor.shape); }

// One dtype configuration of spec/v1/operators/*.yaml: every input has
// `input`, the output has `output`.
struct DtypeConfig {
    Dtype input;
    Dtype output;
};

// matmul, reduce_sum, softmax, layernorm, rmsnorm and attention list the
// same five: f32 -> f32, and f16 or bf16 inputs to their own dtype or to f32.
inline constexpr DtypeConfig kAccumulatingConfigs[] = {
    {Dtype::f32, Dtype::f32}, {Dtype::f16, Dtype::f32},   {Dtype::f16, Dtype::f16},
    {Dtype::bf16, Dtype::f32}, {Dtype::bf16, Dtype::bf16},
};

// reduce_max stores one of the row's values: the output dtype is the input's.
inline constexpr DtypeConfig kSameDtypeConfigs[] = {
    {Dtype::f32, Dtype::f32}, {Dtype::f16, Dtype::f16}, {Dtype::bf16, Dtype::bf16}};

inline Result check_counts(const OpCall& call, std::size_t inputs, std::size_t outputs) {
    if (call.inputs.size() == inputs && call.outputs.size() == outputs) return ok();
    return invalid(call.name + ": expected " + std::to_string(inputs) + " input(s) and " +
                   std::to_string(outputs) + " output(s), got " + std::to_string(call.inputs.size()) +
                   " and " + std::to_string(call.outputs.size()));
}

inline Result check_extents(const OpCall& call) {
    for (const auto* list : {&call.inputs, &call.outputs})
        for (const Tensor& tensor : *list)
            for (const auto extent : tensor.shape)
                if (extent < 0) return invalid(call.name + ": negative extent in shape " + shape_text(tensor));
    return ok();
}

// The call's dtypes form one of `configs`, and the declared accumulator (if
// any) is f32, the only one these kernels have.
inline Result check_dtypes(const OpCall& call, std::span<const DtypeConfig> configs) {
    if (call.accumulate && *call.accumulate != Dtype::f32)
        return unsupported(call.name + ": accumulate " + std::string(name_of(*call.accumulate)) +
                           " is not offered; the kernels accumulate in f32");
    const Dtype input = call.inputs.front().dtype;
    const Dtype output = call.outputs.front().dtype;
    bool uniform_inputs = true;
    for (const Tensor& tensor : call.inputs) uniform_inputs = uniform_inputs && tensor.dtype == input;
    for (const DtypeConfig& config : configs)
        if (uniform_inputs && config.input == input && config.output == output) return ok();
    std::string listed = "[";
    for (std::size_t i = 0; i < call.inputs.size(); ++i)
        listed += (i ? ", " : "") + std::string(name_of(call.inputs[i].dtype));
    return unsupported(call.name + ": dtype configuration inputs " + listed + "] -> output " +
                       std::string(name_of(output)) + " is not one the operator file lists");
}

// Only attributes the operator defines; numbers finite, flags boolean.
struct AttributeRule {
    std::string_view name;
    bool is_flag;  // bool (or 0/1 int); otherwise a number (double or int)
};

inline Result check_attributes(const OpCall& call, std::initializer_list<AttributeRule> rules) {
    for (const auto& [name, value] : call.attributes) {
        const AttributeRule* rule = nullptr;
        for (const AttributeRule& candidate : rules)
            if (candidate.name == name) rule = &candidate;
        if (!rule) return unsupported(call.name + ": unknown attribute '" + name + "'");
        const bool is_number = std::holds_alternative<double>(value) || std::holds_alternative<std::int64_t>(value);
        const bool fits = rule->is_flag ? std::holds_alternative<bool>(value) || std::holds_alternative<std::int64_t>(value)
                                        : is_number && std::isfinite(call.number(name, 0.0));
        if (!fits)
            return invalid(call.name + ": attribute '" + name + "' must be " +
                           (rule->is_flag ? "a bool" : "a finite number"));
    }
    return ok();
}

// eps of the norms: a number > 0 (default 1e-5), rounded to the f32 accumulator.
inline Result check_eps(const OpCall& call) {
    const double eps = call.number("eps", 1.0e-5);
    if (eps > 0 && static_cast<float>(eps) > 0) return ok();
    return invalid(call.name + ": eps must be > 0 (and not underflow in f32), got " + std::to_string(eps));
}

inline float eps_of(const OpCall& call) { return static_cast<float>(call.number("eps", 1.0e-5)); }

// The rows of a row-wise operand [..., L]: the leading dimensions flattened
// into `count` rows of `length` elements (count = 1 for rank 1).
struct Rows {
    std::int64_t count = 0;
    std::int64_t length = 0;
};

inline Rows rows_of(const Tensor& tensor) {
    Rows rows{1, tensor.shape.empty() ? 0 : tensor.shape.back()};
    for (std::size_t d = 0; d + 1 < tensor.shape.size(); ++d) rows.count *= tensor.shape[d];
    return rows;
}

// The reduced operand x of a row-wise operator: rank >= 1 with rows of at
// least one element (the operator files require L >= 1).
inline Result check_row_operand(const OpCall& call, const Tensor& x) {
    if (x.shape.empty()) return unsupported(call.name + ": x must have rank >= 1, got a scalar");
    if (x.shape.back() < 1)
        return invalid(call.name + ": the last axis of x " + shape_text(x) + " must hold at least one element");
    return ok();
}

// A per-feature vector (gamma, beta) of a norm over rows of `length`.
inline Result check_feature_vector(const OpCall& call, std::string_view name, const Tensor& vector,
                                   const Tensor& x) {
    if (vector.shape.size() == 1 && vector.shape[0] == x.shape.back()) return ok();
    return invalid(call.name + ": " + std::string(name) + " " + shape_text(vector) + " must be [" +
                   std::to_string(x.shape.back()) + "] for x " + shape_text(x));
}

inline Result check_same_shape(const OpCall& call, const Tensor& y, const Tensor& x) {
    if (y.shape == x.shape) return ok();
    return invalid(call.name + ": output " + shape_text(y) + " must have the shape of x " + shape_text(x));
}

// The output y of a reduction over the last axis of x: the leading
// dimensions of x ([R] for x [R, K], a scalar for x [K]), or those
// flattened into [R].
inline Result check_reduced_output(const OpCall& call, const Tensor& y, const Tensor& x) {
    const std::vector<std::int64_t> leading(x.shape.begin(), x.shape.end() - 1);
    const bool flattened = y.shape.size() == 1 && y.shape[0] == rows_of(x).count;
    if (y.shape == leading || flattened) return ok();
    return invalid(call.name + ": output " + shape_text(y) + " must be the leading dimensions " +
                   shape_text(leading) + " of x " + shape_text(x) + ", or [" + std::to_string(rows_of(x).count) + "]");
}

}  // namespace kcs::kernels::detail
