#include "families.hpp"

#include <span>

#include "kcs_cuda_kernel_sources.hpp"
#include "op_checks.hpp"

namespace kcs::cuda {

namespace {

using device::Dtype;
using Instance = device::DtypeConfig;  // input and output dtypes (gather: table and index)

// The configurations each family serves (spec/v1/operators): the
// accumulating operators' five and the same-dtype three (op_checks.hpp's,
// which the operator checks accept), cast's four, gather's table bits and
// index types.
constexpr Instance kCast[] = {
    {Dtype::f32, Dtype::f16}, {Dtype::f32, Dtype::bf16}, {Dtype::f16, Dtype::f32}, {Dtype::bf16, Dtype::f32}};
constexpr Instance kGather[] = {
    {Dtype::f32, Dtype::i32}, {Dtype::f32, Dtype::i64}, {Dtype::f16, Dtype::i32}, {Dtype::f16, Dtype::i64}};

constexpr const char* kUnary[] = {"exp", "log", "tanh", "erf", "gelu", "sigmoid", "rsqrt"};
constexpr const char* kElementwise[] = {"add", "mul", "maximum", "mul_add"};

const char* cuda_type(Dtype dtype) {
    switch (dtype) {
        case Dtype::f32: return "float";
        case Dtype::f16: return "__half";
        case Dtype::bf16: return "__nv_bfloat16";
        case Dtype::i32: return "int";
        case Dtype::i64: return "long long";
        default: return "?";  // no kernel takes it: the operator checks decline it first
    }
}

void add_all(std::vector<std::string>& out, std::string_view kernel, std::span<const Instance> instances) {
    for (const Instance& instance : instances) out.push_back(name_expression(kernel, instance.input, instance.output));
}


}  // namespace

const char* name_of(Family family) {
    switch (family) {
        case Family::matmul: return "matmul";
        case Family::reduce: return "reduce";
        case Family::softmax: return "softmax";
        case Family::norms: return "norms";
        case Family::attention: return "attention";
        case Family::unary: return "unary";
        case Family::elementwise: return "elementwise";
        case Family::cast: return "cast";
        case Family::gather: return "gather";
    }
    return "?";
}

std::string module_source(Family family) {
    std::string source(kernel_sources::common);
    return source.append("\n").append(kernel_sources::named(name_of(family)));  // kernels/NAME.cuh
}

std::string name_expression(std::string_view kernel, Dtype input, Dtype output) {
    return std::string("kcs::").append(kernel) + "<" + cuda_type(input) + ", " + cuda_type(output) + ">";
}

std::string gather_expression(Dtype table, Dtype index) {
    return std::string("kcs::gather<") + (table == Dtype::f32 ? "unsigned int" : "unsigned short") + ", " +
           cuda_type(index) + ">";
}

std::vector<std::string> name_expressions(Family family) {
    std::vector<std::string> names;
    switch (family) {
        case Family::matmul: add_all(names, "matmul", device::kAccumulatingConfigs); break;
        case Family::reduce:
            add_all(names, "reduce_sum", device::kAccumulatingConfigs);
            add_all(names, "reduce_max", device::kSameDtypeConfigs);
            break;
        case Family::softmax: add_all(names, "softmax", device::kAccumulatingConfigs); break;
        case Family::norms:
            add_all(names, "layernorm", device::kAccumulatingConfigs);
            add_all(names, "rmsnorm", device::kAccumulatingConfigs);
            break;
        case Family::attention: add_all(names, "attention", device::kAccumulatingConfigs); break;
        case Family::unary:
            for (const char* function : kUnary)
                add_all(names, std::string("unary_") + function, device::kSameDtypeConfigs);
            break;
        case Family::elementwise:
            for (const char* function : kElementwise)
                add_all(names, std::string("elementwise_") + function, device::kSameDtypeConfigs);
            break;
        case Family::cast: add_all(names, "cast", kCast); break;
        case Family::gather:
            for (const Instance& instance : kGather) names.push_back(gather_expression(instance.input, instance.output));
            break;
    }
    return names;
}

}  // namespace kcs::cuda
