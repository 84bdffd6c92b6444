#include "kcs/suites/operator_io.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include <kcs/dtypes.hpp>

#include "kcs/reference/fill.hpp"

namespace kcs::suites {

kcs_dtype abi_dtype(const std::string& d) {
    const auto dtype = dtype_of_name(d);
    if (!dtype) throw std::invalid_argument("unknown dtype '" + d + "'");
    return code_of(*dtype);
}

const std::string& accumulate_dtype(const harness::Instance& instance) {
    if (!instance.config.accumulate)
        throw std::logic_error(instance.id + " was planned without the accumulate dtype its probe needs");
    return *instance.config.accumulate;
}

ref::Format float_format(const std::string& d) {
    if (d == "f32") return ref::Format::f32;
    if (d == "f16") return ref::Format::f16;
    if (d == "bf16") return ref::Format::bf16;
    throw std::invalid_argument("'" + d + "' is not a float dtype of the catalog (f32, f16, bf16)");
}

harness::HostTensor generate(const std::string& dtype, std::vector<std::int64_t> shape,
                             const ref::Distribution& distribution, std::uint64_t seed, std::uint32_t tensor) {
    harness::HostTensor out = harness::HostTensor::zeros(abi_dtype(dtype), std::move(shape));
    const ref::TensorStream where{seed, tensor};
    if (dtype == "i32" || dtype == "i64") {
        const auto* integers = std::get_if<ref::Integers>(&distribution);
        if (!integers) throw std::invalid_argument("an index tensor needs an integers(LO,HI) distribution");
        out.set_all_bits(std::span<const std::int64_t>(ref::fill_integers(*integers, where, out.elements())));
        return out;
    }
    out.set_all_bits(std::span<const std::uint32_t>(ref::fill_bits(float_format(dtype), distribution, where, out.elements())));
    return out;
}

harness::HostTensor from_values(const std::string& dtype, std::vector<std::int64_t> shape,
                                const std::vector<double>& v) {
    harness::HostTensor out = harness::HostTensor::zeros(abi_dtype(dtype), std::move(shape));
    if (v.size() != out.elements()) throw std::invalid_argument("from_values: value count does not match the shape");
    for (std::size_t i = 0; i < v.size(); ++i) out.set_value(i, v[i]);
    return out;
}

harness::Invocation invocation(const harness::Instance& instance, std::vector<harness::HostTensor> inputs,
                               std::vector<std::int64_t> output_shape) {
    harness::Invocation inv;
    inv.op = instance.op->id;
    inv.function = instance.function;
    inv.accumulate = instance.config.accumulate ? abi_dtype(*instance.config.accumulate) : 0;
    inv.inputs = std::move(inputs);
    inv.outputs.push_back({abi_dtype(instance.config.output), std::move(output_shape)});
    return inv;
}

bool flushes_subnormals(const harness::Claims& claims) { return claims.at("subnormals") == "flush"; }

void read_as_claimed(std::vector<double>& values, ref::Format format, const harness::Claims& claims) {
    if (!flushes_subnormals(claims)) return;
    const double tiny = ref::info(format).min_normal;
    for (double& v : values)
        if (v != 0 && std::fabs(v) < tiny) v = std::copysign(0.0, v);
}

void read_as_claimed(std::vector<std::uint32_t>& bits, ref::Format format, const harness::Claims& claims) {
    if (!flushes_subnormals(claims)) return;
    const auto& f = ref::info(format);
    const std::uint32_t sign = std::uint32_t{1} << (f.storage_bits - 1);
    for (std::uint32_t& b : bits)
        if (ref::classify(format, b) == ref::FloatClass::subnormal) b &= sign;
}

void read_as_claimed(harness::HostTensor& tensor, const harness::Claims& claims) {
    if (!flushes_subnormals(claims)) return;
    const ref::Format format = float_format(harness::dtype_name(tensor.dtype));
    const auto& f = ref::info(format);
    const std::uint64_t sign = std::uint64_t{1} << (f.storage_bits - 1);
    for (std::size_t i = 0; i < tensor.elements(); ++i)
        if (ref::classify(format, static_cast<std::uint32_t>(tensor.bits(i))) == ref::FloatClass::subnormal)
            tensor.set_bits(i, tensor.bits(i) & sign);
}

std::vector<double> draw_as_claimed(const std::string& dtype, std::vector<std::int64_t> shape,
                                    const ref::Distribution& distribution, std::uint64_t seed, std::uint32_t tensor,
                                    const harness::Claims& claims) {
    std::vector<double> out = values(generate(dtype, std::move(shape), distribution, seed, tensor));
    read_as_claimed(out, float_format(dtype), claims);
    return out;
}

std::vector<double> values(const harness::HostTensor& tensor) {
    std::vector<double> out(tensor.elements());
    for (std::size_t i = 0; i < out.size(); ++i) out[i] = tensor.value(i);
    return out;
}

std::string hex_bits(const harness::HostTensor& tensor, std::size_t index) {
    char text[24];
    const int digits = static_cast<int>(harness::dtype_size(tensor.dtype) * 2);
    std::snprintf(text, sizeof text, "0x%0*llx", digits, static_cast<unsigned long long>(tensor.bits(index)));
    return text;
}

}  // namespace kcs::suites
