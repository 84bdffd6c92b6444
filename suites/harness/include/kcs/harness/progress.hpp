// Where a long probe's progress goes (ProbeContext::progress): the display
// of the run that installed a sink on this thread (kcs certify's live
// display), else one line rewritten on stderr when it is a terminal.
#pragma once

#include <cstdint>
#include <string_view>

namespace kcs::harness {

class ProgressSink {
public:
    virtual ~ProgressSink() = default;
    // `done` of `total` elements of `what` (e.g. "C-CMP-01 unary.exp f32");
    // called from the thread that runs the probe, often many times a second.
    virtual void sweep(std::string_view what, std::uint64_t done, std::uint64_t total) = 0;
};

// Installs `sink` for the calling thread until the scope ends (the one it
// replaced comes back): a run's worker threads each install their own.
class ProgressScope {
public:
    explicit ProgressScope(ProgressSink* sink);
    ~ProgressScope();
    ProgressScope(const ProgressScope&) = delete;
    ProgressScope& operator=(const ProgressScope&) = delete;

private:
    ProgressSink* previous_;
};

// The calling thread's sink, or null.
ProgressSink* thread_progress_sink();

}  // namespace kcs::harness
