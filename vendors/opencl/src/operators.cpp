#include "operators.hpp"

#include <array>

#include "operator_table.hpp"

namespace kcs::opencl {

extern const Operator kMatmul, kReduceSum, kReduceMax, kSoftmax, kLayernorm, kRmsnorm, kAttention;  // row_operators.cpp
extern const Operator kUnary, kElementwise, kCast, kGather;  // pointwise_operators.cpp

const Operator& find_operator(std::string_view name) {
    static const std::array<const Operator*, 11> all{&kMatmul,    &kReduceSum, &kReduceMax,   &kSoftmax,
                                                     &kLayernorm, &kRmsnorm,   &kAttention,   &kUnary,
                                                     &kElementwise, &kCast,    &kGather};
    return device::find_named_operator(all, name);
}

}  // namespace kcs::opencl
