#include "kcs/harness/runner.hpp"

namespace kcs::harness {

namespace {

CaseResult run_probe(Probe probe, const Instance& instance, const spec::Catalog& catalog, const Claims& claims,
                     GuardedDevice& device, std::uint64_t seed, std::chrono::nanoseconds* adapter_time = nullptr) {
    device.reseed(seed);
    ProbeContext context(instance, catalog, claims, seed, device);
    CaseResult result;
    try {
        result = probe(context);
    } catch (const CaseStop& stop) {
        result = stop.result;
    } catch (const std::exception& e) {
        // A harness-side failure (a malformed parameter, say) is an ERROR of
        // this case, never the end of the run.
        result = verdict_only(Verdict::error, std::string("probe failed: ") + e.what());
    }
    if (adapter_time) *adapter_time = context.adapter_time();
    result.evidence.adapter_calls = context.adapter_calls();
    return require_judgement(std::move(result));
}

}  // namespace

CaseResult run_case(const Instance& instance, Probe probe, const spec::Catalog& catalog, const Claims& claims,
                    host::IsolatedAdapter& adapter, std::uint64_t seed) {
    if (!instance.applicable) return verdict_only(Verdict::not_applicable, instance.not_applicable_reason);
    if (!probe) return verdict_only(Verdict::error, "no probe implements " + instance.contract->id + " for " + instance.op->id);
    GuardedDevice device(adapter, seed);
    return run_probe(probe, instance, catalog, claims, device, seed);
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
    result.verdict = Verdict::pass;
    for (int j = 0; j < seeds; ++j) {
        const std::uint64_t seed = base_seed + static_cast<std::uint64_t>(j);
        const auto start = std::chrono::steady_clock::now();
        std::chrono::nanoseconds adapter_time{0};
        CaseResult c = probe ? run_probe(probe, instance, catalog, claims, device, seed, &adapter_time)
                             : verdict_only(Verdict::error, "no probe implements " + instance.contract->id + " for " +
                                                                instance.op->id);
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
