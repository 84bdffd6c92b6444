// The ABI self-test every adapter must pass (`kcs adapter check`): the
// promises of kcs/adapter.h that hold whatever the adapter computes.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace kcs::host {

struct CheckStep {
    std::string rule;    // the rule of kcs/adapter.h it checks, "KCS-ABI-11" (vendors/ABI.md)
    std::string name;    // e.g. "round trip: 17 bytes at offset 3"
    bool passed = false;
    std::string detail;  // why it failed (or what it saw)
};

struct CheckReport {
    std::string adapter_name;    // the table's name
    std::uint32_t abi_version = 0;  // the version negotiated (KCS-ABI-2)
    std::vector<CheckStep> steps;

    bool passed() const;
};

struct CheckOptions {
    std::vector<std::string> adapter_options;  // "key=value"
    std::chrono::milliseconds call_timeout{30'000};
};

// Runs every step in an isolated worker; a crash or hang fails the step it
// happened in and the next step starts a fresh worker. Throws AdapterError
// when the adapter cannot be loaded or opened at all.
CheckReport check_adapter(const std::filesystem::path& adapter, const CheckOptions& options = {});

// The in-process half of the concurrency step, run inside `kcs-worker
// --concurrency-check`: two instances, each driven by its own thread at the
// same time, must not disturb each other. Returns 0 when they did not, 1
// when they did (what went wrong on stderr), 2 when the adapter did not load.
int run_concurrency_probe(const std::filesystem::path& adapter, const std::vector<std::string>& options);

}  // namespace kcs::host
