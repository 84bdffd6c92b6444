// Each faulty behaviour of an adapter costs exactly the call it happens in:
// a good case, a case whose run misbehaves, and another good case give
// [all ok], [ok up to the run, the fault's outcome, stale handles after a
// lost worker], [all ok].
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

#include "test_support.hpp"

namespace kcs::host {
namespace {

using namespace std::chrono_literals;
using testing::add_case;
using testing::faulty_case;
using testing::fixture;
using testing::fixture_options;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool sanitized = true;  // ASan turns SIGSEGV into exit code 1
#else
constexpr bool sanitized = false;
#endif

struct Fault {
    std::string name;              // the fixture's fault= option
    CallOutcome outcome;           // of the faulty run
    bool worker_survives;          // the same worker serves the next call
    int signal = 0;                // crash: the signal that killed the worker, if any
    int exit_code = -1;            // crash: the exit code, if it exited
    kcs_status status = KCS_OK;    // adapter_status, invalid_status: what the adapter returned
};

void PrintTo(const Fault& f, std::ostream* os) { *os << f.name; }

class FaultIsolation : public ::testing::TestWithParam<Fault> {};

TEST_P(FaultIsolation, CostsExactlyTheCallItBreaks) {
    const Fault& fault = GetParam();
    // 1 s is plenty for every call here; it bounds the hang.
    IsolatedAdapter adapter(fixture("fixture"), fixture_options({"fault=" + fault.name}, 1000ms));

    const auto first = add_case(adapter);
    EXPECT_TRUE(first.all_ok());
    const auto generation = adapter.generation();
    const auto pid = adapter.worker_pid();

    const auto faulty = faulty_case(adapter);
    ASSERT_EQ(faulty.outcomes.size(), 7u);
    // alloc, alloc, write: before the fault, all fine.
    for (int i = 0; i < 3; ++i) EXPECT_EQ(faulty.outcomes[i], CallOutcome::ok) << faulty.results[i].describe();
    const auto& run = faulty.results[3];
    EXPECT_EQ(run.outcome, fault.outcome) << run.describe();
    if (run.worker_lost() || run.outcome == CallOutcome::invalid_status) {  // kcs's own messages name the call
        EXPECT_NE(run.message.find("faulty"), std::string::npos) << run.message;
    }
    if (fault.outcome == CallOutcome::adapter_status || fault.outcome == CallOutcome::invalid_status) {
        EXPECT_EQ(run.status, fault.status);
    }
    if (fault.outcome == CallOutcome::crash) {
        ASSERT_TRUE(run.worker_exit.has_value());
        if (fault.signal && !sanitized) {
            EXPECT_TRUE(run.worker_exit->signaled);
            EXPECT_EQ(run.worker_exit->number, fault.signal) << run.message;
        }
        if (fault.exit_code >= 0) {
            EXPECT_FALSE(run.worker_exit->signaled);
            EXPECT_EQ(run.worker_exit->number, fault.exit_code) << run.message;
        }
    }
    // read, release, release: on a surviving worker they work; after a lost
    // one the handles are stale and never reach an adapter.
    const auto after = fault.worker_survives ? CallOutcome::ok : CallOutcome::stale_buffer;
    for (int i = 4; i < 7; ++i) EXPECT_EQ(faulty.outcomes[i], after) << faulty.results[i].describe();
    EXPECT_EQ(testing::zombie_children(), 0);

    const auto last = add_case(adapter);
    EXPECT_TRUE(last.all_ok()) << (last.all_ok() ? "" : last.results.front().describe());
    if (fault.worker_survives) {
        EXPECT_EQ(adapter.generation(), generation);
        EXPECT_EQ(adapter.worker_pid(), pid);
    } else {
        EXPECT_EQ(adapter.generation(), generation + 1);
        EXPECT_NE(adapter.worker_pid(), pid);
    }
    EXPECT_EQ(testing::zombie_children(), 0);
    EXPECT_EQ(testing::child_processes(), 1);  // the current worker, nothing left behind
}

INSTANTIATE_TEST_SUITE_P(
    Faults, FaultIsolation,
    ::testing::Values(Fault{"segv", CallOutcome::crash, false, SIGSEGV},
                      Fault{"hang", CallOutcome::timeout, false},
                      Fault{"abort", CallOutcome::crash, false, SIGABRT},
                      Fault{"exit0", CallOutcome::crash, false, 0, 0},
                      Fault{"stdout-garbage", CallOutcome::ok, true},
                      Fault{"invalid-status", CallOutcome::invalid_status, true, 0, -1, 42},
                      Fault{"leak", CallOutcome::ok, true},
                      Fault{"device-lost", CallOutcome::adapter_status, false, 0, -1, KCS_DEVICE_LOST}),
    [](const ::testing::TestParamInfo<Fault>& info) {
        std::string name = info.param.name;
        for (auto& c : name)
            if (c == '-') c = '_';
        return name;
    });

TEST(FaultIsolation, AdapterOutputOnStdoutNeverReachesTheHarnessStdout) {
    // Point this process's stdout at a file while the worker is started and
    // misbehaves; the worker must send the adapter's output to stderr.
    char path[] = "/tmp/kcs-host-stdout-XXXXXX";
    const int file = ::mkstemp(path);
    ASSERT_GE(file, 0);
    std::fflush(stdout);
    const int saved = ::dup(STDOUT_FILENO);
    ::dup2(file, STDOUT_FILENO);
    {
        IsolatedAdapter adapter(fixture("fixture"), fixture_options({"fault=stdout-garbage"}));
        EXPECT_EQ(testing::faulty_case(adapter).outcomes[3], CallOutcome::ok);
    }
    std::fflush(stdout);
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    ::close(file);
    std::ifstream captured(path);
    std::stringstream text;
    text << captured.rdbuf();
    ::unlink(path);
    EXPECT_EQ(text.str(), "");
}

TEST(FaultIsolation, RepeatedCrashesEachCostOneCase) {
    IsolatedAdapter adapter(fixture("fixture"), fixture_options({"fault=segv"}));
    for (int round = 1; round <= 3; ++round) {
        EXPECT_EQ(testing::faulty_case(adapter).outcomes[3], CallOutcome::crash);
        EXPECT_TRUE(add_case(adapter).all_ok());
        EXPECT_EQ(adapter.generation(), static_cast<std::uint64_t>(round) + 1);
    }
    EXPECT_EQ(testing::zombie_children(), 0);
}

TEST(FaultIsolation, NoChildIsLeftWhenTheAdapterIsDestroyed) {
    pid_t pid = 0;
    {
        IsolatedAdapter adapter(fixture("fixture"), fixture_options({"fault=hang"}, 200ms));
        EXPECT_EQ(testing::faulty_case(adapter).outcomes[3], CallOutcome::timeout);
        EXPECT_TRUE(add_case(adapter).all_ok());
        pid = adapter.worker_pid().value();
    }
    EXPECT_NE(::kill(pid, 0), 0);
    EXPECT_EQ(testing::child_processes(), 0);
    EXPECT_EQ(::waitpid(-1, nullptr, WNOHANG), -1);  // ECHILD: nothing to reap
}

}  // namespace
}  // namespace kcs::host
