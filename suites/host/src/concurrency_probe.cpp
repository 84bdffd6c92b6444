// Two adapter instances driven by two threads at once (adapter.h: separate
// instances may be used from different threads concurrently). Runs inside a
// worker process, so a data race that crashes costs the check, not kcs.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "kcs/host/adapter_check.hpp"
#include "kcs/host/adapter_error.hpp"
#include "kcs/host/adapter_library.hpp"

namespace kcs::host {

namespace {

constexpr int kRounds = 200;
constexpr std::size_t kBytes = 4099;  // odd on purpose

// One thread's work on its own instance: write a pattern unique to the
// thread and round, read it back, compare. Returns an error or "".
std::string exercise(const kcs_adapter_api& api, const std::vector<const char*>& options, int thread) {
    kcs_adapter* adapter = nullptr;
    if (api.open(options.data(), static_cast<std::uint32_t>(options.size()), &adapter) != KCS_OK)
        return std::string("open failed: ") + api.last_error(nullptr);
    std::string error;
    std::vector<unsigned char> out(kBytes), in(kBytes);
    for (int round = 0; round < kRounds && error.empty(); ++round) {
        kcs_buffer buffer = 0;
        if (api.alloc(adapter, kBytes, &buffer) != KCS_OK) {
            error = std::string("alloc failed: ") + api.last_error(adapter);
            break;
        }
        for (std::size_t i = 0; i < kBytes; ++i) out[i] = static_cast<unsigned char>(i * 31 + round * 7 + thread * 101);
        if (api.write(adapter, buffer, 0, out.data(), kBytes) != KCS_OK ||
            api.read(adapter, buffer, 0, in.data(), kBytes) != KCS_OK)
            error = std::string("write/read failed: ") + api.last_error(adapter);
        else if (std::memcmp(in.data(), out.data(), kBytes) != 0)
            error = "thread " + std::to_string(thread) + " read back bytes it did not write in round " +
                    std::to_string(round);
        api.release(adapter, buffer);
    }
    api.close(adapter);
    return error;
}

}  // namespace

int run_concurrency_probe(const std::filesystem::path& path, const std::vector<std::string>& options) {
    try {
        const AdapterLibrary library = AdapterLibrary::load(path);
        std::vector<const char*> argv;
        for (const auto& o : options) argv.push_back(o.c_str());
        std::string errors[2];
        std::thread threads[2];
        for (int t = 0; t < 2; ++t)
            threads[t] = std::thread([&, t] { errors[t] = exercise(library.api(), argv, t); });
        for (auto& t : threads) t.join();
        for (const auto& e : errors) {
            if (e.empty()) continue;
            std::fprintf(stderr, "%s\n", e.c_str());
            return 1;
        }
        return 0;
    } catch (const AdapterError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
}

}  // namespace kcs::host
