// kcs verify --rerun: a verifier runs N random cases of a verified report
// again on the adapter it holds and compares them with what the report
// records (SPEC.md section 12): the verdict always, and the evidence bit
// for bit where the report claims deterministic: true. It is the check
// that consistent fabricated evidence cannot pass.
#pragma once

#include <cstdint>
#include <string>

#include "kcs/reports/verify.hpp"

namespace kcs::cli {

struct RerunChoice {
    std::size_t cases = 0;     // how many to run again
    std::string adapter;       // a name or a path: the library the report names
    std::uint64_t seed = 1;    // picks the cases
    int timeout_s = 30;
};

// Prints one line per case and a conclusion; 0 when every case agrees,
// 1 when one differs. Needs a verification with its catalog found.
int rerun_cases(const reports::Verification& v, const RerunChoice& choice);

}  // namespace kcs::cli
