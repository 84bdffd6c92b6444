#include "operators.hpp"

#include <array>
#include <string>

#include "adapter_failure.hpp"

namespace kcs::cuda {

extern const Operator kMatmul, kReduceSum, kReduceMax, kSoftmax, kLayernorm, kRmsnorm, kAttention;  // row_operators.cpp
extern const Operator kUnary, kElementwise, kCast, kGather;  // pointwise_operators.cpp

const Operator& find_operator(std::string_view name) {
    static const std::array<const Operator*, 11> all{&kMatmul,    &kReduceSum, &kReduceMax,   &kSoftmax,
                                                     &kLayernorm, &kRmsnorm,   &kAttention,   &kUnary,
                                                     &kElementwise, &kCast,    &kGather};
    for (const Operator* op : all)
        if (op->name == name) return *op;
    device::unsupported("no kernel for operator '" + std::string(name) + "'");
}

}  // namespace kcs::cuda
