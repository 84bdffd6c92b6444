// The results of a certify run as they come in from its workers, and the
// report file they go to: written at the start, then once a second while
// something changed, and at the end. A run that is interrupted, or a kcs
// that dies, so still leaves a report, marked as not finished.
#pragma once

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <optional>
#include <thread>

#include "kcs/reports/report.hpp"

namespace kcs::cli {

class RunRecorder {
public:
    using Clock = std::chrono::steady_clock;

    // `started`: when the command started, so that the total time includes
    // loading the catalog and starting the workers.
    RunRecorder(reports::RunDescription description, reports::RunResults results, std::filesystem::path file,
                Clock::time_point started);
    ~RunRecorder();
    RunRecorder(const RunRecorder&) = delete;
    RunRecorder& operator=(const RunRecorder&) = delete;

    // Writes the first report (every instance missing) and starts the
    // writer. Throws when the file cannot be written: the run has no place
    // for its result.
    void start();

    void cases_begin();
    void cases_end();

    // Thread-safe.
    void record(std::size_t index, harness::InstanceResult result);

    // Stops the writer and writes the final report; returns it.
    reports::Json finish(reports::RunState state);

    // Fixed once made: safe to read from any thread.
    const std::vector<harness::Instance>& plan() const { return results_.plan; }
    const reports::RunDescription& description() const { return description_; }

private:
    void write_while_running();
    reports::Json write(reports::RunState state);  // with mutex_ held
    void stop_writer();

    reports::RunDescription description_;
    reports::RunResults results_;
    std::filesystem::path file_;
    Clock::time_point started_;
    std::optional<Clock::time_point> cases_start_, cases_end_;

    std::mutex mutex_;
    std::condition_variable wake_;
    bool changed_ = false;
    bool stopping_ = false;
    bool warned_ = false;
    std::thread writer_;
};

}  // namespace kcs::cli
