// A probe implements one contract class's measurement protocol for one
// operator (suites/<family>/: suites/README.md). It describes
// invocations and judges their outputs; the harness runs them under the integrity protocol, so a
// probe reads like the protocol it implements.
//
// A case flows one way (SPEC.md section 8): plan (applicability from the
// catalog) -> support (the probe's declared invocations offered to
// supports(), before any data exists) -> generate -> run under the
// integrity protocol -> judge -> verdict.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kcs/harness/claims.hpp"
#include "kcs/harness/guarded_device.hpp"
#include "kcs/harness/plan.hpp"
#include "kcs/harness/verdict.hpp"

namespace kcs::harness {

// Thrown by ProbeContext::run when the case cannot go on (the adapter
// declined, crashed, hung, failed, or breached the integrity protocol): its
// result is the case's result.
struct CaseStop {
    CaseResult result;
};

class ProbeContext {
public:
    // `declined`: the declared forms the support phase found declined
    // (kept by pointer: it must outlive the context); none when null.
    ProbeContext(const Instance& instance, const spec::Catalog& catalog, const Claims& claims, std::uint64_t seed,
                 GuardedDevice& device, const std::vector<Invocation>* declined = nullptr);

    const Instance& instance() const { return instance_; }
    const spec::Catalog& catalog() const { return catalog_; }
    const Claims& claims() const { return claims_; }
    std::uint64_t seed() const { return seed_; }  // this case's seed: inputs come from it
    // The adapter the runs go to: its path, name and options.
    const host::IsolatedAdapter& adapter() const { return device_.adapter(); }

    // The instance's parameter values at the run's depth.
    std::vector<std::int64_t> int_list(const std::string& name) const;
    std::int64_t integer(const std::string& name) const;

    // Runs under the integrity protocol and returns the outputs. Throws
    // CaseStop with UNSUPPORTED (declined), CRASH, TIMEOUT, ERROR (any other
    // failure, with the adapter's message) or FAIL of C-EXC-02 (a breach).
    // `placement`: where the tensors start within their buffers.
    std::vector<HostTensor> run(const Invocation& invocation, const TensorPlacement& placement = {});

    // The same, but an adapter status is an answer to judge (gather under
    // oob_policy raise): only a lost worker or a breach throw.
    GuardedRun run_for_status(const Invocation& invocation, const TensorPlacement& placement = {});

    // Whether the adapter's supports() accepts the invocation (no data moves).
    bool supported(const Invocation& invocation);

    // Whether the support phase found this invocation's form (the operator,
    // function, accumulator, attributes, dtypes and ranks) among the
    // declared forms the adapter declined. run() of such an invocation stops
    // the case as UNSUPPORTED without calling the adapter; a probe whose
    // protocol has optional parts (attention under the causal mask) asks
    // first and judges the rest.
    bool declined(const Invocation& invocation) const;

    // Runs `body` while a second worker of the same adapter (its companion,
    // IsolatedAdapter::companion) runs `load` over and over, each
    // invocation in turn under the integrity protocol: C-ORD-02's runs under
    // concurrent load. The load starts before `body` and stops after it.
    // The invocations are the caller's, not copied (a bandwidth load's
    // inputs are tens of MiB): they must outlive the call.
    struct LoadRecord {
        std::uint64_t calls = 0;  // load runs the companion answered with KCS_OK while body ran
        std::string failure;      // why the load stopped early, if it did
    };
    LoadRecord under_load(const std::vector<const Invocation*>& load, const std::function<void()>& body);

    // Time spent inside adapter calls by this context's runs so far.
    std::chrono::nanoseconds adapter_time() const { return adapter_time_; }
    // The runs whose run() call the adapter answered (with any status), so far.
    std::uint64_t adapter_calls() const { return adapter_calls_; }
    // Runs made elsewhere that this case's judgement stands on: the parts of
    // a split sweep, whose tallies it folds (Instance::SweepSplit).
    void count_calls_made_elsewhere(std::uint64_t calls) { adapter_calls_ += calls; }

    // Progress of a long probe (an exhaustive sweep): `done` of `total`
    // elements of `what`, e.g. "C-CMP-01 unary.exp f32: 37% (1.6e9 of
    // 4.3e9), 41 s". Goes to the thread's ProgressSink (progress.hpp) when
    // the run installed one; else shown on stderr, rewriting one line at
    // most about once a second (and once at done == total), only when
    // stderr is a terminal. Never part of a result.
    void progress(std::string_view what, std::uint64_t done, std::uint64_t total);

private:
    const Instance& instance_;
    const spec::Catalog& catalog_;
    const Claims& claims_;
    std::uint64_t seed_;
    GuardedDevice& device_;
    const std::vector<Invocation>* declined_;
    std::chrono::nanoseconds adapter_time_{0};
    std::uint64_t adapter_calls_ = 0;
    std::chrono::steady_clock::time_point progress_start_{}, progress_shown_{};
};

// The support phase's key of an invocation: what supports() decides on
// apart from the extents (op, function, accumulator, attributes, dtypes and
// ranks), e.g. "attention f32,f32,f32->f32 acc f32 causal=1 ranks 2,2,2->2".
std::string support_form(const Invocation& invocation);

// The two halves of a probe. `measure` generates its data, runs and judges.
// `declare` lists, before any data exists, a representative invocation of
// every form the probe will run (tensors with dtypes and shapes and no
// bytes); the harness asks supports() for each first: every form declined
// -> UNSUPPORTED and `measure` never runs; some declined -> `measure` runs
// the rest (ProbeContext::declined) and the case's message names the
// declined forms. A probe without `declare` skips the support phase.
using Measure = CaseResult (*)(ProbeContext& context);
using Declare = std::vector<Invocation> (*)(const Instance& instance);

struct Probe {
    Measure measure = nullptr;
    Declare declare = nullptr;
    // Whether the instance's sweep can be cut into parts that run apart and
    // fold (Instance::SweepSplit): an exhaustive sweep, which does not depend
    // on the seed. Null: never.
    using Splits = bool (*)(const Instance& instance);
    Splits splits = nullptr;

    Probe() = default;
    Probe(std::nullptr_t) {}
    Probe(Measure m, Declare d = nullptr) : measure(m), declare(d) {}  // NOLINT: a bare measure is a probe
    explicit operator bool() const { return measure != nullptr; }
    Probe splitting(Splits when) const {
        Probe p = *this;
        p.splits = when;
        return p;
    }
};

}  // namespace kcs::harness
