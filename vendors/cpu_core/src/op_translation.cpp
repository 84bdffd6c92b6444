#include "op_translation.hpp"

#include <cstddef>
#include <optional>
#include <string>

namespace kcs::cpu_core {

namespace {

// Larger tensors are refused before any size arithmetic can overflow.
constexpr std::uint64_t kMaxTensorBytes = std::uint64_t{1} << 56;

std::optional<kernels::Dtype> dtype_of(kcs_dtype dtype) {
    switch (dtype) {
        case KCS_DTYPE_F32: return kernels::Dtype::f32;
        case KCS_DTYPE_F16: return kernels::Dtype::f16;
        case KCS_DTYPE_BF16: return kernels::Dtype::bf16;
        case KCS_DTYPE_F64: return kernels::Dtype::f64;
        case KCS_DTYPE_I8: return kernels::Dtype::i8;
        case KCS_DTYPE_I32: return kernels::Dtype::i32;
        case KCS_DTYPE_I64: return kernels::Dtype::i64;
        case KCS_DTYPE_U8: return kernels::Dtype::u8;
        default: return std::nullopt;
    }
}

Outcome describe_tensor(const kcs_tensor& tensor, const std::string& what, kernels::Tensor& out) {
    const auto dtype = dtype_of(tensor.dtype);
    if (!dtype) return invalid_argument(what + ": unknown dtype " + std::to_string(tensor.dtype));
    if (tensor.rank > KCS_MAX_RANK)
        return invalid_argument(what + ": rank " + std::to_string(tensor.rank) + " is above KCS_MAX_RANK (" +
                                std::to_string(KCS_MAX_RANK) + ")");
    // Bounded with every zero extent counted as 1, so that no partial
    // product of the extents overflows either.
    std::uint64_t bytes = kernels::size_of(*dtype);
    for (std::uint32_t d = 0; d < tensor.rank; ++d) {
        const std::int64_t extent = tensor.shape[d];
        if (extent < 0) return invalid_argument(what + ": negative extent in dimension " + std::to_string(d));
        const auto factor = static_cast<std::uint64_t>(extent > 0 ? extent : 1);
        if (factor > kMaxTensorBytes / bytes) return invalid_argument(what + ": too many elements");
        bytes *= factor;
    }
    out.data = nullptr;
    out.dtype = *dtype;
    out.shape.assign(tensor.shape, tensor.shape + tensor.rank);
    out.strides.assign(tensor.strides, tensor.strides + tensor.rank);
    return success();
}

Outcome describe_attribute(const kcs_attribute& attribute, const std::string& what, kernels::OpCall& call) {
    if (!attribute.name) return invalid_argument(what + " has no name");
    const std::string name = attribute.name;
    kernels::Attribute value;
    switch (attribute.type) {
        case KCS_ATTR_BOOL: value = attribute.int_value != 0; break;
        case KCS_ATTR_INT: value = attribute.int_value; break;
        case KCS_ATTR_FLOAT: value = attribute.float_value; break;
        case KCS_ATTR_STRING:
            if (!attribute.string_value) return invalid_argument("attribute '" + name + "' has a NULL string");
            value = std::string(attribute.string_value);
            break;
        default:
            return invalid_argument("attribute '" + name + "' has unknown type " + std::to_string(attribute.type));
    }
    if (!call.attributes.emplace(name, std::move(value)).second)
        return invalid_argument("attribute '" + name + "' is given twice");
    return success();
}

Outcome describe_tensors(const kcs_tensor* tensors, std::uint32_t count, const char* list,
                         std::vector<kernels::Tensor>& out) {
    if (count > 0 && !tensors) return invalid_argument(std::string(list) + " is NULL with a nonzero count");
    out.resize(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::string what = std::string(list) + "[" + std::to_string(i) + "]";
        if (Outcome o = describe_tensor(tensors[i], what, out[i]); !o.ok()) return o;
    }
    return success();
}

Outcome bind_tensors(const kcs_tensor* tensors, const char* list, HostBuffers& buffers,
                     std::vector<kernels::Tensor>& out) {
    for (std::size_t i = 0; i < out.size(); ++i) {
        const kcs_tensor& tensor = tensors[i];
        const std::string what = std::string(list) + "[" + std::to_string(i) + "]";
        const std::uint64_t element = kernels::size_of(out[i].dtype);
        if (tensor.offset % element != 0)
            return invalid_argument(what + ": offset " + std::to_string(tensor.offset) +
                                    " is not a multiple of the element size " + std::to_string(element));
        const auto bytes = static_cast<std::uint64_t>(out[i].elements()) * element;
        std::byte* address = nullptr;
        if (Outcome o = buffers.locate(tensor.buffer, tensor.offset, bytes, address); !o.ok())
            return invalid_argument(what + ": " + o.message);
        out[i].data = address;
    }
    return success();
}

}  // namespace

Outcome describe_op(const kcs_op* op, kernels::OpCall& call) {
    if (!op) return invalid_argument("op is NULL");
    if (op->struct_size < sizeof(kcs_op))
        return invalid_argument("kcs_op.struct_size " + std::to_string(op->struct_size) +
                                " is smaller than the ABI v1 kcs_op (" + std::to_string(sizeof(kcs_op)) + ")");
    if (!op->name) return invalid_argument("op has no name");
    call.name = op->name;
    call.function = op->function ? op->function : "";
    call.accumulate.reset();
    if (op->accumulate != 0) {
        const auto accumulate = dtype_of(op->accumulate);
        if (!accumulate) return invalid_argument("unknown accumulate dtype " + std::to_string(op->accumulate));
        call.accumulate = *accumulate;
    }
    if (op->attribute_count > 0 && !op->attributes)
        return invalid_argument("attributes is NULL with a nonzero count");
    call.attributes.clear();
    for (std::uint32_t i = 0; i < op->attribute_count; ++i) {
        const std::string what = "attributes[" + std::to_string(i) + "]";
        if (Outcome o = describe_attribute(op->attributes[i], what, call); !o.ok()) return o;
    }
    if (Outcome o = describe_tensors(op->inputs, op->input_count, "inputs", call.inputs); !o.ok()) return o;
    return describe_tensors(op->outputs, op->output_count, "outputs", call.outputs);
}

Outcome bind_buffers(const kcs_op& op, HostBuffers& buffers, kernels::OpCall& call) {
    if (Outcome o = bind_tensors(op.inputs, "inputs", buffers, call.inputs); !o.ok()) return o;
    return bind_tensors(op.outputs, "outputs", buffers, call.outputs);
}

kcs_status to_status(kernels::Status status) {
    switch (status) {
        case kernels::Status::ok: return KCS_OK;
        case kernels::Status::unsupported: return KCS_UNSUPPORTED;
        case kernels::Status::out_of_range: return KCS_OUT_OF_RANGE;
        case kernels::Status::invalid_argument: return KCS_INVALID_ARGUMENT;
    }
    return KCS_INTERNAL_ERROR;
}

}  // namespace kcs::cpu_core
