// What the ordering and memory-domain probes share in building their
// verdicts: the citation of the bound a case applied (SPEC.md section 3:
// every bound cites its catalog entry, and PASS records it too), PASS and
// FAIL results of the instance's class, and the second seed a protocol
// draws its "other" data from.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kcs/harness/plan.hpp"
#include "kcs/harness/verdict.hpp"
#include "../tolerance/bitwise_equal.hpp"

namespace kcs::suites {

// harness::passed and harness::failed (case_verdict.hpp) with the
// citation of the instance's bound added to evidence.details, as this
// family records it.
harness::CaseResult passed(const harness::Instance& instance, std::string message, harness::Evidence evidence);
harness::CaseResult failed(const harness::Instance& instance, const std::string& signature, std::string message,
                           harness::Evidence evidence);

// The seed before the case's own (B + j - 1, mod 2^64). Where a protocol
// needs data from "another seed" (C-ORD-03's other rows, C-EXC-02's seed
// run before this one, C-ORD-02's interleaved problem), it comes from this
// one, so every input stays a pure function of the case seed and a replay
// with --seed S regenerates it.
std::uint64_t previous_seed(std::uint64_t seed);

// The worst element of a bitwise comparison: `difference` between element
// expected_index of `expected` and got_index of `got`, reported at
// output_index, with the inputs it depends on. The bound is 0: the models
// that compare bitwise allow no difference.
harness::WorstElement differing_element(const tolerance::BitwiseDifference& difference,
                                        const harness::HostTensor& expected, std::size_t expected_index,
                                        const harness::HostTensor& got, std::size_t got_index,
                                        std::size_t output_index, std::vector<std::string> inputs);

// Up to kKeptDifferences differences as evidence rows {element, expected, got}.
// `dtype` is the compared tensors'; element numbers are offset by first_element.
spec::Json differences_json(const tolerance::BitwiseComparison& comparison, kcs_dtype dtype,
                            std::size_t first_element);

}  // namespace kcs::suites
