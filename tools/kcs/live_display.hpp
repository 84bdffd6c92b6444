// What kcs certify shows while it runs. On a terminal: a block redrawn in
// place, an overall line (n/N instances, elapsed, ETA, failures so far)
// and one status line per worker (its instance, and how far its sweep
// is); a FAIL, CRASH or TIMEOUT is printed above the block when it
// happens. Elsewhere (a CI log): one whole line per event, an instance
// ended or a tenth of a sweep done, each with n/N. It alone writes to its
// stream while the run goes on, one line at a time under its lock, so the
// workers' lines never interleave.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "kcs/harness/progress.hpp"
#include "kcs/harness/runner.hpp"

namespace kcs::cli {

class LiveDisplay {
public:
    using Clock = std::chrono::steady_clock;

    struct Settings {
        std::size_t instances = 0;  // N
        std::size_t workers = 1;
        double expected_s = 0;   // the whole plan's expected seconds (cost model); 0: ETA by instance count
        bool terminal = false;   // redraw in place, else a line per event
        std::size_t width = 0;   // a terminal's columns: longer lines are cut (a wrapped line breaks the redraw)
        std::function<Clock::time_point()> now = Clock::now;
    };

    LiveDisplay(std::ostream& out, Settings settings);
    ~LiveDisplay();
    LiveDisplay(const LiveDisplay&) = delete;
    LiveDisplay& operator=(const LiveDisplay&) = delete;

    // Settings for standard output: a terminal when it is one, its width.
    static Settings for_stdout(std::size_t instances, std::size_t workers, double expected_s);

    // Thread-safe. `expected_s`: the instance's share of Settings::expected_s.
    void begin(std::size_t worker, const std::string& instance_id, double expected_s);
    void end(std::size_t worker, const harness::InstanceResult& result);
    // The sink a worker installs (harness::ProgressScope) for its sweeps.
    harness::ProgressSink& sink(std::size_t worker);

    // Leaves the final overall line in place of the block.
    void finish();

    // "1m05s", "42s", "2h03m": elapsed and ETA as the display writes them.
    static std::string duration_text(double seconds);

private:
    struct Worker;
    class WorkerSink;

    void sweep(std::size_t worker, std::string_view what, std::uint64_t done, std::uint64_t total);
    std::string overall_line() const;
    std::string worker_line(std::size_t worker) const;
    std::string cut(std::string line) const;
    void redraw(bool force);  // with mutex_ held
    void erase_block();       // with mutex_ held
    void write_line(const std::string& line);

    std::ostream& out_;
    Settings settings_;
    Clock::time_point start_, drawn_at_{};
    std::size_t drawn_lines_ = 0;
    std::size_t done_ = 0, failed_ = 0, crashed_ = 0;
    double done_expected_s_ = 0;
    bool finished_ = false;
    std::vector<Worker> workers_;
    std::vector<std::unique_ptr<WorkerSink>> sinks_;
    mutable std::mutex mutex_;
};

}  // namespace kcs::cli
