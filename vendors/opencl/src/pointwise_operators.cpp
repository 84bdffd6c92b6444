// The operators without a reduction: unary, elementwise, cast and gather
// (kernels/unary.cl, elementwise.cl, cast.cl, gather.cl).
#include <array>
#include <climits>

#include "op_checks.hpp"
#include "operators.hpp"

namespace kcs::opencl {

namespace {

constexpr std::array<std::string_view, 7> kUnaryFunctions{"exp", "log", "tanh", "erf", "gelu", "sigmoid", "rsqrt"};
constexpr std::array<std::string_view, 4> kElementwiseFunctions{"add", "mul", "maximum", "mul_add"};

template <std::size_t N>
bool listed(const std::array<std::string_view, N>& names, const std::string& name) {
    for (const auto candidate : names)
        if (candidate == name) return true;
    return false;
}

// One work-item per element of `count`, rounded up to whole work-groups.
void launch_elements(Execution& execution, cl_kernel kernel, std::uint64_t count) {
    const std::size_t local = execution.pointwise_local_size(kernel);
    execution.launch(kernel, 1, {round_up(count, local), 1, 1}, {local, 1, 1});
}

// ---- unary ----------------------------------------------------------------

void check_unary(const Request& request) {
    if (request.function.empty()) invalid("unary needs a function (exp, log, tanh, erf, gelu, sigmoid, rsqrt)");
    if (!listed(kUnaryFunctions, request.function)) unsupported("unary has no function '" + request.function + "'");
    check_attributes(request, {});
    if (request.inputs.size() != 1 || request.outputs.size() != 1)
        invalid("unary takes one input (x) and one output (y)");
    check_dtypes(request, kSameDtypeConfigs);
    if (request.inputs[0].shape != request.outputs[0].shape) invalid("unary: y must have the shape of x");
}

void run_unary(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    cl_kernel kernel = execution.kernel(Family::unary, kernel_name("unary_" + request.function, x.dtype, y.dtype));
    execution.set_args(kernel, execution.bind(x, "x"), execution.bind(y, "y"), cl_ulong{y.elements()});
    launch_elements(execution, kernel, y.elements());
}

// ---- elementwise ----------------------------------------------------------------

void check_elementwise(const Request& request) {
    if (request.function.empty()) invalid("elementwise needs a function (add, mul, maximum, mul_add)");
    if (!listed(kElementwiseFunctions, request.function))
        unsupported("elementwise has no function '" + request.function + "'");
    check_attributes(request, {});
    // c is read by mul_add only; a binary function accepts it and ignores it.
    const bool ternary = request.function == "mul_add";
    const std::size_t inputs = request.inputs.size();
    if ((ternary ? inputs != 3 : inputs != 2 && inputs != 3) || request.outputs.size() != 1)
        invalid(ternary ? "elementwise mul_add takes three inputs (a, b, c) and one output"
                        : "elementwise " + request.function + " takes two inputs (a, b) and one output");
    const TensorRef& out = request.outputs[0];
    if (!is_float(out.dtype)) unsupported(std::string("elementwise computes f32, f16 and bf16; got ") + name_of(out.dtype));
    for (std::size_t k = 0; k < (ternary ? 3u : 2u); ++k) {
        if (request.inputs[k].dtype != out.dtype)
            unsupported(std::string("elementwise operands and output share one dtype; got ") +
                        name_of(request.inputs[k].dtype) + " and " + name_of(out.dtype));
        if (request.inputs[k].shape != out.shape)
            invalid("elementwise operands and output must have one shape (no broadcasting)");
    }
}

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

void check_cast(const Request& request) {
    check_no_function(request);
    check_attributes(request, {});
    if (request.inputs.size() != 1 || request.outputs.size() != 1) invalid("cast takes one input (x) and one output (y)");
    const Dtype from = request.inputs[0].dtype;
    const Dtype to = request.outputs[0].dtype;
    const bool narrow = from == Dtype::f32 && (to == Dtype::f16 || to == Dtype::bf16);
    const bool widen = (from == Dtype::f16 || from == Dtype::bf16) && to == Dtype::f32;
    if (!narrow && !widen)
        unsupported(std::string("cast converts f32 -> f16, f32 -> bf16, f16 -> f32 and bf16 -> f32; got ") +
                    name_of(from) + " -> " + name_of(to));
    if (request.inputs[0].shape != request.outputs[0].shape) invalid("cast: y must have the shape of x");
}

void run_cast(Execution& execution, const Request& request) {
    const TensorRef& x = request.inputs[0];
    const TensorRef& y = request.outputs[0];
    cl_kernel kernel = execution.kernel(Family::cast, kernel_name("cast", x.dtype, y.dtype));
    execution.set_args(kernel, execution.bind(x, "x"), execution.bind(y, "y"), cl_ulong{y.elements()});
    launch_elements(execution, kernel, y.elements());
}

// ---- gather, under the raise policy ----------------------------------------------

void check_gather(const Request& request) {
    check_no_function(request);
    if (!request.attributes.empty())
        unsupported("gather takes no attributes; got '" + request.attributes.begin()->first + "'");
    if (request.inputs.size() != 2 || request.outputs.size() != 1)
        invalid("gather takes two inputs (table, index) and one output (out)");
    const TensorRef& table = request.inputs[0];
    const TensorRef& index = request.inputs[1];
    const TensorRef& out = request.outputs[0];
    if (!is_float(table.dtype) || (index.dtype != Dtype::i32 && index.dtype != Dtype::i64) || out.dtype != table.dtype)
        unsupported(std::string("gather reads an f32, f16 or bf16 table with i32 or i64 indices into the table's dtype; "
                                "got table ") + name_of(table.dtype) + ", index " + name_of(index.dtype) + ", out " +
                    name_of(out.dtype));
    if (table.shape.size() != 2) invalid("gather: the table must have rank 2 ([R, C])");
    const auto columns = static_cast<std::uint64_t>(table.shape[1]);
    if (out.shape.empty() || static_cast<std::uint64_t>(out.shape.back()) != columns ||
        out.elements() != index.elements() * columns)
        invalid("gather: out must be [N, C] for N indices and a table of C columns");
}

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
