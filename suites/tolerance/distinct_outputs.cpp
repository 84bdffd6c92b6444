#include "distinct_outputs.hpp"

#include <sodium.h>

#include <algorithm>
#include <cstdio>
#include <set>
#include <stdexcept>

namespace kcs::suites::tolerance {

namespace {

int required_int(const spec::Tolerance& tolerance, const char* name) {
    if (!tolerance.params.contains(name) || !tolerance.params.at(name).is_number_integer())
        throw std::invalid_argument(std::string("the distinct_outputs model needs an integer parameter '") + name +
                                    "' in the class's tolerance.params");
    return tolerance.params.at(name).get<int>();
}

}  // namespace

DistinctOutputsParams DistinctOutputsParams::from(const spec::Tolerance& tolerance) {
    if (tolerance.model != "distinct_outputs")
        throw std::invalid_argument("the class's tolerance model is '" + tolerance.model +
                                    "', not distinct_outputs");
    return {required_int(tolerance, "runs"), required_int(tolerance, "max_distinct")};
}

OutputHash output_hash(const std::vector<harness::HostTensor>& outputs) {
    // sodium_init() is idempotent and thread-safe; the hash needs no other state.
    if (sodium_init() < 0) throw std::runtime_error("libsodium failed to initialise");
    crypto_hash_sha256_state state;
    crypto_hash_sha256_init(&state);
    for (const auto& output : outputs)
        crypto_hash_sha256_update(&state, reinterpret_cast<const unsigned char*>(output.bytes.data()),
                                  output.bytes.size());
    OutputHash hash{};
    crypto_hash_sha256_final(&state, hash.data());
    return hash;
}

std::string hex(const OutputHash& hash) {
    std::string text;
    for (const unsigned char b : hash) {
        char digits[3];
        std::snprintf(digits, sizeof digits, "%02x", b);
        text += digits;
    }
    return text;
}

void OutputHashTally::add(const std::vector<harness::HostTensor>& outputs, const std::string& condition) {
    const OutputHash hash = output_hash(outputs);
    auto group = std::find_if(groups_.begin(), groups_.end(), [&](const Group& g) { return g.hash == hash; });
    if (group == groups_.end()) {
        groups_.push_back({hash, 0, runs_, condition, outputs});
        group = std::prev(groups_.end());
    }
    ++group->runs;
    run_groups_.emplace_back(condition, static_cast<std::size_t>(group - groups_.begin()));
    ++runs_;
}

std::size_t OutputHashTally::distinct_within(const std::string& condition) const {
    std::set<std::size_t> seen;
    for (const auto& [c, g] : run_groups_)
        if (c == condition) seen.insert(g);
    return seen.size();
}

}  // namespace kcs::suites::tolerance
