// Test support: what every matmul-only library adapter (blas_common's,
// clblast) must do through the C ABI, checked the same way for each: an
// f32 product exact on whole numbers within its tensors, every other
// operator declined, a misaligned tensor refused.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "abi_call.hpp"

namespace kcs::cpu_core::test {

// C = A B in f32 through run(): every element as the exact sum (whole
// numbers), nothing outside the output written (Call::result).
inline void expect_exact_matmul(Instance& instance, const std::vector<std::int64_t>& a_shape,
                                const std::vector<std::int64_t>& b_shape, const std::vector<std::int64_t>& c_shape) {
    const std::size_t rank = a_shape.size();
    const std::size_t batch = rank == 3 ? static_cast<std::size_t>(a_shape[0]) : 1;
    const auto m = static_cast<std::size_t>(a_shape[rank - 2]), k = static_cast<std::size_t>(a_shape[rank - 1]),
               n = static_cast<std::size_t>(b_shape[rank - 1]);
    const auto a = whole_numbers(batch * m * k, 1), b = whole_numbers(batch * k * n, 2);
    Call call(instance, "matmul");
    call.input(KCS_DTYPE_F32, a_shape, a);
    call.input(KCS_DTYPE_F32, b_shape, b);
    call.output(KCS_DTYPE_F32, c_shape);
    ASSERT_EQ(call.supports(), KCS_OK) << instance.last_error();
    ASSERT_EQ(call.run(), KCS_OK) << instance.last_error();
    const auto c = call.result(0);
    for (std::size_t p = 0; p < batch; ++p)
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < n; ++j) {
                float want = 0;
                for (std::size_t l = 0; l < k; ++l) want += a[(p * m + i) * k + l] * b[(p * k + l) * n + j];
                EXPECT_EQ(c[(p * m + i) * n + j], want) << "batch " << p << ", C[" << i << ", " << j << "]";
            }
}

// matmul with K = 0 declined by supports() with the library's own reason,
// of which `reason` is a part.
inline void expect_declines_k_zero(Instance& instance, const std::string& reason) {
    Call call(instance, "matmul");
    call.input(KCS_DTYPE_F32, {2, 0});
    call.input(KCS_DTYPE_F32, {0, 3});
    call.output(KCS_DTYPE_F32, {2, 3});
    EXPECT_EQ(call.supports(), KCS_UNSUPPORTED);
    EXPECT_NE(instance.last_error().find(reason), std::string::npos) << instance.last_error();
}

// softmax, reduce_sum and an unknown name: KCS_UNSUPPORTED from supports() and run().
inline void expect_declines_every_other_operator(Instance& instance) {
    for (const char* name : {"softmax", "reduce_sum", "no_such_operator"}) {
        Call call(instance, name);
        call.input(KCS_DTYPE_F32, {2, 3}, whole_numbers(6, 3));
        call.output(KCS_DTYPE_F32, std::string(name) == "reduce_sum" ? std::vector<std::int64_t>{2}
                                                                      : std::vector<std::int64_t>{2, 3});
        EXPECT_EQ(call.supports(), KCS_UNSUPPORTED) << name;
        EXPECT_EQ(call.run(), KCS_UNSUPPORTED) << name;
    }
}

// A tensor at byte offset 2 of its buffer: KCS_INVALID_ARGUMENT that names the offset.
inline void expect_refuses_a_misaligned_tensor(Instance& instance) {
    const kcs_buffer buffer = instance.alloc(64);
    OpSpec spec{"matmul", "", 0, {}, {}, {}};
    spec.inputs = {tensor(buffer, 2, KCS_DTYPE_F32, {2, 2}), tensor(buffer, 20, KCS_DTYPE_F32, {2, 2})};
    spec.outputs = {tensor(buffer, 40, KCS_DTYPE_F32, {2, 2})};
    const kcs_op op = spec.op();
    EXPECT_EQ(instance.api().run(instance.get(), &op), KCS_INVALID_ARGUMENT);
    EXPECT_NE(instance.last_error().find("offset 2"), std::string::npos) << instance.last_error();
}

}  // namespace kcs::cpu_core::test
