// What C-ORD-01's protocol (spec/v1/classes/C-ORD-01.yaml) does alike for
// every operator: the orders of the permuted axis (identity, reversal,
// placements of chosen entries; the seeded permutations come from
// kcs/reference/permutation.hpp), what order_bound found for one base problem
// under all its orders, and the verdict over the sweep.
// bounded_path_dependence.cpp (matmul, reduce_sum, softmax) and
// attention_path_dependence.cpp build the problems and run them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../tolerance/order_bound.hpp"
#include "kcs/harness/probe.hpp"

namespace kcs::suites::precision {

// One evaluation order of the reduced axis: order[p] is the base entry placed at position p.
struct Order {
    std::string name;
    std::vector<std::uint64_t> order;
};

Order identity(std::int64_t k);
Order reversal(std::int64_t k);

// The order that moves the base entries at `sources` to `targets` and keeps
// every other entry in its base order.
Order placement(std::int64_t k, const std::vector<std::uint64_t>& sources, const std::vector<std::uint64_t>& targets,
                std::string name);

// What one base problem showed under all its orders.
struct ProblemFigures {
    std::string data_set;
    tolerance::OrderBoundResult result;
    std::vector<std::string> order_names;
    harness::WorstElement worst_diameter;  // the element with the largest D / B
    harness::WorstElement worst_error;     // the (element, order) with the largest |y_pi - y*| / B
};

// The base problems of one shape of the sweep, K its permuted axis's length.
struct KFigures {
    std::int64_t K = 0;
    std::string shape;  // "[16x4096x16]"
    std::vector<ProblemFigures> problems;
};

// PASS, or diameter-exceeded (some element's spread beyond diameter_factor
// B), or order-error-exceeded (some order beyond B while every diameter is
// within its bound and another order keeps within B), or unmatched when
// every order is beyond B (assuming C-PRC-01: the accumulation is
// inaccurate whatever the order), with the sweep's figures as evidence.
harness::CaseResult order_sweep_verdict(const harness::Instance& instance, const tolerance::OrderBound& model,
                                        const std::vector<KFigures>& sweep);

}  // namespace kcs::suites::precision
