#include "cited_tolerance.hpp"

#include "kcs/spec/tolerance_models.hpp"

namespace kcs::reports::detail {

void cited_tolerances(const spec::Json& node, std::vector<const spec::Json*>& out) {
    if (node.is_object()) {
        if (node.size() == 3 && node.contains("class") && node.contains("model") && node.contains("params"))
            out.push_back(&node);
        for (const auto& [key, child] : node.items()) cited_tolerances(child, out);
    } else if (node.is_array()) {
        for (const auto& child : node) cited_tolerances(child, out);
    }
}

bool figure_holds_at_least(const spec::Json& evidence, const std::string& class_id) {
    std::vector<const spec::Json*> cited;
    cited_tolerances(evidence, cited);
    for (const spec::Json* t : cited) {
        if ((*t)["class"] != class_id || !(*t)["model"].is_string()) continue;
        const spec::ToleranceModel* model = spec::find_tolerance_model((*t)["model"].get<std::string>());
        return model && model->holds == spec::ToleranceModel::Holds::at_least;
    }
    return false;
}

}  // namespace kcs::reports::detail
