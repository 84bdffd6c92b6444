// What the host tests share: fixture paths, the fixture's operators, one
// complete elementwise/add case, and a look at this process's children.
#pragma once

#include <chrono>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "kcs/host/isolated_adapter.hpp"

namespace kcs::host::testing {

// suites/host/tests/fixtures: libkcs-adapter-NAME.so in the build tree.
std::filesystem::path fixture_dir();
std::filesystem::path fixture(std::string_view name);

IsolationOptions fixture_options(std::vector<std::string> adapter_options = {},
                                 std::chrono::milliseconds call_timeout = std::chrono::seconds(10));

Operation add_op(BufferHandle a, BufferHandle b, BufferHandle out, std::int64_t n);
Operation faulty_op(BufferHandle in, BufferHandle out, std::int64_t n);

// The outcome of each call of one case, in order.
struct CaseCalls {
    std::vector<CallOutcome> outcomes;
    std::vector<CallResult> results;
    bool all_ok() const;
};

// alloc x3, write x2, run elementwise/add, read, check the sums, release x3.
CaseCalls add_case(IsolatedAdapter& adapter, std::int64_t n = 1024);
// alloc x2, write, run faulty, read (checked when the run succeeded), release x2.
CaseCalls faulty_case(IsolatedAdapter& adapter, std::int64_t n = 256);

// Children of this process that have exited but were never reaped.
int zombie_children();
// Children of this process, in any state.
int child_processes();

}  // namespace kcs::host::testing
