#include "live_display.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "kcs/reference/number_text.hpp"
#include "kcs/reports/summary.hpp"

namespace kcs::cli {

struct LiveDisplay::Worker {
    std::string instance;  // empty: idle
    double expected_s = 0;
    Clock::time_point started{};
    std::string sweep;  // the sweep in progress, or empty
    std::uint64_t done = 0, total = 0;
    int tenths_shown = -1;  // line-per-event: the last tenth of the sweep written
};

class LiveDisplay::WorkerSink : public harness::ProgressSink {
public:
    WorkerSink(LiveDisplay& display, std::size_t worker) : display_(display), worker_(worker) {}
    void sweep(std::string_view what, std::uint64_t done, std::uint64_t total) override {
        display_.sweep(worker_, what, done, total);
    }

private:
    LiveDisplay& display_;
    std::size_t worker_;
};

namespace {

constexpr auto kRedrawEvery = std::chrono::milliseconds(250);

double seconds_between(LiveDisplay::Clock::time_point from, LiveDisplay::Clock::time_point to) {
    return std::chrono::duration<double>(to - from).count();
}

// "[ 37/568]": the count padded to N's width, so the lines align.
std::string count_text(std::size_t done, std::size_t total) {
    const std::string n = std::to_string(total);
    std::string d = std::to_string(done);
    if (d.size() < n.size()) d.insert(0, n.size() - d.size(), ' ');
    return "[" + d + "/" + n + "]";
}

bool announced(harness::Verdict verdict) {
    using harness::Verdict;
    return verdict == Verdict::fail || verdict == Verdict::crash || verdict == Verdict::timeout;
}

}  // namespace

std::string LiveDisplay::duration_text(double seconds) {
    const long s = std::lround(std::max(0.0, seconds));
    char buffer[32];
    if (s < 60)
        std::snprintf(buffer, sizeof buffer, "%lds", s);
    else if (s < 3600)
        std::snprintf(buffer, sizeof buffer, "%ldm%02lds", s / 60, s % 60);
    else
        std::snprintf(buffer, sizeof buffer, "%ldh%02ldm", s / 3600, s / 60 % 60);
    return buffer;
}

LiveDisplay::Settings LiveDisplay::for_stdout(std::size_t instances, std::size_t workers, double expected_s) {
    Settings settings;
    settings.instances = instances;
    settings.workers = workers;
    settings.expected_s = expected_s;
    const char* term = std::getenv("TERM");
    settings.terminal = isatty(STDOUT_FILENO) == 1 && !(term && std::strcmp(term, "dumb") == 0);
    winsize size{};
    settings.width = ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0 ? size.ws_col : 80;
    return settings;
}

LiveDisplay::LiveDisplay(std::ostream& out, Settings settings)
    : out_(out), settings_(std::move(settings)), start_(settings_.now()), workers_(std::max<std::size_t>(1, settings_.workers)) {
    for (std::size_t w = 0; w < workers_.size(); ++w) sinks_.push_back(std::make_unique<WorkerSink>(*this, w));
    std::lock_guard lock(mutex_);
    redraw(true);
}

LiveDisplay::~LiveDisplay() { finish(); }

harness::ProgressSink& LiveDisplay::sink(std::size_t worker) { return *sinks_.at(worker); }

void LiveDisplay::begin(std::size_t worker, const std::string& instance_id, double expected_s) {
    std::lock_guard lock(mutex_);
    workers_.at(worker) = Worker{instance_id, expected_s, settings_.now(), {}, 0, 0, -1};
    redraw(false);
}

void LiveDisplay::end(std::size_t worker, const harness::InstanceResult& result) {
    std::lock_guard lock(mutex_);
    Worker& w = workers_.at(worker);
    ++done_;
    done_expected_s_ += w.expected_s;
    if (result.verdict == harness::Verdict::fail) ++failed_;
    if (result.verdict == harness::Verdict::crash || result.verdict == harness::Verdict::timeout) ++crashed_;
    std::string verdict(harness::to_string(result.verdict));
    verdict.resize(std::max<std::size_t>(verdict.size(), 8), ' ');
    std::string line = verdict + " " + (result.instance ? result.instance->id : w.instance);
    if (announced(result.verdict))
        if (const auto worst = reports::worst_case(result))
            line += "  seed " + std::to_string(result.cases[*worst].seed) + ": " + result.cases[*worst].result.message;
    const double took = seconds_between(w.started, settings_.now());
    w = Worker{};
    if (settings_.terminal) {
        if (announced(result.verdict)) {
            erase_block();
            write_line(cut(line));
        }
        redraw(announced(result.verdict));
    } else {
        write_line(count_text(done_, settings_.instances) + " " + line + " (" + ref::number_text(took, 2) + " s)");
    }
}

void LiveDisplay::sweep(std::size_t worker, std::string_view what, std::uint64_t done, std::uint64_t total) {
    std::lock_guard lock(mutex_);
    Worker& w = workers_.at(worker);
    w.sweep = std::string(what);
    w.done = std::min(done, total);
    w.total = total;
    if (settings_.terminal) {
        redraw(false);
        return;
    }
    const int tenths = total == 0 ? 10 : static_cast<int>(10 * w.done / total);
    if (tenths == w.tenths_shown) return;
    w.tenths_shown = tenths;
    write_line(count_text(done_, settings_.instances) + " " + worker_line(worker).substr(2));
}

void LiveDisplay::finish() {
    std::lock_guard lock(mutex_);
    if (finished_) return;
    finished_ = true;
    erase_block();
    write_line(count_text(done_, settings_.instances) + " " + (done_ == settings_.instances ? "done" : "stopped") +
               " in " + duration_text(seconds_between(start_, settings_.now())) +
               (failed_ ? ", " + std::to_string(failed_) + " FAIL" : "") +
               (crashed_ ? ", " + std::to_string(crashed_) + " CRASH or TIMEOUT" : ""));
}

std::string LiveDisplay::overall_line() const {
    const double elapsed = seconds_between(start_, settings_.now());
    // The share of the plan done: instances ended, and the running sweeps'
    // part of theirs, weighed by what the cost model expects each to take.
    double fraction = 0;
    if (settings_.expected_s > 0) {
        double done_s = done_expected_s_;
        for (const Worker& w : workers_)
            if (w.total > 0) done_s += w.expected_s * static_cast<double>(w.done) / static_cast<double>(w.total);
        fraction = std::min(1.0, done_s / settings_.expected_s);
    } else if (settings_.instances > 0) {
        fraction = static_cast<double>(done_) / static_cast<double>(settings_.instances);
    }
    std::string line = count_text(done_, settings_.instances) + " " + duration_text(elapsed) + " elapsed, ETA ";
    line += fraction > 0 && elapsed >= 1 ? duration_text(elapsed * (1 - fraction) / fraction) : std::string("-");
    if (failed_) line += ", " + std::to_string(failed_) + " FAIL";
    if (crashed_) line += ", " + std::to_string(crashed_) + " CRASH or TIMEOUT";
    return line;
}

std::string LiveDisplay::worker_line(std::size_t worker) const {
    const Worker& w = workers_[worker];
    std::string line = "  worker " + std::to_string(worker + 1) + ": ";
    if (w.instance.empty()) return line + "idle";
    line += w.instance + " " + duration_text(seconds_between(w.started, settings_.now()));
    if (w.total > 0)
        line += ", " + w.sweep + " " + std::to_string(100 * w.done / w.total) + "% (" +
                ref::number_text(static_cast<double>(w.done)) + " of " + ref::number_text(static_cast<double>(w.total)) +
                ")";
    return line;
}

std::string LiveDisplay::cut(std::string line) const {
    if (settings_.terminal && settings_.width > 1 && line.size() >= settings_.width) line.resize(settings_.width - 1);
    return line;
}

void LiveDisplay::redraw(bool force) {
    if (!settings_.terminal || finished_) return;
    const auto now = settings_.now();
    if (!force && drawn_lines_ > 0 && now - drawn_at_ < kRedrawEvery) return;
    drawn_at_ = now;
    std::string block = drawn_lines_ > 0 ? "\x1b[" + std::to_string(drawn_lines_) + "F\x1b[J" : std::string();
    block += cut(overall_line()) + "\n";
    for (std::size_t w = 0; w < workers_.size(); ++w) block += cut(worker_line(w)) + "\n";
    drawn_lines_ = workers_.size() + 1;
    out_ << block << std::flush;
}

void LiveDisplay::erase_block() {
    if (drawn_lines_ == 0) return;
    out_ << "\x1b[" << drawn_lines_ << "F\x1b[J";
    drawn_lines_ = 0;
}

void LiveDisplay::write_line(const std::string& line) { out_ << line + "\n" << std::flush; }

}  // namespace kcs::cli
