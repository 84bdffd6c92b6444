// The tolerance models a catalog may name, with the parameters each takes.
// The catalog gives the numbers; the model's definition is code (SPEC.md,
// "Tolerance models"), so the YAML never holds an expression.
#pragma once

#include <string>
#include <vector>

namespace kcs::spec {

struct ModelParameter {
    std::string name;
    // number | int | dtype_int_map (dtype -> int) | ulp_table (function -> dtype -> number)
    std::string type;
};

struct ToleranceModel {
    std::string name;
    std::vector<ModelParameter> parameters;  // all required
    std::string summary;                     // one line, for `kcs spec show`
};

const std::vector<ToleranceModel>& tolerance_models();
const ToleranceModel* find_tolerance_model(const std::string& name);

}  // namespace kcs::spec
