#include "kcs/spec/tolerance_models.hpp"

#include <algorithm>
#include <cmath>

namespace kcs::spec {

const std::vector<ToleranceModel>& tolerance_models() {
    static const std::vector<ToleranceModel> models{
        {"dot_bound",
         {{"c", "number"},
          {"min_outputs", "int", ModelParameter::Role::evidence_larger_is_stronger},
          {"mean_z", "number"},
          {"var_factor", "number"}},
         "|y - y*| <= c*gamma(K,u(acc))*M + u(out)*|y*| per element; unbiased mean and bounded "
         "variance of the normalised error",
         ToleranceModel::Holds::at_most, true},
        {"stability_bound",
         {{"c", "number"}, {"sum_c", "number"}},
         "finite where the oracle is finite; elementwise error and row-sum drift within c and sum_c "
         "multiples of the roundoff terms",
         ToleranceModel::Holds::at_most, true},
        {"exact_when_representable",
         {{"min_mantissa_bits", "dtype_int_map", ModelParameter::Role::larger_is_tighter}},
         "bitwise equal where the exact result is representable; effective input precision at "
         "least the declared dtype's significand bits",
         ToleranceModel::Holds::at_least},
        {"bitwise_rne", {}, "bitwise equal to round-to-nearest-even of the exact value"},
        {"order_bound",
         {{"c", "number"}, {"diameter_factor", "number"}},
         "each order within c*gamma(K-1,u(acc))*sum|x| + u(out)|y*|; spread over orders within "
         "diameter_factor times that",
         ToleranceModel::Holds::at_most, true},
        {"distinct_outputs",
         {{"runs", "int", ModelParameter::Role::evidence_larger_is_stronger}, {"max_distinct", "int"}},
         "at most max_distinct distinct output hashes over runs identical executions"},
        {"bitwise_equal",
         {{"detectable_rate", "number", ModelParameter::Role::evidence_smaller_is_stronger, "1.1.0"},
          {"detection_probability", "number", ModelParameter::Role::evidence_larger_is_stronger, "1.1.0"}},
         "bitwise equal to the same computation in another context; a PASS needs enough elements "
         "compared to see a change of detectable_rate with detection_probability"},
        {"ulp_table",
         {{"table", "ulp_table"}},
         "ulp error against the correctly rounded result within the table's bound per function "
         "and dtype"},
        {"subnormal_policy", {}, "subnormals honoured, or flushed consistently where claimed"},
        {"contraction_policy", {}, "unfused rounding bitwise, or fused where fp_contract is on"},
        {"ieee_special", {}, "NaN and infinities exactly as IEEE 754 and the claims say"},
        {"memory_domain", {}, "canaries intact, no poison left, out-of-range indices per policy"},
    };
    return models;
}

const ToleranceModel* find_tolerance_model(const std::string& name) {
    const auto& models = tolerance_models();
    const auto it = std::find_if(models.begin(), models.end(),
                                 [&](const ToleranceModel& m) { return m.name == name; });
    return it == models.end() ? nullptr : &*it;
}

bool figure_holds(const ToleranceModel& model, double figure, double bound) {
    if (std::isnan(figure)) return false;
    return model.holds == ToleranceModel::Holds::at_least ? figure >= bound : figure <= bound;
}

namespace {

std::optional<double> number_at(const Json& params, const Json::json_pointer& at) {
    if (!params.contains(at) || !params.at(at).is_number()) return std::nullopt;
    return params.at(at).get<double>();
}

}  // namespace

std::vector<double> headline_bounds(const Tolerance& tolerance, const DtypeConfig& config,
                                    const std::optional<std::string>& function) {
    const std::string& model = tolerance.model;
    const Json& params = tolerance.params;
    std::vector<double> bounds;
    const auto add = [&](const std::optional<double>& bound) {
        if (bound) bounds.push_back(*bound);
    };
    if (model == "ulp_table") {
        add(number_at(params, Json::json_pointer("/table/" + function.value_or("exp") + "/" + config.output)));
    } else if (model == "exact_when_representable") {
        for (const auto& dtype : config.inputs) add(number_at(params, Json::json_pointer("/min_mantissa_bits/" + dtype)));
    } else if (model == "order_bound") {
        add(number_at(params, Json::json_pointer("/diameter_factor")));
        bounds.push_back(1.0);
    } else if (model == "distinct_outputs") {
        add(number_at(params, Json::json_pointer("/max_distinct")));
    } else if (model == "dot_bound" || model == "stability_bound") {
        bounds = {1.0, 0.0};
    } else if (find_tolerance_model(model)) {
        bounds.push_back(0.0);
    }
    return bounds;
}

double detection_probability(double rate, std::uint64_t elements) {
    return -std::expm1(static_cast<double>(elements) * std::log1p(-rate));
}

std::optional<RequiredPower> required_power(const Tolerance& tolerance) {
    const auto rate = number_at(tolerance.params, Json::json_pointer("/detectable_rate"));
    const auto probability = number_at(tolerance.params, Json::json_pointer("/detection_probability"));
    if (!rate || !probability || !(*rate > 0 && *rate < 1) || !(*probability > 0 && *probability < 1))
        return std::nullopt;
    // The least n with (1 - r)^n <= 1 - p; the loop absorbs the rounding of the logarithms.
    auto n = static_cast<std::uint64_t>(std::ceil(std::log1p(-*probability) / std::log1p(-*rate)));
    while (n > 1 && detection_probability(*rate, n - 1) >= *probability) --n;
    while (detection_probability(*rate, n) < *probability) ++n;
    return RequiredPower{*rate, *probability, n};
}

}  // namespace kcs::spec
