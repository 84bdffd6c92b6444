// The tolerance models a catalog may name, with the parameters each takes.
// The catalog gives the numbers; the model's definition is code (SPEC.md,
// "Tolerance models"), so the YAML never holds an expression.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "kcs/spec/catalog.hpp"

namespace kcs::spec {

struct ModelParameter {
    enum class Role;
    ModelParameter(std::string name_, std::string type_, Role role_ = Role{}, std::string since_ = {})
        : name(std::move(name_)), type(std::move(type_)), role(role_), since(std::move(since_)) {}

    std::string name;
    // number | int | dtype_int_map (dtype -> int) | ulp_table (function -> dtype -> number)
    std::string type;
    // How the parameter moves the contract, for kcs spec diff (SPEC.md
    // section 10): a bound (larger_is_looser: an error's limit; or
    // larger_is_tighter: a floor such as a precision) or an evidence
    // requirement (more_is_stronger: what a PASS must have seen).
    enum class Role { larger_is_looser, larger_is_tighter, evidence_larger_is_stronger, evidence_smaller_is_stronger };
    Role role;
    // The catalog version that introduced it: required from there on,
    // absent in older catalogs (which the binary carries for kcs spec diff).
    std::string since;
};

struct ToleranceModel {
    // Which way a case figure holds against its bound: at most (an error,
    // a count) or at least (exact_when_representable's effective precision).
    enum class Holds { at_most, at_least };

    std::string name;
    std::vector<ModelParameter> parameters;  // each model's code refuses one it needs and lacks; bitwise_equal's are optional
    std::string summary;                     // one line, for `kcs spec show`
    Holds holds = Holds::at_most;
    // The figure is the largest element error over that element's own
    // bound (headline bound 1): the worst element's error may reach the
    // headline bound times its own bound.
    bool ratio_figure = false;
};

const std::vector<ToleranceModel>& tolerance_models();
const ToleranceModel* find_tolerance_model(const std::string& name);

// Whether `figure` keeps within `bound` in the model's direction; never for
// a NaN figure. The probes' verdicts and kcs verify's re-judging both read it.
bool figure_holds(const ToleranceModel& model, double figure, double bound);

// The bounds a case's headline figure may be judged against under the
// class's tolerance model, for an instance of `config` (and `function`, a
// member of a family): what the catalog's parameters give, never what a
// report says. ulp_table: the table's entry for the function (the
// exponential for softmax and attention, C-CMP-01's scope) and the output
// dtype; exact_when_representable: the required bits of each input dtype;
// order_bound: diameter_factor (the diameter's figure) or 1 (a single
// order's); distinct_outputs: max_distinct; dot_bound and stability_bound:
// 1 (an error over its bound) or 0 (a count of non-finite results); the
// bitwise and policy models: 0. Empty for a model or entry the catalog
// lacks.
std::vector<double> headline_bounds(const Tolerance& tolerance, const DtypeConfig& config,
                                    const std::optional<std::string>& function);

// The power a PASS needs under a model that states one (bitwise_equal's
// detectable_rate r and detection_probability p): independent elements
// compared, n, enough that a change hitting each with probability r shows
// with probability p, 1 - (1 - r)^n >= p. None when the tolerance states no power.
struct RequiredPower {
    double detectable_rate = 0;
    double detection_probability = 0;
    std::uint64_t elements = 0;  // the least n
};
std::optional<RequiredPower> required_power(const Tolerance& tolerance);
// 1 - (1 - rate)^elements: the probability that `elements` independent comparisons see a change of `rate`.
double detection_probability(double rate, std::uint64_t elements);

}  // namespace kcs::spec
