// elementwise: out[i] = add, mul or maximum of (a[i], b[i]), or mul_add of
// (a[i], b[i], c[i]) (spec/v1/operators/elementwise.yaml), and the
// violations contracted_mul_add (C-CMP-03) and nan_dropping_max (C-EXC-01).
//
// The definition asks for each operation rounded once in the output dtype.
// Operands are exact in f32 and the operations run in f32, which gives the
// same bits for f16 and bf16 outputs: a product of two f16 or bf16 values
// is exact in f32, and rounding a sum first to f32 and then to f16 or bf16
// is innocuous double rounding (Figueroa 1995: 24 >= 2p + 2 for p = 11 and
// 8). mul_add rounds its product to the output dtype before adding c, as
// the definition writes it. The library is built with -ffp-contract=off,
// so a * b + c is never fused behind our back.
#include <cmath>
#include <optional>

#include "element_access.hpp"
#include "operator_kernels.hpp"
#include "parallel.hpp"

namespace kcs::kernels::detail {

namespace {

enum class Function { add, mul, maximum, mul_add };

std::optional<Function> parse_function(std::string_view name) {
    if (name == "add") return Function::add;
    if (name == "mul") return Function::mul;
    if (name == "maximum") return Function::maximum;
    if (name == "mul_add") return Function::mul_add;
    return std::nullopt;
}

// IEEE 754-2019 maximum: NaN if either operand is NaN (a + b quiets a
// signalling one), otherwise the larger, with -0 below +0.
float maximum(float a, float b) {
    if (std::isnan(a) || std::isnan(b)) return a + b;
    if (a == b) return std::signbit(a) ? b : a;  // equal zeros: +0 wins
    return a > b ? a : b;
}

float evaluate(Function function, float a, float b, float c, Dtype out, const Settings& settings) {
    const Violation violation = settings.violation;
    switch (function) {
        case Function::add: return a + b;
        case Function::mul: return a * b;
        case Function::maximum:
            // nan_dropping_max: C fmax returns the other operand of a NaN.
            return violation == Violation::nan_dropping_max ? std::fmax(a, b) : maximum(a, b);
        case Function::mul_add:
            // contracted_mul_add and the fma conformer: one rounding, what
            // the compiler's default contraction makes of a * b + c.
            if (fuses_mul_add(settings)) return fused_multiply_add(a, b, c, out);
            return round_through(out, a * b) + c;
    }
    return a;
}

Result check(const OpCall& call, const Settings&) {
    if (call.function.empty()) return invalid("elementwise needs a function (add, mul, maximum, mul_add)");
    const auto function = parse_function(call.function);
    if (!function) return unsupported("elementwise has no function '" + call.function + "'");
    if (!call.attributes.empty())
        return unsupported("elementwise takes no attributes; got '" + call.attributes.begin()->first + "'");
    // c is read by mul_add only; a binary function accepts it and ignores it.
    const bool ternary = *function == Function::mul_add;
    const std::size_t inputs = call.inputs.size();
    if ((ternary ? inputs != 3 : inputs != 2 && inputs != 3) || call.outputs.size() != 1)
        return invalid(ternary ? "elementwise mul_add takes three inputs (a, b, c) and one output"
                               : "elementwise " + call.function + " takes two inputs (a, b) and one output");
    const Tensor& out = call.outputs[0];
    if (!is_float(out.dtype))
        return unsupported("elementwise computes f32, f16 and bf16; got " + std::string(name_of(out.dtype)));
    for (std::size_t k = 0; k < (ternary ? 3u : 2u); ++k) {
        if (call.inputs[k].dtype != out.dtype)
            return unsupported("elementwise operands and output share one dtype; got " +
                               std::string(name_of(call.inputs[k].dtype)) + " and " +
                               std::string(name_of(out.dtype)));
        if (call.inputs[k].shape != out.shape)
            return invalid("elementwise operands and output must have one shape (no broadcasting)");
    }
    return ok();
}

Result compute(const OpCall& call, const Settings& settings) {
    const Function function = *parse_function(call.function);
    const Tensor& a = call.inputs[0];
    const Tensor& b = call.inputs[1];
    const Tensor* c = function == Function::mul_add ? &call.inputs[2] : nullptr;
    const Tensor& out = call.outputs[0];
    const std::int64_t n = out.elements();
    constexpr std::int64_t block = 16384;  // elements per task of the thread pool
    for_each_row((n + block - 1) / block, settings.threads, [&](std::int64_t task) {
        for (std::int64_t i = task * block; i < std::min(n, (task + 1) * block); ++i) {
            const float ci = c ? load(*c, i, settings) : 0.0f;
            store(out, i,
                  evaluate(function, load(a, i, settings), load(b, i, settings), ci, out.dtype, settings),
                  settings);
        }
    });
    return ok();
}

}  // namespace

const OperatorKernel kElementwise{"elementwise", check, compute};

}  // namespace kcs::kernels::detail
