// kcs certify's live display (tools/kcs/live_display.hpp): line per event
// off a terminal, never interleaved; on a terminal a block redrawn in
// place, checked by replaying the escape sequences on a small screen.
#include "live_display.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <thread>

namespace kcs::cli {
namespace {

using Clock = LiveDisplay::Clock;

// A clock the test moves by hand.
struct FakeClock {
    Clock::time_point t{};
    void advance(double seconds) { t += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds)); }
};

LiveDisplay::Settings settings(std::size_t instances, std::size_t workers, double expected_s, bool terminal,
                               FakeClock* clock) {
    LiveDisplay::Settings s;
    s.instances = instances;
    s.workers = workers;
    s.expected_s = expected_s;
    s.terminal = terminal;
    s.width = 60;
    if (clock) s.now = [clock] { return clock->t; };
    return s;
}

harness::InstanceResult result_of(const harness::Instance& instance, harness::Verdict verdict) {
    harness::InstanceResult r{&instance, verdict, {}};
    harness::CaseRecord c;
    c.seed = 7;
    c.result.verdict = verdict;
    c.result.message = "max 5 ulp > 3";
    r.cases.push_back(c);
    return r;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

// What a terminal shows after `text`: plain characters and newlines, ESC [ n F
// (to the start of the line n up) and ESC [ J (erase to the end of the screen).
std::vector<std::string> screen_after(const std::string& text) {
    std::vector<std::string> screen(1);
    std::size_t row = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '\x1b') {
            const std::size_t end = text.find_first_of("FJ", i);
            const int n = end > i + 2 ? std::stoi(text.substr(i + 2, end - i - 2)) : 0;
            if (text[end] == 'F') {
                row -= std::min<std::size_t>(row, static_cast<std::size_t>(n));
                screen[row].clear();
            } else {
                screen.resize(row + 1);
                screen[row].clear();
            }
            i = end;
        } else if (text[i] == '\n') {
            if (++row == screen.size()) screen.emplace_back();
        } else {
            screen[row] += text[i];
        }
    }
    if (screen.back().empty()) screen.pop_back();
    return screen;
}

harness::Instance instance_named(const std::string& id) {
    harness::Instance i;
    i.id = id;
    return i;
}

TEST(LiveDisplay, OffATerminalWritesALinePerEventWithTheCount) {
    FakeClock clock;
    std::ostringstream out;
    const auto a = instance_named("v1/C-ACC-01/softmax/f32-f32/default");
    const auto b = instance_named("v1/C-CMP-01/unary.exp/f32-f32/exhaustive");
    {
        LiveDisplay display(out, settings(2, 1, 0, false, &clock));
        display.begin(0, a.id, 1);
        clock.advance(1.5);
        display.end(0, result_of(a, harness::Verdict::pass));
        display.begin(0, b.id, 1);
        for (std::uint64_t done = 0; done <= 100; done += 5) display.sink(0).sweep("C-CMP-01 unary.exp f32", done, 100);
        display.end(0, result_of(b, harness::Verdict::fail));
        clock.advance(70);
    }
    const auto lines = lines_of(out.str());
    EXPECT_EQ(out.str().find('\x1b'), std::string::npos) << out.str();
    ASSERT_EQ(lines.size(), 1u + 11u + 1u + 1u) << out.str();  // an instance, eleven tenths, an instance, the end
    EXPECT_EQ(lines[0], "[1/2] PASS     v1/C-ACC-01/softmax/f32-f32/default (1.5 s)");
    EXPECT_EQ(lines[1], "[1/2] worker 1: v1/C-CMP-01/unary.exp/f32-f32/exhaustive 0s, C-CMP-01 unary.exp f32 0% (0 of 100)");
    EXPECT_NE(lines[11].find(", C-CMP-01 unary.exp f32 100% (100 of 100)"), std::string::npos) << lines[11];
    EXPECT_EQ(lines[12], "[2/2] FAIL     v1/C-CMP-01/unary.exp/f32-f32/exhaustive  seed 7: max 5 ulp > 3 (0 s)");
    EXPECT_EQ(lines[13], "[2/2] done in 1m12s, 1 FAIL");
}

// Two workers writing as fast as they can: every line is whole.
TEST(LiveDisplay, WorkersNeverInterleave) {
    std::ostringstream out;
    constexpr int kEach = 300;
    const auto instance = instance_named("v1/C-ORD-02/matmul/f32xf32-f32/repeat");
    {
        LiveDisplay display(out, settings(2 * kEach, 2, 0, false, nullptr));
        const auto work = [&](std::size_t worker) {
            const harness::ProgressScope scope(&display.sink(worker));
            for (int k = 0; k < kEach; ++k) {
                display.begin(worker, instance.id, 1);
                for (std::uint64_t done = 0; done <= 10; ++done)
                    harness::thread_progress_sink()->sweep("sweep", done, 10);
                display.end(worker, result_of(instance, harness::Verdict::pass));
            }
        };
        std::thread other(work, 1);
        work(0);
        other.join();
    }
    const std::regex whole(R"(\[ *[0-9]+/600\] (PASS     v1/C-ORD-02/matmul/f32xf32-f32/repeat \([0-9.e-]+ s\)|worker [12]: v1/C-ORD-02/matmul/f32xf32-f32/repeat [0-9]+s, sweep [0-9]+% \([0-9]+ of 10\)|done in [0-9]+s))");
    const auto lines = lines_of(out.str());
    EXPECT_EQ(lines.size(), 2u * kEach * 12 + 1);
    for (const auto& line : lines) ASSERT_TRUE(std::regex_match(line, whole)) << line;
    EXPECT_EQ(lines.back().rfind("[600/600] done in ", 0), 0u) << lines.back();
}

// On a terminal the block is redrawn in place: the screen ends with the
// announced FAIL and the final line, nothing else; on the way it showed
// the overall line with its ETA and one line per worker, cut to the width.
TEST(LiveDisplay, OnATerminalRedrawsOneBlockInPlace) {
    FakeClock clock;
    std::ostringstream out;
    const auto a = instance_named("v1/C-ACC-01/softmax/f32-f32/default");
    const auto b = instance_named("v1/C-CMP-01/unary.exp/f32-f32/exhaustive-with-a-very-long-name-indeed");
    LiveDisplay display(out, settings(4, 2, 100, true, &clock));
    display.begin(0, a.id, 25);
    display.begin(1, b.id, 50);
    clock.advance(10);
    display.end(0, result_of(a, harness::Verdict::pass));  // a quarter of the expected time done in 10 s
    clock.advance(1);
    display.sink(1).sweep("exp f32", 0, 4);
    auto screen = screen_after(out.str());
    ASSERT_EQ(screen.size(), 3u) << out.str();
    EXPECT_EQ(screen[0], "[1/4] 11s elapsed, ETA 33s");
    EXPECT_EQ(screen[1], "  worker 1: idle");
    EXPECT_EQ(screen[2].size(), 59u) << screen[2];  // cut to the width, less one column
    EXPECT_EQ(screen[2].rfind("  worker 2: v1/C-CMP-01/unary.exp/f32-f32/exhaustive-with-", 0), 0u) << screen[2];

    display.end(1, result_of(b, harness::Verdict::fail));
    screen = screen_after(out.str());
    ASSERT_EQ(screen.size(), 4u) << out.str();
    EXPECT_EQ(screen[0].rfind("FAIL     v1/C-CMP-01/unary.exp/f32-f32/exhaustive-with", 0), 0u) << screen[0];
    EXPECT_EQ(screen[1], "[2/4] 11s elapsed, ETA 4s, 1 FAIL");
    display.finish();
    screen = screen_after(out.str());
    ASSERT_EQ(screen.size(), 2u) << out.str();
    EXPECT_EQ(screen[1], "[2/4] stopped in 11s, 1 FAIL");
}

TEST(LiveDisplay, DurationsReadAsMinutesAndHours) {
    EXPECT_EQ(LiveDisplay::duration_text(0.4), "0s");
    EXPECT_EQ(LiveDisplay::duration_text(59.4), "59s");
    EXPECT_EQ(LiveDisplay::duration_text(65), "1m05s");
    EXPECT_EQ(LiveDisplay::duration_text(7380), "2h03m");
}

}  // namespace
}  // namespace kcs::cli
