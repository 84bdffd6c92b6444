// A KCS operator call as oneDNN primitives: which primitive computes each
// operator and dtype configuration, created (so that oneDNN itself says
// whether it offers it on this CPU) but not yet run. Every operator oneDNN
// lacks, and every configuration whose primitive it will not create, is
// KCS_UNSUPPORTED: no value is ever computed outside oneDNN.
#pragma once

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "host_device.hpp"
#include "op_request.hpp"

namespace kcs::onednn {

// What every primitive of an instance is created with: its engine, and the
// fpmath mode of its attributes.
struct Context {
    dnnl::engine engine;
    dnnl::fpmath_mode fpmath = dnnl::fpmath_mode::strict;

    // New attributes for one primitive: a copy of dnnl::primitive_attr
    // shares its handle, so a post-op set on it would reach every primitive.
    dnnl::primitive_attr attr() const {
        dnnl::primitive_attr attr;
        attr.set_fpmath_mode(fpmath);
        return attr;
    }
};

// One argument of a step: oneDNN's argument number, the memory oneDNN
// reads or writes, and where it lives: a tensor of the request (its index
// among the inputs, then the outputs) or a scratch buffer of the plan.
struct Operand {
    int arg;
    dnnl::memory::desc desc;
    int tensor;         // -1 for scratch
    int scratch = -1;   // index into Plan::scratch_bytes
};

struct Step {
    dnnl::primitive_desc_base pd;
    std::vector<Operand> operands;
};

struct Plan {
    std::string label;  // "matmul bf16 x bf16 -> f32": what info() lists the implementation under
    std::vector<Step> steps;  // run in order; the last one is the operator's primitive
    std::vector<std::uint64_t> scratch_bytes;
    bool empty = false;  // every output has zero elements: nothing to run
};

// Throws AdapterFailure: KCS_UNSUPPORTED for what oneDNN does not compute,
// KCS_INVALID_ARGUMENT for a malformed call.
Plan plan_of(const device::Request& request, const Context& context);

// Runs a plan on the request's tensors in host memory and waits for it.
void execute(const Plan& plan, const device::Request& request, device::HostBuffers& buffers, const Context& context);

}  // namespace kcs::onednn
