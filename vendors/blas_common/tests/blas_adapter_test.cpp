// A BLAS adapter (KCS_BLAS_ADAPTER: openblas or blis) through the C ABI, as
// the harness drives it: it declines every operator but f32 matmul, computes
// a small sgemm exactly with the library, never reads the output (beta 0)
// nor writes outside it, refuses bad options, and names the shared object
// it computes with.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "abi_call.hpp"
#include "loaded_adapter.hpp"
#include "matmul_abi_checks.hpp"

namespace kcs::cpu_core::test {
namespace {

LoadedAdapter& adapter() {
    static LoadedAdapter loaded(KCS_BLAS_ADAPTER);
    return loaded;
}

TEST(BlasAdapter, ComputesSgemmOverNaNPoisonedOutputs) {
    Instance instance(adapter().api());
    expect_exact_matmul(instance, {3, 5}, {5, 4}, {3, 4});
    expect_exact_matmul(instance, {2, 7, 19}, {2, 19, 3}, {2, 7, 3});
    expect_exact_matmul(instance, {1, 1}, {1, 1}, {1, 1});
    expect_exact_matmul(instance, {8, 1}, {1, 33}, {8, 33});
}

TEST(BlasAdapter, AnEmptySumIsZero) {
    Instance instance(adapter().api());
    expect_exact_matmul(instance, {2, 0}, {0, 3}, {2, 3});
}

TEST(BlasAdapter, DeclinesMatmulOnOtherDtypes) {
    Instance instance(adapter().api());
    const kcs_dtype f16 = KCS_DTYPE_F16, bf16 = KCS_DTYPE_BF16, f32 = KCS_DTYPE_F32;
    const std::vector<std::pair<kcs_dtype, kcs_dtype>> configs{{f16, f32}, {f16, f16}, {bf16, f32}, {bf16, bf16}};
    for (const auto& [in, out] : configs) {
        Call call(instance, "matmul");
        call.input(in, {4, 8});
        call.input(in, {8, 2});
        call.output(out, {4, 2});
        EXPECT_EQ(call.supports(), KCS_UNSUPPORTED) << in << " -> " << out;
        EXPECT_EQ(call.run(), KCS_UNSUPPORTED) << in << " -> " << out;
        EXPECT_NE(instance.last_error(), "");
    }
}

TEST(BlasAdapter, DeclinesEveryOtherOperator) {
    Instance instance(adapter().api());
    expect_declines_every_other_operator(instance);
}

TEST(BlasAdapter, RefusesAMisalignedTensor) {
    Instance instance(adapter().api());
    expect_refuses_a_misaligned_tensor(instance);
}

TEST(BlasAdapter, TakesThreadsAndRefusesBadOptions) {
    const kcs_adapter_api& api = adapter().api();
    EXPECT_EQ(try_open(api, {"threads=1"}), KCS_OK) << api.last_error(nullptr);
    EXPECT_EQ(try_open(api, {"threads=2"}), KCS_OK) << api.last_error(nullptr);
    for (const char* bad : {"threads=0", "threads=two", "threads=1025", "threads="}) {
        EXPECT_EQ(try_open(api, {bad}), KCS_INVALID_ARGUMENT) << bad;
        EXPECT_NE(std::string(api.last_error(nullptr)).find("threads="), std::string::npos) << bad;
    }
    EXPECT_EQ(try_open(api, {"device=1"}), KCS_INVALID_ARGUMENT);
    EXPECT_NE(std::string(api.last_error(nullptr)).find("threads=N"), std::string::npos) << api.last_error(nullptr);
}

TEST(BlasAdapter, InfoNamesTheSharedObjectItComputesWith) {
    Instance instance(adapter().api(), {"threads=2"});
    kcs_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(instance.api().info(instance.get(), &info), KCS_OK) << instance.last_error();
    const std::string notes = info.notes;
    EXPECT_NE(notes.find(std::string("library: /")), std::string::npos) << notes;
    EXPECT_NE(notes.find(KCS_BLAS_LIBRARY), std::string::npos) << notes;
    EXPECT_NE(notes.find("threads: 2"), std::string::npos) << notes;
    EXPECT_NE(std::string(info.device), "");
    EXPECT_NE(std::string(info.driver_version), "");
}

}  // namespace
}  // namespace kcs::cpu_core::test
