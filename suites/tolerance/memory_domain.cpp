#include "memory_domain.hpp"

#include <stdexcept>

namespace kcs::suites::tolerance {

StaleTest stale_test(const std::vector<std::uint64_t>& previous_oracle,
                     const std::vector<std::uint64_t>& current_oracle, const harness::HostTensor& previous_output,
                     const harness::HostTensor& current_output) {
    const std::size_t n = current_output.elements();
    if (previous_oracle.size() != n || current_oracle.size() != n || previous_output.elements() != n ||
        previous_output.dtype != current_output.dtype)
        throw std::invalid_argument("stale_test: the two seeds' oracles and outputs must have the same size and dtype");
    StaleTest test;
    test.elements = n;
    for (std::size_t i = 0; i < n; ++i) {
        if (previous_oracle[i] != current_oracle[i]) ++test.oracle_differences;
        if (previous_output.bits(i) != current_output.bits(i)) ++test.output_differences;
    }
    return test;
}

}  // namespace kcs::suites::tolerance
