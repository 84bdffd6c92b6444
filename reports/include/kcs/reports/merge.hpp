// Joining the reports of the N shards of one run (kcs certify --shard I/N)
// into the report of the whole plan (kcs merge). The shards must be of the
// same run: the same catalog, adapter (library, options, device), claims,
// profile, depth, operators, seeds, plan and cut; together they must cover
// the plan exactly once. The joined report holds every instance as its
// shard recorded it, in plan order, and the summary of the whole plan: in
// content it is the report an unsharded run of the plan would have written.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kcs/reports/report.hpp"

namespace kcs::reports {

// A shard's report as read from disk.
struct ShardReport {
    std::filesystem::path file;
    Json statement;
    std::string digest;  // "sha256:HEX" of the file's bytes
};

// Reads report.json, or DIR/report.json for a folder. Throws MergeError
// when it cannot be read or is not JSON.
ShardReport read_shard_report(const std::filesystem::path& file_or_folder);

// What is wrong with the shards, naming the file (and shard) at fault.
class MergeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A sweep that the shards cut into parts (harness::Instance::SweepSplit),
// to be folded: the instance with its parts' records (sweep->fold), and
// what the run used: its claims, the adapter library and options, seeds.
struct SweepFold {
    const harness::Instance* instance = nullptr;
    const spec::Catalog* catalog = nullptr;  // the shards' catalog
    harness::Claims claims;
    std::string adapter_library;
    std::vector<std::string> adapter_options;
    std::uint64_t base_seed = 1;
    int seeds = 1;
};

struct MergeInputs {
    // The catalog with this digest ("sha256:HEX"), or null when this kcs
    // carries none: the plan is made again from it.
    std::function<const spec::Catalog*(const std::string& digest)> catalog;
    // The instance's result from its folded parts (the probe's own code,
    // run without a chunk); null when this merge folds no sweep.
    std::function<harness::InstanceResult(const SweepFold&)> fold_sweep;
    std::optional<Signer> signer;  // the key the joined report is to be signed with
    std::vector<std::string> command_line;  // of the merge
    std::string working_directory;
};

// The Statement of the whole plan. Throws MergeError.
Json merge_shards(const std::vector<ShardReport>& shards, const MergeInputs& inputs);

}  // namespace kcs::reports
