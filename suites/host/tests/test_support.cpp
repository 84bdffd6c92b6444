#include "test_support.hpp"

#include <unistd.h>

#include <cstring>
#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

namespace kcs::host::testing {

namespace fs = std::filesystem;

fs::path fixture_dir() { return KCS_FIXTURE_DIR; }

fs::path fixture(std::string_view name) {
    return fixture_dir() / ("libkcs-adapter-" + std::string(name) + ".so");
}

IsolationOptions fixture_options(std::vector<std::string> adapter_options, std::chrono::milliseconds call_timeout) {
    IsolationOptions o;
    o.adapter_options = std::move(adapter_options);
    o.call_timeout = call_timeout;
    o.start_timeout = std::chrono::seconds(10);
    return o;
}

namespace {

Tensor vector_f32(BufferHandle b, std::int64_t n) { return {b, 0, KCS_DTYPE_F32, {n}, {}}; }

std::span<const std::byte> bytes_of(const std::vector<float>& v) { return std::as_bytes(std::span(v)); }

}  // namespace

Operation add_op(BufferHandle a, BufferHandle b, BufferHandle out, std::int64_t n) {
    Operation op;
    op.name = "elementwise";
    op.function = "add";
    op.inputs = {vector_f32(a, n), vector_f32(b, n)};
    op.outputs = {vector_f32(out, n)};
    return op;
}

Operation faulty_op(BufferHandle in, BufferHandle out, std::int64_t n) {
    Operation op;
    op.name = "faulty";
    op.inputs = {vector_f32(in, n)};
    op.outputs = {vector_f32(out, n)};
    return op;
}

bool CaseCalls::all_ok() const {
    for (const auto& r : results)
        if (!r.ok()) return false;
    return true;
}

namespace {

struct Recorder {
    CaseCalls calls;
    const CallResult& operator()(CallResult r) {
        calls.outcomes.push_back(r.outcome);
        calls.results.push_back(std::move(r));
        return calls.results.back();
    }
};

}  // namespace

CaseCalls add_case(IsolatedAdapter& adapter, std::int64_t n) {
    const auto bytes = static_cast<std::uint64_t>(n) * sizeof(float);
    std::vector<float> x(static_cast<std::size_t>(n)), y(x.size()), sum(x.size(), -1.0f);
    for (std::size_t i = 0; i < x.size(); ++i) {
        x[i] = static_cast<float>(i);
        y[i] = 0.5f * static_cast<float>(i);
    }
    Recorder record;
    const auto a = adapter.alloc(bytes), b = adapter.alloc(bytes), out = adapter.alloc(bytes);
    record(a.result);
    record(b.result);
    record(out.result);
    record(adapter.write(a.value, 0, bytes_of(x)));
    record(adapter.write(b.value, 0, bytes_of(y)));
    record(adapter.run(add_op(a.value, b.value, out.value, n)));
    if (record(adapter.read(out.value, 0, std::as_writable_bytes(std::span(sum)))).ok()) {
        for (std::size_t i = 0; i < x.size(); ++i) EXPECT_EQ(sum[i], x[i] + y[i]) << "element " << i;
    }
    record(adapter.release(a.value));
    record(adapter.release(b.value));
    record(adapter.release(out.value));
    return record.calls;
}

CaseCalls faulty_case(IsolatedAdapter& adapter, std::int64_t n) {
    const auto bytes = static_cast<std::uint64_t>(n) * sizeof(float);
    std::vector<float> x(static_cast<std::size_t>(n)), copy(x.size(), -1.0f);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 3.0f;
    Recorder record;
    const auto in = adapter.alloc(bytes), out = adapter.alloc(bytes);
    record(in.result);
    record(out.result);
    record(adapter.write(in.value, 0, bytes_of(x)));
    const bool ran = record(adapter.run(faulty_op(in.value, out.value, n))).ok();
    if (record(adapter.read(out.value, 0, std::as_writable_bytes(std::span(copy)))).ok() && ran) {
        EXPECT_EQ(copy, x);
    }
    record(adapter.release(in.value));
    record(adapter.release(out.value));
    return record.calls;
}

namespace {

// The state letter and parent pid of every process, from /proc/PID/stat.
template <class F>
void for_each_process(F&& f) {
    for (const auto& entry : fs::directory_iterator("/proc")) {
        const auto name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        if (!std::getline(stat, line)) continue;
        // "pid (comm) S ppid ...": comm may hold spaces and parentheses.
        const auto close = line.rfind(')');
        if (close == std::string::npos) continue;
        std::istringstream rest(line.substr(close + 1));
        char state = 0;
        long ppid = 0;
        if (rest >> state >> ppid) f(state, ppid);
    }
}

}  // namespace

int zombie_children() {
    int n = 0;
    for_each_process([&n](char state, long ppid) { n += (state == 'Z' && ppid == ::getpid()) ? 1 : 0; });
    return n;
}

int child_processes() {
    int n = 0;
    for_each_process([&n](char, long ppid) { n += ppid == ::getpid() ? 1 : 0; });
    return n;
}

}  // namespace kcs::host::testing
