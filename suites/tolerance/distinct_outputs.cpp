#include "distinct_outputs.hpp"

#include <algorithm>
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
    Sha256Hasher hasher;
    for (const auto& output : outputs) hasher.update(std::as_bytes(std::span(output.bytes)));
    return hasher.finish();
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
