#include "op_request.hpp"

#include "adapter_failure.hpp"

namespace kcs::device {

namespace {

// Larger tensors are refused before any size arithmetic can overflow.
constexpr std::uint64_t kMaxTensorBytes = std::uint64_t{1} << 56;

Dtype dtype_of(kcs_dtype code, const std::string& what) {
    const auto dtype = kcs::dtype_of_code(code);
    if (!dtype) invalid(what + ": unknown dtype " + std::to_string(code));
    return *dtype;
}

TensorRef parse_tensor(const kcs_tensor& tensor, const std::string& what) {
    TensorRef ref;
    ref.buffer = tensor.buffer;
    ref.offset = tensor.offset;
    ref.dtype = dtype_of(tensor.dtype, what);
    if (tensor.rank > KCS_MAX_RANK)
        invalid(what + ": rank " + std::to_string(tensor.rank) + " is above KCS_MAX_RANK (" +
                std::to_string(KCS_MAX_RANK) + ")");
    // Bounded with every zero extent counted as 1, so that no partial
    // product of the extents overflows either.
    std::uint64_t bytes = size_of(ref.dtype);
    for (std::uint32_t d = 0; d < tensor.rank; ++d) {
        const std::int64_t extent = tensor.shape[d];
        if (extent < 0) invalid(what + ": negative extent in dimension " + std::to_string(d));
        const auto factor = static_cast<std::uint64_t>(extent > 0 ? extent : 1);
        if (factor > kMaxTensorBytes / bytes) invalid(what + ": too many elements");
        bytes *= factor;
    }
    ref.shape.assign(tensor.shape, tensor.shape + tensor.rank);
    ref.strides.assign(tensor.strides, tensor.strides + tensor.rank);
    return ref;
}

std::vector<TensorRef> parse_tensors(const kcs_op& op, bool inputs) {
    const char* list = inputs ? "inputs" : "outputs";
    const std::uint32_t count = inputs ? op.input_count : op.output_count;
    if (count > 0 && !(inputs ? op.inputs : op.outputs)) invalid(std::string(list) + " is NULL with a nonzero count");
    std::vector<TensorRef> refs;
    for (std::uint32_t i = 0; i < count; ++i)
        refs.push_back(parse_tensor(inputs ? *kcs_op_input(&op, i) : *kcs_op_output(&op, i),
                                    std::string(list) + "[" + std::to_string(i) + "]"));
    return refs;
}

// KCS-ABI-13: a struct at least as large as the one this adapter reads.
void check_size(std::size_t given, std::size_t known, const char* what) {
    if (given < known)
        invalid(std::string(what) + " " + std::to_string(given) + " is smaller than this adapter's (" +
                std::to_string(known) + ")");
}

void parse_attribute(const kcs_attribute& attribute, std::size_t index, Request& request) {
    if (!attribute.name) invalid("attributes[" + std::to_string(index) + "] has no name");
    const std::string name = attribute.name;
    AttributeValue value;
    switch (attribute.type) {
        case KCS_ATTR_BOOL: value = attribute.int_value != 0; break;
        case KCS_ATTR_INT: value = attribute.int_value; break;
        case KCS_ATTR_FLOAT: value = attribute.float_value; break;
        case KCS_ATTR_STRING:
            if (!attribute.string_value) invalid("attribute '" + name + "' has a NULL string");
            value = std::string(attribute.string_value);
            break;
        default: invalid("attribute '" + name + "' has unknown type " + std::to_string(attribute.type));
    }
    if (!request.attributes.emplace(name, std::move(value)).second)
        invalid("attribute '" + name + "' is given twice");
}

}  // namespace

std::uint64_t TensorRef::elements() const {
    std::uint64_t n = 1;
    for (const auto extent : shape) n *= static_cast<std::uint64_t>(extent);
    return n;
}

bool TensorRef::contiguous() const {
    if (strides.size() != shape.size()) return false;
    std::int64_t expected = 1;
    for (std::size_t d = shape.size(); d-- > 0;) {
        if (shape[d] != 1 && strides[d] != expected) return false;
        expected *= shape[d];
    }
    return true;
}

std::string label_of(const Request& request) {
    std::string label = request.name + (request.function.empty() ? "" : " " + request.function) + " ";
    for (std::size_t i = 0; i < request.inputs.size(); ++i)
        label.append(i ? " x " : "").append(name_of(request.inputs[i].dtype));
    return label + " -> " + (request.outputs.empty() ? "(no output)" : name_of(request.outputs.front().dtype));
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
    std::string text = "[";
    for (std::size_t d = 0; d < shape.size(); ++d) text.append(d ? ", " : "").append(std::to_string(shape[d]));
    return text + "]";
}

bool Request::flag(const std::string& attribute, bool fallback) const {
    const auto it = attributes.find(attribute);
    if (it == attributes.end()) return fallback;
    if (const auto* b = std::get_if<bool>(&it->second)) return *b;
    if (const auto* i = std::get_if<std::int64_t>(&it->second)) return *i != 0;
    return fallback;
}

double Request::number(const std::string& attribute, double fallback) const {
    const auto it = attributes.find(attribute);
    if (it == attributes.end()) return fallback;
    if (const auto* d = std::get_if<double>(&it->second)) return *d;
    if (const auto* i = std::get_if<std::int64_t>(&it->second)) return static_cast<double>(*i);
    return fallback;
}

Request parse_request(const kcs_op* op) {
    if (!op) invalid("op is NULL");
    check_size(op->struct_size, KCS_OP_SIZE_1_0, "kcs_op.struct_size");
    check_size(kcs_op_attribute_stride(op), sizeof(kcs_attribute), "kcs_op.attribute_size");
    check_size(kcs_op_tensor_stride(op), sizeof(kcs_tensor), "kcs_op.tensor_size");
    if (!op->name) invalid("op has no name");
    Request request;
    request.name = op->name;
    request.function = op->function ? op->function : "";
    if (op->accumulate != 0) {
        request.has_accumulate = true;
        request.accumulate = dtype_of(op->accumulate, "accumulate");
    }
    if (op->attribute_count > 0 && !op->attributes) invalid("attributes is NULL with a nonzero count");
    for (std::uint32_t i = 0; i < op->attribute_count; ++i) parse_attribute(*kcs_op_attribute(op, i), i, request);
    request.inputs = parse_tensors(*op, true);
    request.outputs = parse_tensors(*op, false);
    return request;
}

}  // namespace kcs::device
