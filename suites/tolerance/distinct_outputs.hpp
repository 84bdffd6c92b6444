// The distinct_outputs tolerance model (spec/SPEC.md section 3): the same
// inputs run at least `runs` times; h_r = SHA-256 of all output bytes
// (tensors in the operator's output order, elements row-major,
// little-endian); the number of distinct h_r must be <= max_distinct. The
// key figure is that number. Used by C-ORD-02 (run-to-run determinism).
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "kcs/harness/guarded_device.hpp"
#include "kcs/spec/catalog.hpp"
#include "kcs/spec/sha256.hpp"

namespace kcs::suites::tolerance {

// The model's parameters as the class's tolerance.params gives them.
struct DistinctOutputsParams {
    int runs = 0;          // executions per problem, at least
    int max_distinct = 0;  // distinct output hashes allowed

    // Throws std::invalid_argument when the model or a parameter is missing.
    static DistinctOutputsParams from(const spec::Tolerance& tolerance);
};

using OutputHash = kcs::Sha256;
using kcs::hex;

// h_r: SHA-256 over every byte of every output, in output order. HostTensor
// bytes are already row-major little-endian, so signed zeros and NaN
// payloads count.
OutputHash output_hash(const std::vector<harness::HostTensor>& outputs);

// The runs of one problem, grouped by the hash of their outputs.
class OutputHashTally {
public:
    struct Group {
        OutputHash hash{};
        int runs = 0;
        int first_run = 0;                          // 0-based over every run added
        std::string first_condition;                // under which it first appeared
        std::vector<harness::HostTensor> outputs;   // those of its first run
    };

    // Adds run number runs() with its outputs, under `condition` (e.g.
    // "same buffers").
    void add(const std::vector<harness::HostTensor>& outputs, const std::string& condition);

    int runs() const { return runs_; }
    std::size_t distinct() const { return groups_.size(); }
    // The distinct hashes among the runs of `condition` alone.
    std::size_t distinct_within(const std::string& condition) const;
    const std::vector<Group>& groups() const { return groups_; }  // in order of first appearance

    bool holds(const DistinctOutputsParams& params) const {
        return static_cast<int>(distinct()) <= params.max_distinct;
    }

private:
    std::vector<Group> groups_;
    std::vector<std::pair<std::string, std::size_t>> run_groups_;  // per run: condition, group
    int runs_ = 0;
};

}  // namespace kcs::suites::tolerance
