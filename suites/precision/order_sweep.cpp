#include "order_sweep.hpp"

#include <string>
#include <utility>

#include "../tolerance/model_citation.hpp"
#include "kcs/harness/case_verdict.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/reference/number_text.hpp"

namespace kcs::suites::precision {

namespace {

using tolerance::OrderBound;
using tolerance::OrderBoundResult;

constexpr const char* kDiameterExceeded = "diameter-exceeded";
constexpr const char* kOrderErrorExceeded = "order-error-exceeded";

spec::Json problem_details(const ProblemFigures& f) {
    const OrderBoundResult& r = f.result;
    return {{"data_set", f.data_set},
            {"orders", f.order_names},
            {"max_diameter_over_bound", r.worst_diameter_ratio},
            {"diameter_element", r.worst_diameter_element},
            {"diameter", r.worst_diameter},
            {"bound_B", r.worst_diameter_bound},
            {"lowest_order", f.order_names[r.lowest_order]},
            {"highest_order", f.order_names[r.highest_order]},
            {"elements_over_diameter", r.diameters_over_bound},
            {"max_error_over_bound", r.worst_error_ratio},
            {"error_element", r.worst_error_element},
            {"error_order", f.order_names[r.worst_error_order]},
            {"results_over_bound", r.errors_over_bound}};
}

// "K=4096 [1x4096x1] (normal(0,1)): ", the head of a verdict's message.
std::string where_in_sweep(const KFigures& k, const ProblemFigures& p) {
    return "K=" + std::to_string(k.K) + " " + k.shape + " (" + p.data_set + "): ";
}

}  // namespace

Order identity(std::int64_t k) {
    Order o{"identity", std::vector<std::uint64_t>(static_cast<std::size_t>(k))};
    for (std::size_t p = 0; p < o.order.size(); ++p) o.order[p] = p;
    return o;
}

Order reversal(std::int64_t k) {
    Order o{"reversal", std::vector<std::uint64_t>(static_cast<std::size_t>(k))};
    for (std::size_t p = 0; p < o.order.size(); ++p) o.order[p] = o.order.size() - 1 - p;
    return o;
}

Order placement(std::int64_t k, const std::vector<std::uint64_t>& sources, const std::vector<std::uint64_t>& targets,
                std::string name) {
    const auto n = static_cast<std::size_t>(k);
    std::vector<std::uint64_t> order(n, n);
    std::vector<bool> placed(n, false);
    for (std::size_t i = 0; i < sources.size(); ++i) {
        order[targets[i]] = sources[i];
        placed[sources[i]] = true;
    }
    std::size_t next = 0;
    for (auto& entry : order) {
        if (entry != n) continue;
        while (placed[next]) ++next;
        entry = next++;
    }
    return {std::move(name), std::move(order)};
}

harness::CaseResult order_sweep_verdict(const harness::Instance& instance, const OrderBound& model,
                                        const std::vector<KFigures>& sweep) {
    harness::Evidence evidence;
    evidence.details["citation"] = tolerance::model_citation(*instance.contract);
    evidence.judged.unit = "elements";
    const ProblemFigures* widest = nullptr;    // largest D / B
    const ProblemFigures* furthest = nullptr;  // largest single error / B
    const KFigures* widest_k = nullptr;
    const KFigures* furthest_k = nullptr;
    bool diameter_failed = false, error_failed = false;
    for (const auto& k : sweep) {
        spec::Json per_k = {{"K", k.K}, {"shape", k.shape}};
        for (const auto& p : k.problems) {
            per_k["problems"].push_back(problem_details(p));
            evidence.judged.count += p.result.elements;
            diameter_failed = diameter_failed || !p.result.diameters_pass();
            error_failed = error_failed || !p.result.errors_pass();
            if (!widest || p.result.worst_diameter_ratio > widest->result.worst_diameter_ratio) {
                widest = &p;
                widest_k = &k;
            }
            if (!furthest || p.result.worst_error_ratio > furthest->result.worst_error_ratio) {
                furthest = &p;
                furthest_k = &k;
            }
        }
        evidence.details["sweep"].push_back(per_k);
    }

    evidence.figure_name = harness::figures::order_diameter.name;
    evidence.figure = widest->result.worst_diameter_ratio;
    evidence.bound = model.diameter_factor;
    evidence.worst = widest->worst_diameter;
    evidence.details["largest_error_over_bound"] = furthest->result.worst_error_ratio;

    const std::string where = where_in_sweep(*widest_k, *widest);
    if (diameter_failed) {
        const OrderBoundResult& r = widest->result;
        return harness::case_verdict(instance, kDiameterExceeded,
                            where + "element " + std::to_string(r.worst_diameter_element) +
                                " spreads by D = " + ref::number_text(r.worst_diameter) + " between '" +
                                widest->order_names[r.lowest_order] + "' and '" + widest->order_names[r.highest_order] +
                                "', beyond " + ref::number_text(model.diameter_factor) +
                                " B = " + ref::number_text(model.diameter_factor * r.worst_diameter_bound),
                            std::move(evidence));
    }
    if (error_failed) {
        const OrderBoundResult& r = furthest->result;
        evidence.figure_name = harness::figures::order_error.name;
        evidence.figure = r.worst_error_ratio;
        evidence.bound = 1.0;
        evidence.worst = furthest->worst_error;
        // order-error-exceeded's condition (its selected_when): some order
        // keeps the problem within B, so the error depends on the order.
        const std::size_t clean = r.orders_within_bound();
        evidence.details["signature_figures"] = {{"orders", furthest->order_names.size()},
                                                 {"orders_within_bound", clean}};
        if (clean == 0) {
            // Every order, the identity among them, is inaccurate: the
            // accumulation is (C-PRC-01's evidence), not the order.
            harness::CaseResult result = harness::case_verdict(
                instance, "unmatched",
                where_in_sweep(*furthest_k, *furthest) + "every one of the " +
                    std::to_string(furthest->order_names.size()) + " orders, '" + furthest->order_names.front() +
                    "' among them, gives results beyond B (the worst |y - y*| = " + ref::number_text(r.worst_error) +
                    " against B = " + ref::number_text(r.worst_error_bound) +
                    "): the error does not depend on the order",
                std::move(evidence));
            result.assumes = {"C-PRC-01"};
            return result;
        }
        return harness::case_verdict(
            instance, kOrderErrorExceeded,
            where_in_sweep(*furthest_k, *furthest) + "order '" +
                furthest->order_names[r.worst_error_order] + "' gives |y - y*| = " + ref::number_text(r.worst_error) +
                " beyond B = " + ref::number_text(r.worst_error_bound) + " while every diameter is within its bound",
            std::move(evidence));
    }
    return harness::case_verdict(instance, "",
                        "every order within B and every diameter within " + ref::number_text(model.diameter_factor) +
                            " B; largest D / B " + ref::number_text(widest->result.worst_diameter_ratio),
                        std::move(evidence));
}

}  // namespace kcs::suites::precision
