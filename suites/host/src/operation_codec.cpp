#include "operation_codec.hpp"

#include <stdexcept>
#include <type_traits>

namespace kcs::host {

namespace {

void encode_tensor(const Tensor& t, PayloadWriter& out) {
    const auto rank = t.shape.size();
    if (rank > KCS_MAX_RANK)
        throw std::invalid_argument("tensor of rank " + std::to_string(rank) + ": the adapter ABI allows at most " +
                                    std::to_string(KCS_MAX_RANK));
    if (!t.strides.empty() && t.strides.size() != rank)
        throw std::invalid_argument("tensor with " + std::to_string(rank) + " dimensions but " +
                                    std::to_string(t.strides.size()) + " strides");
    out.u64(t.buffer.id);
    out.u64(t.offset);
    out.u32(t.dtype);
    out.u32(static_cast<std::uint32_t>(rank));
    for (const auto extent : t.shape) out.i64(extent);
    if (!t.strides.empty()) {
        for (const auto stride : t.strides) out.i64(stride);
        return;
    }
    // Row-major contiguous, the default the ABI describes.
    std::vector<std::int64_t> strides(rank, 1);
    for (std::size_t d = rank; d-- > 1;) strides[d - 1] = strides[d] * t.shape[d];
    for (const auto stride : strides) out.i64(stride);
}

void encode_attribute(const Attribute& a, PayloadWriter& out) {
    out.string(a.name);
    std::visit(
        [&out](const auto& v) {
            using V = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<V, bool>) {
                out.u32(KCS_ATTR_BOOL);
                out.i64(v ? 1 : 0);
            } else if constexpr (std::is_same_v<V, std::int64_t>) {
                out.u32(KCS_ATTR_INT);
                out.i64(v);
            } else if constexpr (std::is_same_v<V, double>) {
                out.u32(KCS_ATTR_FLOAT);
                out.f64(v);
            } else {
                out.u32(KCS_ATTR_STRING);
                out.string(v);
            }
        },
        a.value);
}

kcs_tensor decode_tensor(PayloadReader& in) {
    kcs_tensor t{};
    t.buffer = in.u64();
    t.offset = in.u64();
    t.dtype = in.u32();
    t.rank = in.u32();
    if (t.rank > KCS_MAX_RANK) throw ProtocolError("tensor rank " + std::to_string(t.rank) + " above KCS_MAX_RANK");
    for (std::uint32_t d = 0; d < t.rank; ++d) t.shape[d] = in.i64();
    for (std::uint32_t d = 0; d < t.rank; ++d) t.strides[d] = in.i64();
    return t;
}

// Counts come from the wire: cap them by what the remaining bytes can hold
// before reserving, so that a garbled count cannot ask for gigabytes.
std::uint32_t count(PayloadReader& in, std::size_t min_item_size) {
    const auto n = in.u32();
    if (static_cast<std::uint64_t>(n) * min_item_size > in.remaining())
        throw ProtocolError("count " + std::to_string(n) + " larger than the payload can hold");
    return n;
}

}  // namespace

void encode_operation(const Operation& op, PayloadWriter& out) {
    out.string(op.name);
    out.u8(op.function ? 1 : 0);
    if (op.function) out.string(*op.function);
    out.u32(op.accumulate);
    out.u32(static_cast<std::uint32_t>(op.attributes.size()));
    for (const auto& a : op.attributes) encode_attribute(a, out);
    out.u32(static_cast<std::uint32_t>(op.inputs.size()));
    for (const auto& t : op.inputs) encode_tensor(t, out);
    out.u32(static_cast<std::uint32_t>(op.outputs.size()));
    for (const auto& t : op.outputs) encode_tensor(t, out);
}

DecodedOperation::DecodedOperation(PayloadReader& in) {
    name_ = in.string();
    if (in.u8() != 0) function_ = in.string();
    const kcs_dtype accumulate = in.u32();

    // Reserve first: the kcs_op points into these vectors' elements.
    const auto attribute_count = count(in, 4 + 4 + 4);  // name, type, smallest value
    attribute_names_.reserve(attribute_count);
    attribute_strings_.reserve(attribute_count);
    attributes_.reserve(attribute_count);
    for (std::uint32_t i = 0; i < attribute_count; ++i) {
        kcs_attribute a{};
        attribute_names_.push_back(in.string());
        a.type = in.u32();
        switch (a.type) {
            case KCS_ATTR_BOOL:
            case KCS_ATTR_INT: a.int_value = in.i64(); break;
            case KCS_ATTR_FLOAT: a.float_value = in.f64(); break;
            case KCS_ATTR_STRING: attribute_strings_.push_back(in.string()); break;
            default: throw ProtocolError("unknown attribute type " + std::to_string(a.type));
        }
        attributes_.push_back(a);
    }
    // Pointers only now that no vector grows any more.
    for (std::size_t i = 0, s = 0; i < attributes_.size(); ++i) {
        attributes_[i].name = attribute_names_[i].c_str();
        if (attributes_[i].type == KCS_ATTR_STRING) attributes_[i].string_value = attribute_strings_[s++].c_str();
    }

    constexpr std::size_t min_tensor_size = 8 + 8 + 4 + 4;
    const auto input_count = count(in, min_tensor_size);
    inputs_.reserve(input_count);
    for (std::uint32_t i = 0; i < input_count; ++i) inputs_.push_back(decode_tensor(in));
    const auto output_count = count(in, min_tensor_size);
    outputs_.reserve(output_count);
    for (std::uint32_t i = 0; i < output_count; ++i) outputs_.push_back(decode_tensor(in));

    op_.struct_size = sizeof(kcs_op);
    op_.name = name_.c_str();
    op_.function = function_ ? function_->c_str() : nullptr;
    op_.accumulate = accumulate;
    op_.attribute_count = attribute_count;
    op_.attributes = attributes_.data();
    op_.input_count = input_count;
    op_.inputs = inputs_.data();
    op_.output_count = output_count;
    op_.outputs = outputs_.data();
    op_.attribute_size = sizeof(kcs_attribute);
    op_.tensor_size = sizeof(kcs_tensor);
}

}  // namespace kcs::host
