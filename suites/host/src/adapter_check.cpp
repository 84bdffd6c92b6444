// kcs adapter check: the ABI self-test. Each step states one promise of
// kcs/adapter.h and records whether the adapter kept it.
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <thread>

#include "kcs/host/adapter_check.hpp"
#include "kcs/host/adapter_error.hpp"
#include "kcs/host/isolated_adapter.hpp"

extern char** environ;

namespace kcs::host {

namespace {

// The rules of kcs/adapter.h the steps check (vendors/ABI.md).
constexpr const char* kOpen = "KCS-ABI-5";
constexpr const char* kInfo = "KCS-ABI-7";
constexpr const char* kSupports = "KCS-ABI-8";
constexpr const char* kAlloc = "KCS-ABI-9";
constexpr const char* kRelease = "KCS-ABI-10";
constexpr const char* kCopy = "KCS-ABI-11";
constexpr const char* kRun = "KCS-ABI-16";
// Closing is part of the lifetime the header's first comment states.
constexpr const char* kClose = "KCS-ABI-18";

std::vector<std::byte> pattern(std::size_t n, unsigned seed) {
    std::vector<std::byte> bytes(n);
    for (std::size_t i = 0; i < n; ++i) bytes[i] = static_cast<std::byte>((i * 131 + seed * 17 + 7) & 0xFF);
    return bytes;
}

class Checker {
public:
    Checker(IsolatedAdapter& adapter, CheckReport& report) : adapter_(adapter), report_(report) {}

    void step(const char* rule, std::string name, bool passed, std::string detail = {}) {
        report_.steps.push_back({rule, std::move(name), passed, std::move(detail)});
    }

    void info() {
        const auto info = adapter_.info();
        if (!info.ok()) return step(kInfo, "info answers", false, info.result.describe());
        const auto& i = info.value;
        std::vector<std::string> missing;
        if (i.adapter_name.empty()) missing.push_back("adapter_name");
        if (i.adapter_version.empty()) missing.push_back("adapter_version");
        if (i.vendor.empty()) missing.push_back("vendor");
        if (i.device.empty()) missing.push_back("device");
        std::string detail;
        for (const auto& m : missing) detail += (detail.empty() ? "empty: " : ", ") + m;
        step(kInfo, "info names the adapter, its version, the vendor and the device", missing.empty(), detail);
    }

    // Writes `length` bytes at `offset` of a `size`-byte buffer, reads them back.
    void round_trip(std::uint64_t size, std::uint64_t offset, std::uint64_t length) {
        const std::string name = "round trip: " + std::to_string(length) + " bytes at offset " +
                                 std::to_string(offset) + " of a " + std::to_string(size) + "-byte buffer";
        const auto buffer = adapter_.alloc(size);
        if (!buffer.ok()) return step(kAlloc, name, false, "alloc: " + buffer.result.describe());
        const auto out = pattern(length, static_cast<unsigned>(offset + size));
        std::vector<std::byte> in(length, std::byte{0xEE});
        const CallResult w = adapter_.write(buffer.value, offset, out);
        const CallResult r = w.ok() ? adapter_.read(buffer.value, offset, in) : w;
        if (!r.ok()) step(kAlloc, name, false, (w.ok() ? "read: " : "write: ") + r.describe());
        else step(kAlloc, name, in == out, in == out ? "" : "read back other bytes than were written");
        release_quietly(buffer.value);
    }

    // Accesses outside a buffer are refused with a status and copy nothing.
    void out_of_range() {
        const auto buffer = adapter_.alloc(16);
        if (!buffer.ok()) return step(kCopy, "out-of-range access refused", false, "alloc: " + buffer.result.describe());
        const auto original = pattern(16, 1);
        if (!adapter_.write(buffer.value, 0, original).ok())
            return step(kCopy, "out-of-range access refused", false, "could not fill the buffer");
        const auto overlong = pattern(7, 2);
        std::vector<std::byte> sink(4);
        expect_refused(kCopy, "write past the end (7 bytes at offset 10 of 16)", adapter_.write(buffer.value, 10, overlong));
        expect_refused(kCopy, "read past the end (4 bytes at offset 14 of 16)", adapter_.read(buffer.value, 14, sink));
        expect_refused(kCopy, "offset + size overflows 64 bits",
                       adapter_.write(buffer.value, std::numeric_limits<std::uint64_t>::max() - 2,
                                      std::span(overlong).first(4)));
        std::vector<std::byte> now(16);
        const CallResult r = adapter_.read(buffer.value, 0, now);
        step(kCopy, "a refused write copies nothing", r.ok() && now == original, r.ok() ? "" : r.describe());
        release_quietly(buffer.value);
    }

    void bad_handles() {
        const auto buffer = adapter_.alloc(8);
        if (!buffer.ok()) return step(kRelease, "bad handles refused", false, "alloc: " + buffer.result.describe());
        const BufferHandle never_issued{buffer.value.id + 100003, buffer.value.generation};
        std::vector<std::byte> sink(4);
        expect_refused(kRelease, "release of a handle never issued", adapter_.release(never_issued));
        expect_refused(kCopy, "read through a handle never issued", adapter_.read(never_issued, 0, sink));
        const CallResult first = adapter_.release(buffer.value);
        step(kRelease, "release of a live buffer", first.ok(), first.describe());
        expect_refused(kRelease, "second release of the same buffer", adapter_.release(buffer.value));
        expect_refused(kCopy, "read through a released handle", adapter_.read(buffer.value, 0, sink));
    }

    void unsupported() {
        Operation op;
        op.name = "kcs-check-no-such-operator";
        const CallResult s = adapter_.supports(op);
        step(kSupports, "supports() declines an unknown operator with KCS_UNSUPPORTED",
             s.outcome == CallOutcome::adapter_status && s.status == KCS_UNSUPPORTED, s.describe());
        const CallResult r = adapter_.run(op);
        step(kRun, "run() declines an unknown operator with KCS_UNSUPPORTED",
             r.outcome == CallOutcome::adapter_status && r.status == KCS_UNSUPPORTED, r.describe());
    }

    void close() {
        const CallResult c = adapter_.close();
        step(kClose, "close", c.ok(), c.describe());
    }

private:
    void expect_refused(const char* rule, const std::string& what, const CallResult& result) {
        const bool refused = result.outcome == CallOutcome::adapter_status && result.status != KCS_OK;
        step(rule, what + " is refused with a status", refused, refused ? "" : result.describe());
    }

    void release_quietly(BufferHandle buffer) { (void)adapter_.release(buffer); }

    IsolatedAdapter& adapter_;
    CheckReport& report_;
};

// KCS-ABI-5: an option the adapter does not know fails open, with a message.
CheckStep unknown_option_step(const std::filesystem::path& path, const IsolationOptions& isolation) {
    CheckStep step{kOpen, "open refuses an unknown option with a message", false, {}};
    IsolationOptions spoiled = isolation;
    spoiled.adapter_options.push_back("kcs-check-no-such-option=1");
    try {
        IsolatedAdapter adapter(path, spoiled);
        step.detail = "opened with kcs-check-no-such-option=1";
    } catch (const AdapterError& e) {
        step.passed = e.problem() == AdapterProblem::open_failed &&
                      e.detail().find("KCS_INVALID_ARGUMENT") != std::string::npos;
        step.detail = e.detail();
    }
    return step;
}

// Runs `kcs-worker --concurrency-check` with a deadline; its stderr is the detail.
CheckStep concurrency_step(const std::filesystem::path& adapter, const CheckOptions& options) {
    CheckStep step{"KCS-ABI-6", "two instances used from two threads at once do not disturb each other", false, {}};
    const std::filesystem::path worker = find_worker_executable(adapter);
    std::vector<std::string> args{worker.string(), "--concurrency-check", adapter.string()};
    args.insert(args.end(), options.adapter_options.begin(), options.adapter_options.end());
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);

    int err[2];
    if (::pipe2(err, O_CLOEXEC) != 0) return step.detail = "pipe failed", step;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, err[1], STDERR_FILENO);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, worker.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(err[1]);
    if (spawned != 0) {
        ::close(err[0]);
        step.detail = "could not start " + worker.string();
        return step;
    }
    const auto deadline = std::chrono::steady_clock::now() + options.call_timeout;
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, &status, 0);
            ::close(err[0]);
            step.detail = "no answer within the call timeout";
            return step;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    char text[512];
    const ssize_t n = ::read(err[0], text, sizeof text - 1);
    ::close(err[0]);
    step.detail = n > 0 ? std::string(text, static_cast<std::size_t>(n)) : "";
    while (!step.detail.empty() && step.detail.back() == '\n') step.detail.pop_back();
    if (WIFSIGNALED(status)) step.detail = "crashed with signal " + std::to_string(WTERMSIG(status));
    step.passed = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    return step;
}

}  // namespace

bool CheckReport::passed() const {
    return !steps.empty() && std::all_of(steps.begin(), steps.end(), [](const CheckStep& s) { return s.passed; });
}

CheckReport check_adapter(const std::filesystem::path& path, const CheckOptions& options) {
    IsolationOptions isolation;
    isolation.adapter_options = options.adapter_options;
    isolation.call_timeout = options.call_timeout;
    IsolatedAdapter adapter(path, isolation);  // throws AdapterError: nothing to check
    CheckReport report;
    report.adapter_name = adapter.name();
    report.abi_version = adapter.abi_version();
    Checker check(adapter, report);
    check.info();
    // Odd offsets and sizes, zero included, up to a buffer over 1 MiB.
    const std::uint64_t cases[][3] = {{0, 0, 0},   {1, 0, 1},   {3, 1, 2},        {17, 3, 13},
                                      {4101, 7, 4093}, {4101, 4100, 1}, {(1 << 20) + 7, 5, (1 << 20) + 2}};
    for (const auto& c : cases) check.round_trip(c[0], c[1], c[2]);
    check.out_of_range();
    check.bad_handles();
    check.unsupported();
    check.close();
    report.steps.push_back(unknown_option_step(adapter.path(), isolation));
    report.steps.push_back(concurrency_step(adapter.path(), options));
    return report;
}

}  // namespace kcs::host
