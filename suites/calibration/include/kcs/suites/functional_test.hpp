// The basic functional test a calibration violator must pass (spec/SPEC.md
// section 6): the check kernel repositories use, run as a naive harness
// runs it: one seed, the catalog's distribution and shape, no poison, no
// canaries, the output buffer prefilled with the reference result, and
// allclose against RN_out(y*).
#pragma once

#include <cstdint>
#include <string>

#include "kcs/harness/claims.hpp"
#include "kcs/harness/plan.hpp"
#include "kcs/host/isolated_adapter.hpp"

namespace kcs::suites {

struct FunctionalOutcome {
    bool passed = false;
    double worst_ratio = 0;  // max over elements of |y - r| / (atol + rtol |r|); > 1 fails
    std::int64_t worst_index = -1;
    double got = 0, reference = 0;
    std::string message;  // why it did not pass (an adapter failure, a NaN, the worst element)
};

// Runs `test` for the instance's operator and dtype configuration on
// `adapter`; `claims` settle what the reference depends on (softmax's
// masked rows). Throws std::invalid_argument for an operator the
// functional test does not know yet.
FunctionalOutcome run_functional_test(const spec::FunctionalTest& test, const harness::Instance& instance,
                                      const harness::Claims& claims, host::IsolatedAdapter& adapter,
                                      std::uint64_t seed);

}  // namespace kcs::suites
