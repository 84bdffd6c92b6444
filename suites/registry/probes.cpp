#include "probes.hpp"

#include <algorithm>

#include "../attention/attention_probes.hpp"
#include "../accuracy/accuracy_probes.hpp"
#include "../exactness/exactness_probes.hpp"
#include "../norm/norm_probes.hpp"
#include "../ordering/ordering_probes.hpp"
#include "../pointwise/pointwise_probes.hpp"
#include "../precision/precision_probes.hpp"
#include "support.hpp"

namespace kcs::suites {

const std::vector<ProbeEntry>& probes() {
    // One line per (class, operator) pair, grouped by operator suite.
    static const std::vector<ProbeEntry> all{
        // ordering probes
        {"C-ORD-02", "matmul", determinism_probe},
        {"C-ORD-02", "reduce_sum", determinism_probe},
        {"C-ORD-02", "reduce_max", determinism_probe},
        {"C-ORD-02", "softmax", determinism_probe},
        {"C-ORD-03", "matmul", batch_invariance_probe},
        {"C-ORD-03", "reduce_sum", batch_invariance_probe},
        {"C-ORD-03", "reduce_max", batch_invariance_probe},
        {"C-ORD-03", "softmax", batch_invariance_probe},
        {"C-EXC-02", "matmul", memory_domain_probe},
        {"C-EXC-02", "reduce_sum", memory_domain_probe},
        {"C-EXC-02", "reduce_max", memory_domain_probe},
        {"C-EXC-02", "softmax", memory_domain_probe},
        {"C-ORD-02", "layernorm", determinism_probe},
        {"C-ORD-03", "layernorm", batch_invariance_probe},
        {"C-EXC-02", "layernorm", memory_domain_probe},
        {"C-ORD-02", "rmsnorm", determinism_probe},
        {"C-ORD-03", "rmsnorm", batch_invariance_probe},
        {"C-EXC-02", "rmsnorm", memory_domain_probe},
        {"C-EXC-02", "gather", gather_policy_probe},
        {"C-ORD-02", "gather", gather_determinism_probe},
        {"C-ORD-02", "attention", determinism_probe},
        {"C-ORD-03", "attention", batch_invariance_probe},
        {"C-EXC-02", "attention", memory_domain_probe},
        {"C-ORD-02", "unary", determinism_probe},
        {"C-EXC-02", "unary", memory_domain_probe},
        {"C-ORD-02", "elementwise", determinism_probe},
        {"C-EXC-02", "elementwise", memory_domain_probe},
        {"C-ORD-02", "cast", determinism_probe},
        {"C-EXC-02", "cast", memory_domain_probe},
        // end of ordering probes
        // precision probes
        {"C-PRC-01", "matmul", accumulator_preservation},
        {"C-PRC-01", "reduce_sum", accumulator_preservation},
        {"C-PRC-01", "softmax", accumulator_preservation},
        {"C-PRC-02", "softmax", cancellation_overflow_safety},
        {"C-PRC-03", "matmul", declared_compute_precision},
        {"C-ORD-01", "matmul", bounded_path_dependence},
        {"C-ORD-01", "reduce_sum", bounded_path_dependence},
        {"C-ORD-01", "softmax", bounded_path_dependence},
        // end of precision probes
        // exactness probes
        {"C-PRC-04", "matmul", conversion_rounding_matmul},
        {"C-PRC-04", "reduce_sum", conversion_rounding_reduce_sum},
        {"C-PRC-04", "softmax", conversion_rounding_softmax},
        {"C-CMP-01", "softmax", exp_accuracy_softmax},
        {"C-CMP-02", "matmul", subnormal_handling_matmul},
        {"C-CMP-02", "reduce_sum", subnormal_handling_reduce_sum},
        {"C-CMP-02", "reduce_max", subnormal_handling_reduce_max},
        {"C-CMP-02", "softmax", subnormal_handling_softmax},
        {"C-EXC-01", "matmul", special_values_matmul},
        {"C-EXC-01", "reduce_sum", special_values_reduce_sum},
        {"C-EXC-01", "reduce_max", special_values_reduce_max},
        {"C-EXC-01", "softmax", special_values_softmax},
        {"C-CMP-02", "gather", subnormal_handling_gather},
        {"C-EXC-01", "gather", special_values_gather},
        // end of exactness probes
        // attention probes
        {"C-PRC-01", "attention", attention_accumulator_preservation},
        {"C-PRC-02", "attention", attention_cancellation_overflow_safety},
        {"C-CMP-01", "attention", attention_exp_accuracy},
        {"C-ORD-01", "attention", attention_bounded_path_dependence},
        {"C-EXC-01", "attention", {attention_special_values, attention_special_value_forms}},
        {"C-PRC-03", "attention", {attention_declared_compute_precision, attention_compute_precision_forms}},
        {"C-CMP-02", "attention", attention_subnormal_handling},
        {"C-PRC-04", "attention", attention_conversion_rounding},
        // end of attention probes
        // norm probes (layernorm, rmsnorm)
        {"C-PRC-01", "layernorm", accumulator_preservation},
        {"C-PRC-01", "rmsnorm", accumulator_preservation},
        {"C-ORD-01", "layernorm", bounded_path_dependence},
        {"C-ORD-01", "rmsnorm", bounded_path_dependence},
        {"C-PRC-02", "layernorm", norm_cancellation_safety},
        {"C-PRC-02", "rmsnorm", norm_cancellation_safety},
        {"C-CMP-03", "layernorm", norm_contraction},
        {"C-CMP-03", "rmsnorm", norm_contraction},
        {"C-PRC-04", "layernorm", conversion_rounding_norm},
        {"C-PRC-04", "rmsnorm", conversion_rounding_norm},
        {"C-CMP-02", "layernorm", norm_subnormal_handling},
        {"C-CMP-02", "rmsnorm", norm_subnormal_handling},
        {"C-EXC-01", "layernorm", norm_special_values},
        {"C-EXC-01", "rmsnorm", norm_special_values},
        // end of norm probes
        // pointwise probes (unary, elementwise, cast)
        {"C-EXC-01", "unary", special_values_unary},
        {"C-EXC-01", "elementwise", special_values_elementwise},
        {"C-EXC-01", "cast", special_values_cast},
        {"C-CMP-02", "unary", subnormal_handling_unary},
        {"C-CMP-02", "elementwise", subnormal_handling_elementwise},
        {"C-CMP-02", "cast", subnormal_handling_cast},
        {"C-CMP-03", "elementwise", contraction_elementwise},
        {"C-CMP-03", "unary", contraction_unary},
        // end of pointwise probes
        // accuracy probes (pointwise operators, chunked sweeps)
        {"C-CMP-01", "unary", harness::Probe(unary_accuracy).splitting(unary_sweep_is_exhaustive)},
        {"C-PRC-04", "cast", harness::Probe(cast_rounding).splitting(cast_sweep_is_exhaustive)},
        {"C-PRC-04", "unary", unary_rounding},
        {"C-PRC-04", "elementwise", elementwise_rounding},
        // end of accuracy probes
    };
    return all;
}

harness::Probe find_probe(std::string_view class_id, std::string_view op) {
    const auto& all = probes();
    const auto it = std::find_if(all.begin(), all.end(),
                                 [&](const ProbeEntry& e) { return e.class_id == class_id && e.op == op; });
    if (it == all.end()) return nullptr;
    // A probe that declares nothing of its own runs the instance's form.
    harness::Probe probe = it->probe;
    if (!probe.declare) probe.declare = declare_instance_form;
    return probe;
}

bool splits_sweep(const harness::Instance& instance) {
    const harness::Probe probe = find_probe(instance.contract->id, instance.op->id);
    return probe.splits && probe.splits(instance);
}

}  // namespace kcs::suites
