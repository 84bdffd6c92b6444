#include "ordering_results.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "../tolerance/model_citation.hpp"
#include "kcs/harness/case_verdict.hpp"


namespace kcs::suites {

namespace {

std::string bits_text(std::uint64_t bits, kcs_dtype dtype) {
    char text[24];
    const int digits = static_cast<int>(harness::dtype_size(dtype) * 2);
    std::snprintf(text, sizeof text, "0x%0*llx", digits, static_cast<unsigned long long>(bits));
    return text;
}

}  // namespace

harness::CaseResult passed(const harness::Instance& instance, std::string message, harness::Evidence evidence) {
    evidence.details["citation"] = tolerance::model_citation(*instance.contract);
    return harness::passed(instance, std::move(message), std::move(evidence));
}

harness::CaseResult failed(const harness::Instance& instance, const std::string& signature, std::string message,
                           harness::Evidence evidence) {
    evidence.details["citation"] = tolerance::model_citation(*instance.contract);
    return harness::failed(instance, signature, std::move(message), std::move(evidence));
}

std::uint64_t previous_seed(std::uint64_t seed) { return seed - 1; }  // unsigned: wraps mod 2^64

harness::WorstElement differing_element(const tolerance::BitwiseDifference& difference,
                                        const harness::HostTensor& expected, std::size_t expected_index,
                                        const harness::HostTensor& got, std::size_t got_index,
                                        std::size_t output_index, std::vector<std::string> inputs) {
    harness::WorstElement worst;
    worst.index = static_cast<std::int64_t>(output_index);
    worst.inputs = std::move(inputs);
    worst.expected = expected.value(expected_index);
    worst.got = got.value(got_index);
    worst.got_bits = bits_text(difference.got_bits, got.dtype);
    worst.error = std::fabs(worst.got - worst.expected);
    worst.bound = 0;
    return worst;
}

spec::Json differences_json(const tolerance::BitwiseComparison& comparison, kcs_dtype dtype,
                            std::size_t first_element) {
    spec::Json rows = spec::Json::array();
    for (const auto& d : comparison.differences)
        rows.push_back({{"element", first_element + d.element},
                        {"expected", bits_text(d.expected_bits, dtype)},
                        {"got", bits_text(d.got_bits, dtype)}});
    return rows;
}

}  // namespace kcs::suites
