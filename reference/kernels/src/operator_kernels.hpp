// The per-operator kernels behind kernels.hpp's run() and supports(). Each
// operator has one file in this folder defining its OperatorKernel.
#pragma once

#include <string_view>

#include "kcs/reference/kernels.hpp"

namespace kcs::kernels::detail {

struct OperatorKernel {
    std::string_view name;
    // Shapes, dtypes, ranks and attributes fit the operator and this kernel
    // computes them (ok), or why not (unsupported / invalid_argument).
    // Must not touch tensor data.
    Result (*check)(const OpCall& call, const Settings& settings);
    // Computes every output of a call that passed check(). Returns ok, or
    // out_of_range for gather under the raise policy.
    Result (*compute)(const OpCall& call, const Settings& settings);
};

extern const OperatorKernel kMatmul;
extern const OperatorKernel kReduceSum;
extern const OperatorKernel kReduceMax;
extern const OperatorKernel kSoftmax;
extern const OperatorKernel kLayernorm;
extern const OperatorKernel kRmsnorm;
extern const OperatorKernel kAttention;
extern const OperatorKernel kUnary;
extern const OperatorKernel kElementwise;
extern const OperatorKernel kCast;
extern const OperatorKernel kGather;

// Result helpers for check() functions.
inline Result ok() { return {}; }
Result unsupported(std::string message);
Result invalid(std::string message);

}  // namespace kcs::kernels::detail
