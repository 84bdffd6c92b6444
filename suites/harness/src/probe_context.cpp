// ProbeContext: what a probe may do, and how the outcomes of the adapter
// and of the integrity protocol become verdicts.
#include "kcs/harness/figures.hpp"
#include "kcs/harness/probe.hpp"

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <thread>
#include <type_traits>
#include <variant>

#include "kcs/harness/progress.hpp"
#include "kcs/reference/number_text.hpp"

namespace kcs::harness {

namespace {

// A breach fails C-EXC-02 whatever the probe measured (SPEC section 7).
CaseResult breach_result(const std::vector<Breach>& breaches) {
    CaseResult r = verdict_only(Verdict::fail, breaches.front().detail);
    r.violated_class = std::string(kBreachClass);
    r.signature = breaches.front().signature;
    r.evidence.figure_name = harness::figures::integrity_breaches.name;
    r.evidence.figure = static_cast<double>(breaches.size());
    r.evidence.bound = 0;
    for (const auto& b : breaches) r.evidence.details["breaches"].push_back({{"signature", b.signature}, {"detail", b.detail}});
    return r;
}

CaseResult call_failure(const host::CallResult& call) {
    using host::CallOutcome;
    switch (call.outcome) {
        case CallOutcome::crash: return verdict_only(Verdict::crash, call.describe());
        case CallOutcome::timeout: return verdict_only(Verdict::timeout, call.describe());
        case CallOutcome::adapter_status:
            if (call.status == KCS_UNSUPPORTED) return verdict_only(Verdict::unsupported, call.describe());
            return verdict_only(Verdict::error, call.describe());
        default: return verdict_only(Verdict::error, call.describe());
    }
}

std::string attribute_text(const host::AttributeValue& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::string>) return v;
            else if constexpr (std::is_same_v<T, bool>) return v ? "true" : "false";
            else if constexpr (std::is_floating_point_v<T>) return ref::number_text(v);
            else return std::to_string(v);
        },
        value);
}

}  // namespace

std::string support_form(const Invocation& invocation) {
    std::string form = invocation.op;
    if (invocation.function) form.append(".").append(*invocation.function);
    const auto dtypes = [&form](const auto& tensors) {
        for (std::size_t i = 0; i < tensors.size(); ++i)
            form.append(i ? "," : "").append(dtype_name(tensors[i].dtype));
    };
    const auto ranks = [&form](const auto& tensors) {
        for (std::size_t i = 0; i < tensors.size(); ++i)
            form.append(i ? "," : "").append(std::to_string(tensors[i].shape.size()));
    };
    form.append(" ");
    dtypes(invocation.inputs);
    form.append("->");
    dtypes(invocation.outputs);
    if (invocation.accumulate) form.append(" acc ").append(dtype_name(invocation.accumulate));
    for (const auto& a : invocation.attributes) form.append(" ").append(a.name).append("=").append(attribute_text(a.value));
    form.append(" ranks ");
    ranks(invocation.inputs);
    form.append("->");
    ranks(invocation.outputs);
    return form;
}

ProbeContext::ProbeContext(const Instance& instance, const spec::Catalog& catalog, const Claims& claims,
                           std::uint64_t seed, GuardedDevice& device, const std::vector<Invocation>* declined)
    : instance_(instance), catalog_(catalog), claims_(claims), seed_(seed), device_(device), declined_(declined) {}

bool ProbeContext::declined(const Invocation& invocation) const {
    if (!declined_ || declined_->empty()) return false;
    const std::string form = support_form(invocation);
    for (const auto& d : *declined_)
        if (support_form(d) == form) return true;
    return false;
}

std::vector<std::int64_t> ProbeContext::int_list(const std::string& name) const {
    return instance_.parameters.at(name).get<std::vector<std::int64_t>>();
}

std::int64_t ProbeContext::integer(const std::string& name) const {
    return instance_.parameters.at(name).get<std::int64_t>();
}

GuardedRun ProbeContext::run_for_status(const Invocation& invocation, const TensorPlacement& placement) {
    // The adapter said no before any data existed: never ask it to run.
    if (declined(invocation))
        throw CaseStop{verdict_only(Verdict::unsupported, "the support phase found " + support_form(invocation) +
                                                              " declined (supports() answered KCS_UNSUPPORTED)")};
    GuardedRun run = device_.run(invocation, placement);
    adapter_time_ += run.adapter_time;
    if (!run.breaches.empty()) throw CaseStop{breach_result(run.breaches)};
    // A failure while the harness moved data (allocate, write, read back) is
    // never the run's own answer: only run()'s status may be judged.
    if (run.step != GuardedStep::run || run.call.worker_lost() ||
        run.call.outcome == host::CallOutcome::invalid_status || run.call.outcome == host::CallOutcome::stale_buffer)
        throw CaseStop{call_failure(run.call)};
    ++adapter_calls_;
    return run;
}

void ProbeContext::progress(std::string_view what, std::uint64_t done, std::uint64_t total) {
    if (ProgressSink* sink = thread_progress_sink()) {
        sink->sweep(what, done, total);
        return;
    }
    static const bool terminal = isatty(STDERR_FILENO) == 1;
    if (!terminal || total == 0) return;
    const auto now = std::chrono::steady_clock::now();
    if (done == 0 || progress_start_ == std::chrono::steady_clock::time_point{}) progress_start_ = now;
    const bool finished = done >= total;
    if (!finished && now - progress_shown_ < std::chrono::seconds(1)) return;
    progress_shown_ = now;
    const double seconds = std::chrono::duration<double>(now - progress_start_).count();
    std::fprintf(stderr, "\r%.*s: %3.0f%% (%.2g of %.2g), %.0f s%s", static_cast<int>(what.size()), what.data(),
                 100.0 * static_cast<double>(done) / static_cast<double>(total), static_cast<double>(done),
                 static_cast<double>(total), seconds, finished ? "\n" : "");
    std::fflush(stderr);
}

bool ProbeContext::supported(const Invocation& invocation) { return device_.supports(invocation).ok(); }

ProbeContext::LoadRecord ProbeContext::under_load(const std::vector<const Invocation*>& load,
                                                  const std::function<void()>& body) {
    if (load.empty()) {
        body();
        return {0, "no load was given"};
    }
    host::IsolatedAdapter* companion = nullptr;
    try {
        companion = &device_.companion();
    } catch (const std::exception& e) {  // no second worker: the body runs without load, and says so
        body();
        return {0, std::string("the second worker did not start: ") + e.what()};
    }
    host::IsolatedAdapter& worker = *companion;
    std::atomic<bool> stop{false};
    std::atomic<std::uint64_t> calls{0};
    std::string failure;
    std::mutex started_mutex;
    std::condition_variable started;
    bool first_done = false;
    // The companion's own guarded device, canaries keyed by another seed.
    std::thread loader([&] {
        GuardedDevice device(worker, seed_ ^ 0x9E3779B97F4A7C15u);
        const auto signal = [&] {
            std::lock_guard lock(started_mutex);
            first_done = true;
            started.notify_all();
        };
        try {
            for (std::size_t k = 0; !stop.load(); k = (k + 1) % load.size()) {
                const GuardedRun run = device.run(*load[k]);
                if (!run.call.ok() || !run.breaches.empty()) {
                    failure = run.call.ok() ? run.breaches.front().detail : run.call.describe();
                    break;
                }
                ++calls;
                if (calls == 1) signal();
            }
        } catch (const std::exception& e) {
            failure = e.what();
        }
        signal();
    });
    {  // The body starts once the load runs (or has given up).
        std::unique_lock lock(started_mutex);
        started.wait(lock, [&] { return first_done; });
    }
    const std::uint64_t before = calls.load();
    try {
        body();
    } catch (...) {
        stop = true;
        loader.join();
        throw;
    }
    stop = true;
    loader.join();
    return {calls.load() - before, failure};
}

std::vector<HostTensor> ProbeContext::run(const Invocation& invocation, const TensorPlacement& placement) {
    GuardedRun run = run_for_status(invocation, placement);
    if (!run.call.ok()) throw CaseStop{call_failure(run.call)};
    return std::move(run.outputs);
}

}  // namespace kcs::harness
