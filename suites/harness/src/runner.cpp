#include "kcs/harness/runner.hpp"

#include <optional>

namespace kcs::harness {

namespace {

// The support phase (SPEC.md section 8): each declared form offered to
// supports() before any data exists. Any answer but KCS_UNSUPPORTED counts
// as offered: a run then shows what is wrong.
struct Support {
    std::size_t declared = 0;
    std::vector<Invocation> declined;
    std::string declined_text;  // each declined form with the adapter's message, "; "-joined

    bool none_offered() const { return declared > 0 && declined.size() == declared; }
};

Support support_phase(const Instance& instance, const Probe& probe, GuardedDevice& device) {
    Support support;
    if (!probe.declare) return support;
    const std::vector<Invocation> forms = probe.declare(instance);
    support.declared = forms.size();
    for (const auto& form : forms) {
        const host::CallResult answer = device.supports(form);
        if (answer.outcome != host::CallOutcome::adapter_status || answer.status != KCS_UNSUPPORTED) continue;
        support.declined.push_back(form);
        support.declined_text.append(support.declined_text.empty() ? "" : "; ").append(support_form(form));
        if (!answer.message.empty()) support.declined_text.append(" (").append(answer.message).append(")");
    }
    return support;
}

CaseResult run_probe(const Probe& probe, const Instance& instance, const spec::Catalog& catalog,
                     const Claims& claims, GuardedDevice& device, std::uint64_t seed, const Support& support,
                     std::chrono::nanoseconds* adapter_time = nullptr) {
    if (support.none_offered())
        return verdict_only(Verdict::unsupported,
                            "supports() answered KCS_UNSUPPORTED, before any data existed, for every invocation "
                            "the case declares: " + support.declined_text);
    device.reseed(seed);
    const Claims judged = instance.profile ? judged_under(*instance.profile, claims) : claims;
    ProbeContext context(instance, catalog, judged, seed, device, &support.declined);
    CaseResult result;
    try {
        result = probe.measure(context);
    } catch (const CaseStop& stop) {
        result = stop.result;
    } catch (const std::exception& e) {
        // A harness-side failure (a malformed parameter, say) is an ERROR of
        // this case, never the end of the run.
        result = verdict_only(Verdict::error, std::string("probe failed: ") + e.what());
    }
    if (!support.declined.empty() && result.verdict != Verdict::unsupported)
        result.message.append(" (judged without what the adapter declines: ").append(support.declined_text).append(")");
    if (adapter_time) *adapter_time = context.adapter_time();
    result.evidence.adapter_calls = context.adapter_calls();
    return require_judgement(std::move(result));
}

// The support phase, or the ERROR of a declaration that failed.
std::optional<CaseResult> declare_and_ask(const Instance& instance, const Probe& probe, GuardedDevice& device,
                                          Support& support) {
    try {
        support = support_phase(instance, probe, device);
        return std::nullopt;
    } catch (const std::exception& e) {
        return verdict_only(Verdict::error, std::string("probe's declaration failed: ") + e.what());
    }
}

CaseResult no_probe(const Instance& instance) {
    return verdict_only(Verdict::error, "no probe implements " + instance.contract->id + " for " + instance.op->id);
}

}  // namespace

CaseResult run_case(const Instance& instance, Probe probe, const spec::Catalog& catalog, const Claims& claims,
                    host::IsolatedAdapter& adapter, std::uint64_t seed) {
    if (!instance.applicable) return verdict_only(Verdict::not_applicable, instance.not_applicable_reason);
    if (!probe) return no_probe(instance);
    GuardedDevice device(adapter, seed);
    Support support;
    if (auto failed = declare_and_ask(instance, probe, device, support)) return *failed;
    return run_probe(probe, instance, catalog, claims, device, seed, support);
}

InstanceResult run_instance(const Instance& instance, Probe probe, const spec::Catalog& catalog,
                            const Claims& claims, host::IsolatedAdapter& adapter, std::uint64_t base_seed, int seeds) {
    InstanceResult result;
    result.instance = &instance;
    if (!instance.applicable) {
        result.verdict = Verdict::not_applicable;
        return result;
    }
    // One device for all seeds: they run in the same buffers (SPEC section 7, rule 4).
    GuardedDevice device(adapter, base_seed);
    Support support;
    std::optional<CaseResult> unusable = probe ? declare_and_ask(instance, probe, device, support) : no_probe(instance);
    result.verdict = Verdict::pass;
    for (int j = 0; j < seeds; ++j) {
        const std::uint64_t seed = base_seed + static_cast<std::uint64_t>(j);
        const auto start = std::chrono::steady_clock::now();
        std::chrono::nanoseconds adapter_time{0};
        CaseResult c = unusable ? *unusable
                                : run_probe(probe, instance, catalog, claims, device, seed, support, &adapter_time);
        result.verdict = worst_of(result.verdict, c.verdict);
        const bool judged_for_all = c.seed_independent && (c.verdict == Verdict::pass || c.verdict == Verdict::fail);
        result.cases.push_back({seed, std::move(c), std::chrono::steady_clock::now() - start, adapter_time});
        if (!judged_for_all) continue;
        // The same inputs for every seed: the later seeds record the first one's judgement.
        for (int k = j + 1; k < seeds; ++k) {
            CaseRecord same = result.cases.back();
            same.seed = base_seed + static_cast<std::uint64_t>(k);
            same.result.message.append(" (the same inputs as seed ").append(std::to_string(seed)).append(
                ", judged once)");
            same.wall = {};
            same.adapter_time = {};
            result.cases.push_back(std::move(same));
        }
        break;
    }
    return result;
}

}  // namespace kcs::harness
