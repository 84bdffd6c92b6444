#include "run_recorder.hpp"

#include <iostream>

#include "kcs/reports/report_file.hpp"

namespace kcs::cli {

RunRecorder::RunRecorder(reports::RunDescription description, reports::RunResults results, std::filesystem::path file,
                         Clock::time_point started)
    : description_(std::move(description)), results_(std::move(results)), file_(std::move(file)), started_(started) {}

RunRecorder::~RunRecorder() { stop_writer(); }

void RunRecorder::start() {
    {
        std::lock_guard lock(mutex_);
        write(reports::RunState::in_progress);
    }
    writer_ = std::thread(&RunRecorder::write_while_running, this);
}

void RunRecorder::cases_begin() {
    std::lock_guard lock(mutex_);
    cases_start_ = Clock::now();
}

void RunRecorder::cases_end() {
    std::lock_guard lock(mutex_);
    cases_end_ = Clock::now();
}

void RunRecorder::record(std::size_t index, harness::InstanceResult result) {
    std::lock_guard lock(mutex_);
    results_.results[index] = std::move(result);
    changed_ = true;
}

reports::Json RunRecorder::finish(reports::RunState state) {
    stop_writer();
    std::lock_guard lock(mutex_);
    return write(state);
}

void RunRecorder::write_while_running() {
    std::unique_lock lock(mutex_);
    // Each write holds the lock that finished cases wait on, and the report
    // grows with them: writes are spaced at least 10 times their own
    // length apart (at least 1 s), so they never take over 10% of the run.
    Clock::duration pause = std::chrono::seconds(1);
    while (!stopping_) {
        wake_.wait_for(lock, pause, [this] { return stopping_; });
        if (stopping_ || !changed_) continue;
        try {
            const auto start = Clock::now();
            write(reports::RunState::in_progress);
            pause = std::max<Clock::duration>(std::chrono::seconds(1), 10 * (Clock::now() - start));
        } catch (const std::exception& e) {
            // A partial report that cannot be written must not stop the run;
            // the final one is written or the command fails.
            if (!warned_) std::cerr << "kcs: warning: " << e.what() << "\n";
            warned_ = true;
        }
        changed_ = false;
    }
}

void RunRecorder::stop_writer() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (writer_.joinable()) writer_.join();
}

reports::Json RunRecorder::write(reports::RunState state) {
    const auto now = Clock::now();
    const auto cases_wall = cases_start_ ? (cases_end_ ? *cases_end_ : now) - *cases_start_ : Clock::duration{0};
    const reports::ReportTimes times{std::chrono::system_clock::now(), now - started_, cases_wall};
    auto report = reports::build_report(description_, results_, state, times);
    reports::write_file_atomically(file_, reports::report_text(report));
    return report;
}

}  // namespace kcs::cli
