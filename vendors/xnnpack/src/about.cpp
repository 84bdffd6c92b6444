#include "about.hpp"

#include <cpuinfo.h>
#include <xnnpack.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string_view>

#include "operators.hpp"

namespace kcs::xnnpack {

std::string detected_cpu() {
    if (!cpuinfo_initialize()) return "cpuinfo_initialize failed: the features XNNPACK chose by are unknown";
    struct Feature {
        const char* name;
        bool present;
    };
    const Feature features[] = {
        {"sse2", cpuinfo_has_x86_sse2()},         {"ssse3", cpuinfo_has_x86_ssse3()},
        {"sse4.1", cpuinfo_has_x86_sse4_1()},     {"avx", cpuinfo_has_x86_avx()},
        {"f16c", cpuinfo_has_x86_f16c()},         {"fma3", cpuinfo_has_x86_fma3()},
        {"avx2", cpuinfo_has_x86_avx2()},         {"avx512f", cpuinfo_has_x86_avx512f()},
        {"avx512bw", cpuinfo_has_x86_avx512bw()}, {"avx512vl", cpuinfo_has_x86_avx512vl()},
    };
    std::string has, lacks;
    for (const Feature& f : features) (f.present ? has : lacks).append(" ").append(f.name);
    std::string text =
        "has" + (has.empty() ? std::string(" none") : has) + "; lacks" + (lacks.empty() ? std::string(" none") : lacks);
    if (const cpuinfo_core* core = cpuinfo_get_core(0)) {
        char uarch[16];
        std::snprintf(uarch, sizeof uarch, "0x%08x", static_cast<unsigned>(core->uarch));
        text +=
            "; core 0: uarch " + std::string(uarch) + (core->package ? ", " + std::string(core->package->name) : "");
    }
    return text;
}

std::string created_operators() {
    struct Probe {
        const char* name;
        xnn_status (*create)(xnn_operator_t*);
    };
    static const float f32_weight = 1.0f;
    static const std::uint16_t f16_weight = 0x3C00;  // 1.0
    static const Probe probes[] = {
        {"fully_connected_nc_f32",
         [](xnn_operator_t* op) {
             return xnn_create_fully_connected_nc_f32(1, 1, 1, 1, &f32_weight, nullptr, -INFINITY, INFINITY,
                                                      XNN_FLAG_TRANSPOSE_WEIGHTS, op);
         }},
        {"fully_connected_nc_f16",
         [](xnn_operator_t* op) {
             return xnn_create_fully_connected_nc_f16(1, 1, 1, 1, &f16_weight, nullptr, -INFINITY, INFINITY,
                                                      XNN_FLAG_TRANSPOSE_WEIGHTS, op);
         }},
        {"softmax_nc_f32", [](xnn_operator_t* op) { return xnn_create_softmax_nc_f32(1, 1, 1, 0, op); }},
        {"sigmoid_nc_f32", [](xnn_operator_t* op) { return xnn_create_sigmoid_nc_f32(1, 1, 1, 0, op); }},
        {"add_nd_f32", [](xnn_operator_t* op) { return xnn_create_add_nd_f32(-INFINITY, INFINITY, 0, op); }},
        {"add_nd_f16", [](xnn_operator_t* op) { return xnn_create_add_nd_f16(-INFINITY, INFINITY, 0, op); }},
        {"multiply_nd_f32", [](xnn_operator_t* op) { return xnn_create_multiply_nd_f32(-INFINITY, INFINITY, 0, op); }},
        {"multiply_nd_f16", [](xnn_operator_t* op) { return xnn_create_multiply_nd_f16(-INFINITY, INFINITY, 0, op); }},
        {"maximum_nd_f32", [](xnn_operator_t* op) { return xnn_create_maximum_nd_f32(0, op); }},
        {"convert_nc_f32_f16", [](xnn_operator_t* op) { return xnn_create_convert_nc_f32_f16(1, 1, 1, 0, op); }},
        {"convert_nc_f16_f32", [](xnn_operator_t* op) { return xnn_create_convert_nc_f16_f32(1, 1, 1, 0, op); }},
    };
    std::string lines;
    for (const Probe& probe : probes) {
        xnn_operator_t op = nullptr;
        const xnn_status status = probe.create(&op);
        if (op) xnn_delete_operator(op);
        lines += "\n  xnn_create_" + std::string(probe.name) + ": " + status_name(status);
    }
    return lines;
}

}  // namespace kcs::xnnpack
