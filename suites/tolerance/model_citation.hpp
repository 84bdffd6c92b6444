// The catalog entry a bound comes from. SPEC.md section 3: every bound a case
// applies cites its class, model and parameters, and the evidence records
// that citation, so that a verifier can re-judge the case.
#pragma once

#include <string>
#include <string_view>

#include "kcs/spec/catalog.hpp"

namespace kcs::suites::tolerance {

// The class's tolerance parameters, after checking that the class names
// `model` (a probe applying another model's arithmetic would judge against
// the wrong contract). Throws std::invalid_argument otherwise.
const spec::Json& model_params(const spec::ContractClass& contract, std::string_view model);

// One parameter of the class's model; throws std::invalid_argument naming the
// class and the parameter when it is absent or not a number.
double number_param(const spec::ContractClass& contract, const std::string& name);

// {"class": "C-PRC-01", "model": "dot_bound", "params": {...}}.
spec::Json model_citation(const spec::ContractClass& contract);

}  // namespace kcs::suites::tolerance
