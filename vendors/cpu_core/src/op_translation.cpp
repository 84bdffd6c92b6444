#include "op_translation.hpp"

#include <cstddef>
#include <string>

#include "adapter_failure.hpp"

namespace kcs::cpu_core {

namespace {

std::vector<kernels::Tensor> unbound(const std::vector<device::TensorRef>& refs) {
    std::vector<kernels::Tensor> tensors(refs.size());
    for (std::size_t i = 0; i < refs.size(); ++i) {
        tensors[i].dtype = refs[i].dtype;
        tensors[i].shape = refs[i].shape;
        tensors[i].strides = refs[i].strides;
    }
    return tensors;
}

Outcome bind_tensors(const std::vector<device::TensorRef>& refs, const char* list, device::HostBuffers& buffers,
                     std::vector<kernels::Tensor>& out) {
    for (std::size_t i = 0; i < out.size(); ++i) {
        const device::TensorRef& tensor = refs[i];
        const std::string what = std::string(list) + "[" + std::to_string(i) + "]";
        const std::uint64_t element = kernels::size_of(out[i].dtype);
        if (tensor.offset % element != 0)
            return invalid_argument(what + ": offset " + std::to_string(tensor.offset) +
                                    " is not a multiple of the element size " + std::to_string(element));
        const auto bytes = static_cast<std::uint64_t>(out[i].elements()) * element;
        try {
            out[i].data = buffers.locate(tensor.buffer, tensor.offset, bytes);
        } catch (const device::AdapterFailure& e) {
            return invalid_argument(what + ": " + e.what());
        }
    }
    return success();
}

}  // namespace

Outcome describe_op(const kcs_op* op, DescribedOp& described) {
    try {
        described.request = device::parse_request(op);
    } catch (const device::AdapterFailure& e) {
        return invalid_argument(e.what());
    }
    const device::Request& r = described.request;
    kernels::OpCall& call = described.call;
    call.name = r.name;
    call.function = r.function;
    call.accumulate.reset();
    if (r.has_accumulate) call.accumulate = r.accumulate;
    call.attributes = r.attributes;
    call.inputs = unbound(r.inputs);
    call.outputs = unbound(r.outputs);
    return success();
}

Outcome bind_buffers(device::HostBuffers& buffers, DescribedOp& described) {
    if (Outcome o = bind_tensors(described.request.inputs, "inputs", buffers, described.call.inputs); !o.ok())
        return o;
    return bind_tensors(described.request.outputs, "outputs", buffers, described.call.outputs);
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
