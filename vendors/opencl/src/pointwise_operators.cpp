// The operators without a reduction: unary, elementwise, cast and gather
// (kernels/unary.cl, elementwise.cl, cast.cl, gather.cl).
#include <array>
#include <climits>

#include "op_checks.hpp"
#include "operators.hpp"

namespace kcs::opencl {

namespace {

// One work-item per element of `count`, rounded up to whole work-groups.
void launch_elements(Execution& execution, cl_kernel kernel, std::uint64_t count) {
    const std::size_t local = execution.pointwise_local_size(kernel);
    execution.launch(kernel, 1, {round_up(count, local), 1, 1}, {local, 1, 1});
}

// ---- unary ----------------------------------------------------------------

void run_unary(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    cl_kernel kernel = execution.kernel(Family::unary, kernel_name("unary_" + request.function, x.dtype, y.dtype));
    execution.set_args(kernel, execution.bind(x, "x"), execution.bind(y, "y"), cl_ulong{y.elements()});
    launch_elements(execution, kernel, y.elements());
}

// ---- elementwise ----------------------------------------------------------------

void run_elementwise(Execution& execution, const Request& request) {
    const TensorRef& out = request.outputs[0];
    const cl_ulong count = out.elements();
    cl_kernel kernel = execution.kernel(Family::elementwise, kernel_name("elementwise_" + request.function, out.dtype, out.dtype));
    const BoundTensor a = execution.bind(request.inputs[0], "a");
    const BoundTensor b = execution.bind(request.inputs[1], "b");
    if (request.function == "mul_add")
        execution.set_args(kernel, a, b, execution.bind(request.inputs[2], "c"), execution.bind(out, "out"), count);
    else
        execution.set_args(kernel, a, b, execution.bind(out, "out"), count);
    launch_elements(execution, kernel, count);
}

// ---- cast -----------------------------------------------------------------------

void run_cast(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    cl_kernel kernel = execution.kernel(Family::cast, kernel_name("cast", x.dtype, y.dtype));
    execution.set_args(kernel, execution.bind(x, "x"), execution.bind(y, "y"), cl_ulong{y.elements()});
    launch_elements(execution, kernel, y.elements());
}

// ---- gather, under the raise policy ----------------------------------------------

// The kernel records the smallest out-of-range position (INT_MAX: none);
// the adapter raises KCS_OUT_OF_RANGE for it, as its claim oob_policy: raise
// promises.
void run_gather(Execution& execution, const Request& request) {
    const TensorRef& table = request.inputs[0];
    const TensorRef& index = request.inputs[1];
    const TensorRef& out = request.outputs[0];
    const cl_ulong positions = index.elements();
    // The instance copying the table's bits as uint or ushort, with int or long indices.
    std::string name = table.dtype == Dtype::f32 ? "gather_uint" : "gather_ushort";
    name.append(index.dtype == Dtype::i32 ? "_int" : "_long");
    cl_kernel kernel = execution.kernel(Family::gather, name);
    const BoundTensor t = execution.bind(table, "table"), i = execution.bind(index, "index"), o = execution.bind(out, "out");
    if (positions == 0) return;
    cl_mem flag = execution.flag();
    const cl_int none = INT_MAX;
    check_cl(clEnqueueWriteBuffer(execution.queue(), flag, CL_FALSE, 0, sizeof none, &none, 0, nullptr, nullptr),
             "clEnqueueWriteBuffer (gather flag)");
    execution.set_args(kernel, t, i, o, cl_ulong(table.shape[0]), cl_ulong(table.shape[1]), positions, flag);
    launch_elements(execution, kernel, positions);
    cl_int bad = none;
    check_cl(clEnqueueReadBuffer(execution.queue(), flag, CL_TRUE, 0, sizeof bad, &bad, 0, nullptr, nullptr),
             "clEnqueueReadBuffer (gather flag)");
    if (bad != none)
        fail(KCS_OUT_OF_RANGE, "gather: index[" + std::to_string(bad) + "] is outside [0, " +
                                   std::to_string(table.shape[0]) + ") (the policy is raise)");
}

}  // namespace

extern const Operator kUnary{"unary", check_unary, run_unary};
extern const Operator kElementwise{"elementwise", check_elementwise, run_elementwise};
extern const Operator kCast{"cast", check_cast, run_cast};
extern const Operator kGather{"gather", check_gather, run_gather};

}  // namespace kcs::opencl
