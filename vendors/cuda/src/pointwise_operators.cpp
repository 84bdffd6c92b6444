// The operators without a reduction: unary, elementwise, cast and gather
// (kernels/unary.cuh, elementwise.cuh, cast.cuh, gather.cuh).
#include <climits>
#include <cstdint>

#include "adapter_failure.hpp"
#include "op_checks.hpp"
#include "operator_checks.hpp"
#include "operators.hpp"

namespace kcs::cuda {

namespace {

using device::Dtype;
using device::Request;
using device::TensorRef;
using index_t = std::uint64_t;  // the kernels' index_t, unsigned long long

// One thread per element of `count`, in whole blocks.
template <typename... Args>
void launch_elements(Execution& execution, cudaKernel_t kernel, std::uint64_t count, const Args&... args) {
    const unsigned local = execution.pointwise_local_size(kernel);
    execution.launch(kernel, dim3(blocks_for(count, local)), dim3(local), 0, args...);
}

void run_unary(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const cudaKernel_t kernel =
        execution.kernel(Family::unary, name_expression("unary_" + request.function, x.dtype, y.dtype));
    launch_elements(execution, kernel, y.elements(), execution.bind(x, "x"), execution.bind(y, "y"),
                    index_t{y.elements()});
}

void run_elementwise(Execution& execution, const Request& request) {
    const TensorRef& out = request.outputs[0];
    const index_t count = out.elements();
    const cudaKernel_t kernel =
        execution.kernel(Family::elementwise, name_expression("elementwise_" + request.function, out.dtype, out.dtype));
    const void* a = execution.bind(request.inputs[0], "a");
    const void* b = execution.bind(request.inputs[1], "b");
    if (request.function == "mul_add")
        launch_elements(execution, kernel, count, a, b, execution.bind(request.inputs[2], "c"),
                        execution.bind(out, "out"), count);
    else
        launch_elements(execution, kernel, count, a, b, execution.bind(out, "out"), count);
}

void run_cast(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    const cudaKernel_t kernel = execution.kernel(Family::cast, name_expression("cast", x.dtype, y.dtype));
    launch_elements(execution, kernel, y.elements(), execution.bind(x, "x"), execution.bind(y, "y"),
                    index_t{y.elements()});
}

// gather, under the raise policy: the kernel records the smallest
// out-of-range position (INT_MAX: none); the adapter raises
// KCS_OUT_OF_RANGE for it, as its claim oob_policy: raise promises.
void run_gather(Execution& execution, const Request& request) {
    const TensorRef& table = request.inputs[0];
    const TensorRef& index = request.inputs[1];
    const TensorRef& out = request.outputs[0];
    const index_t positions = index.elements();
    const cudaKernel_t kernel = execution.kernel(Family::gather, gather_expression(table.dtype, index.dtype));
    const void* t = execution.bind(table, "table");
    const void* i = execution.bind(index, "index");
    const void* o = execution.bind(out, "out");
    if (positions == 0) return;
    int* flag = execution.flag();
    const int none = INT_MAX;
    check_cuda(cudaMemcpy(flag, &none, sizeof none, cudaMemcpyHostToDevice), "cudaMemcpy (gather flag)");
    launch_elements(execution, kernel, positions, t, i, o, index_t(table.shape[0]), index_t(table.shape[1]),
                    positions, flag);
    int bad = none;
    check_cuda(cudaMemcpy(&bad, flag, sizeof bad, cudaMemcpyDeviceToHost), "cudaMemcpy (gather flag)");
    if (bad != none)
        device::fail(KCS_OUT_OF_RANGE, "gather: index[" + std::to_string(bad) + "] is outside [0, " +
                                           std::to_string(table.shape[0]) + ") (the policy is raise)");
}

}  // namespace

extern const Operator kUnary{"unary", device::check_unary, run_unary};
extern const Operator kElementwise{"elementwise", device::check_elementwise, run_elementwise};
extern const Operator kCast{"cast", device::check_cast, run_cast};
extern const Operator kGather{"gather", device::check_gather, run_gather};

}  // namespace kcs::cuda
