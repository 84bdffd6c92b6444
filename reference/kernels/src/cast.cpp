// cast: y[i] = convert(x[i]) between f32 and f16 or bf16
// (spec/v1/operators/cast.yaml). Widening is exact (load); narrowing is the
// single round-to-nearest-even conversion of store(), which also carries
// the bf16_truncate and ftz_daz violations.
#include "element_access.hpp"
#include "operator_kernels.hpp"
#include "parallel.hpp"

namespace kcs::kernels::detail {

namespace {

bool is_config(Dtype from, Dtype to) {
    const bool narrow = from == Dtype::f32 && (to == Dtype::f16 || to == Dtype::bf16);
    const bool widen = (from == Dtype::f16 || from == Dtype::bf16) && to == Dtype::f32;
    return narrow || widen;
}

Result check(const OpCall& call, const Settings&) {
    if (!call.function.empty()) return unsupported("cast has no functions; got '" + call.function + "'");
    if (!call.attributes.empty())
        return unsupported("cast takes no attributes; got '" + call.attributes.begin()->first + "'");
    if (call.inputs.size() != 1 || call.outputs.size() != 1)
        return invalid("cast takes one input (x) and one output (y)");
    const Tensor& x = call.inputs[0];
    const Tensor& y = call.outputs[0];
    if (!is_config(x.dtype, y.dtype))
        return unsupported("cast converts f32 -> f16, f32 -> bf16, f16 -> f32 and bf16 -> f32; got " +
                           std::string(name_of(x.dtype)) + " -> " + std::string(name_of(y.dtype)));
    if (x.shape != y.shape) return invalid("cast: y must have the shape of x");
    return ok();
}

Result compute(const OpCall& call, const Settings& settings) {
    const Tensor& x = call.inputs[0];
    const Tensor& y = call.outputs[0];
    const std::int64_t n = y.elements();
    constexpr std::int64_t block = 16384;  // elements per task of the thread pool
    for_each_row((n + block - 1) / block, settings.threads, [&](std::int64_t b) {
        for (std::int64_t i = b * block; i < std::min(n, (b + 1) * block); ++i)
            store(y, i, load(x, i, settings), settings);
    });
    return ok();
}

}  // namespace

const OperatorKernel kCast{"cast", check, compute};

}  // namespace kcs::kernels::detail
