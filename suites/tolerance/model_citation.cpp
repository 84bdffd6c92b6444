#include "model_citation.hpp"

#include <stdexcept>

namespace kcs::suites::tolerance {

const spec::Json& model_params(const spec::ContractClass& contract, std::string_view model) {
    if (contract.tolerance.model != model)
        throw std::invalid_argument(contract.id + " names the tolerance model '" + contract.tolerance.model +
                                    "', not '" + std::string(model) + "'");
    return contract.tolerance.params;
}

double number_param(const spec::ContractClass& contract, const std::string& name) {
    const spec::Json& params = contract.tolerance.params;
    if (!params.contains(name) || !params.at(name).is_number())
        throw std::invalid_argument(contract.id + ": tolerance parameter '" + name + "' of model '" +
                                    contract.tolerance.model + "' is missing or not a number");
    return params.at(name).get<double>();
}

spec::Json model_citation(const spec::ContractClass& contract) {
    return {{"class", contract.id}, {"model", contract.tolerance.model}, {"params", contract.tolerance.params}};
}

}  // namespace kcs::suites::tolerance
