#include "adapter_info.hpp"

namespace kcs::cpu_core {

namespace {

std::string violation_name(kernels::Violation violation) {
    for (const auto& v : kernels::violations())
        if (v.violation == violation) return std::string(v.name);
    return "none";
}

std::string conformer_name(kernels::Conformer conformer) {
    for (const auto& c : kernels::conformers())
        if (c.conformer == conformer) return std::string(c.name);
    return "none";
}

}  // namespace

std::string adapter_notes(const AdapterProfile& profile, const AdapterOptions& options) {
    const std::string computation = "f32 arithmetic with f32 accumulation, f16 and bf16 rounded to nearest even; "
                                    "threads: " + std::to_string(options.threads);
    if (!profile.offers_violations) return computation;
    std::string offers;
    std::string descriptions;
    for (const auto& v : kernels::violations()) {
        // append(), not operator+: GCC 12 misreads the temporaries (-Wrestrict).
        offers.append(offers.empty() ? "" : ", ").append(v.name);
        descriptions.append("\n").append(v.name).append(" (").append(v.class_id).append("): ").append(v.description);
    }
    std::string conforming;
    for (const auto& c : kernels::conformers()) {
        conforming.append(conforming.empty() ? "" : ", ").append(c.name);
        descriptions.append("\nconforming=").append(c.name).append(" (").append(c.claims).append("): ").append(c.description);
    }
    return "violation: " + violation_name(options.violation) + "; offers: " + offers + "\nconforming: " +
           conformer_name(options.conformer) + "; offers: " + conforming + "\n" + computation + descriptions;
}

}  // namespace kcs::cpu_core
