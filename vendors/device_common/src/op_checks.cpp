#include "op_checks.hpp"

#include <cmath>

#include "adapter_failure.hpp"

namespace kcs::device {

bool is_float(Dtype dtype) { return dtype == Dtype::f32 || dtype == Dtype::f16 || dtype == Dtype::bf16; }

void check_contiguous(const Request& request) {
    for (const auto* list : {&request.inputs, &request.outputs})
        for (const TensorRef& t : *list)
            if (!t.contiguous()) unsupported(request.name + ": only row-major contiguous tensors are supported");
}

void check_counts(const Request& request, std::size_t inputs, std::size_t outputs) {
    if (request.inputs.size() == inputs && request.outputs.size() == outputs) return;
    invalid(request.name + ": expected " + std::to_string(inputs) + " input(s) and " + std::to_string(outputs) +
            " output(s), got " + std::to_string(request.inputs.size()) + " and " +
            std::to_string(request.outputs.size()));
}

void check_dtypes(const Request& request, std::span<const DtypeConfig> configs) {
    if (request.has_accumulate && request.accumulate != Dtype::f32)
        unsupported(request.name + ": accumulate " + name_of(request.accumulate) +
                    " is not offered; the kernels accumulate in f32");
    const Dtype input = request.inputs.front().dtype;
    const Dtype output = request.outputs.front().dtype;
    bool uniform = true;
    for (const TensorRef& t : request.inputs) uniform = uniform && t.dtype == input;
    for (const DtypeConfig& config : configs)
        if (uniform && config.input == input && config.output == output) return;
    std::string listed;
    for (const TensorRef& t : request.inputs) listed.append(listed.empty() ? "" : ", ").append(name_of(t.dtype));
    unsupported(request.name + ": dtype configuration [" + listed + "] -> " + name_of(output) +
                " is not one the operator file lists");
}

void check_no_function(const Request& request) {
    if (!request.function.empty()) unsupported(request.name + " has no functions; got '" + request.function + "'");
}

void check_attributes(const Request& request, std::initializer_list<AttributeRule> rules) {
    for (const auto& [name, value] : request.attributes) {
        const AttributeRule* rule = nullptr;
        for (const AttributeRule& candidate : rules)
            if (candidate.name == name) rule = &candidate;
        if (!rule) unsupported(request.name + ": unknown attribute '" + name + "'");
        const bool is_int = std::holds_alternative<std::int64_t>(value);
        const bool fits = rule->is_flag ? std::holds_alternative<bool>(value) || is_int
                                        : (std::holds_alternative<double>(value) || is_int) &&
                                              std::isfinite(request.number(name, 0.0));
        if (!fits)
            invalid(request.name + ": attribute '" + name + "' must be " + (rule->is_flag ? "a bool" : "a finite number"));
    }
}

void check_row_operand(const Request& request, const TensorRef& x) {
    if (x.shape.empty()) unsupported(request.name + ": x must have rank >= 1, got a scalar");
    if (x.shape.back() < 1)
        invalid(request.name + ": the last axis of x " + shape_text(x.shape) + " must hold at least one element");
}

void check_same_shape(const Request& request, const TensorRef& y, const TensorRef& x) {
    if (y.shape != x.shape)
        invalid(request.name + ": output " + shape_text(y.shape) + " must have the shape of x " + shape_text(x.shape));
}

void check_reduced_output(const Request& request, const TensorRef& y, const TensorRef& x) {
    const std::vector<std::int64_t> leading(x.shape.begin(), x.shape.end() - 1);
    const auto rows = static_cast<std::int64_t>(rows_of(x).count);
    if (y.shape == leading || (y.shape.size() == 1 && y.shape[0] == rows)) return;
    invalid(request.name + ": output " + shape_text(y.shape) + " must be the leading dimensions " +
            shape_text(leading) + " of x " + shape_text(x.shape) + ", or [" + std::to_string(rows) + "]");
}

void check_feature_vector(const Request& request, const char* name, const TensorRef& vector, const TensorRef& x) {
    if (vector.shape.size() == 1 && vector.shape[0] == x.shape.back()) return;
    invalid(request.name + ": " + name + " " + shape_text(vector.shape) + " must be [" +
            std::to_string(x.shape.back()) + "] for x " + shape_text(x.shape));
}

void check_eps(const Request& request) {
    const double eps = request.number("eps", 1.0e-5);
    if (!(eps > 0) || !(static_cast<float>(eps) > 0))
        invalid(request.name + ": eps must be > 0 (and not underflow in f32), got " + std::to_string(eps));
}

Rows rows_of(const TensorRef& x) {
    Rows rows{1, x.shape.empty() ? 0 : static_cast<std::uint64_t>(x.shape.back())};
    for (std::size_t d = 0; d + 1 < x.shape.size(); ++d) rows.count *= static_cast<std::uint64_t>(x.shape[d]);
    return rows;
}

void check_buffer_range(const char* what, kcs_buffer handle, std::uint64_t offset, std::uint64_t bytes,
                        std::uint64_t size) {
    if (offset > size || bytes > size - offset)
        invalid(std::string(what) + ": " + std::to_string(bytes) + " bytes at offset " + std::to_string(offset) +
                " lie outside buffer " + std::to_string(handle) + " of " + std::to_string(size) + " bytes");
}

std::string kernel_name(const std::string& base, Dtype in, Dtype out) {
    std::string name = base;
    name.append("_").append(name_of(in)).append("_").append(name_of(out));
    return name;
}

}  // namespace kcs::device
