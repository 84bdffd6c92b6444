// The cuBLAS adapter through the C ABI on a CUDA device, as the harness
// drives it: an f32 product exact on whole numbers in every math mode and
// through cuBLASLt,
// within its tensors; every other operator declined; a misaligned tensor
// refused; info() naming the device and the modes. Without a CUDA device
// (no GPU, or no driver) every test is SKIPPED with the runtime's reason,
// never passed; bad options are refused either way (they are parsed before
// the device is opened).
#include <gtest/gtest.h>

#include <cctype>
#include <ostream>
#include <string>
#include <vector>

#include "abi_call.hpp"
#include "loaded_adapter.hpp"
#include "matmul_abi_checks.hpp"

namespace kcs::cpu_core::test {
namespace {

LoadedAdapter& adapter() {
    static LoadedAdapter loaded(KCS_CUBLAS_ADAPTER);
    return loaded;
}

const std::string& missing_device() { return open_failure(adapter().api()); }

// The options an instance is opened with, and what its info() notes then say.
struct Mode {
    std::vector<std::string> options;
    const char* notes;
};
void PrintTo(const Mode& mode, std::ostream* out) {
    for (const std::string& option : mode.options) *out << option << " ";
}

class CublasAdapter : public ::testing::TestWithParam<Mode> {
protected:
    void SetUp() override {
        if (!missing_device().empty()) GTEST_SKIP() << missing_device();
    }
};

TEST_P(CublasAdapter, ComputesAnExactProductWithinItsTensors) {
    Instance instance(adapter().api(), GetParam().options);
    EXPECT_NE(notes_of(instance).find(GetParam().notes), std::string::npos) << notes_of(instance);
    expect_exact_matmul(instance, {3, 5}, {5, 4}, {3, 4});
    expect_exact_matmul(instance, {2, 7, 19}, {2, 19, 3}, {2, 7, 3});
    expect_exact_matmul(instance, {1, 1}, {1, 1}, {1, 1});
    expect_declines_every_other_operator(instance);
    expect_refuses_a_misaligned_tensor(instance);
}

INSTANTIATE_TEST_SUITE_P(Modes, CublasAdapter,
                         ::testing::Values(Mode{{"math=default"}, "math: default"}, Mode{{"math=tf32"}, "math: tf32"},
                                           Mode{{"math=pedantic"}, "math: pedantic"},
                                           Mode{{"api=cublaslt"}, "matmul: cublasLtMatmul"},
                                           Mode{{"api=cublaslt", "math=pedantic"}, "math: pedantic; algorithm: result 0"}),
                         [](const ::testing::TestParamInfo<Mode>& info) {
                             std::string name;  // "api_cublaslt_math_pedantic"
                             for (const std::string& option : info.param.options)
                                 name += (name.empty() ? "" : "_") + option;
                             for (char& c : name)
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             return name;
                         });

TEST(CublasAdapterOptions, AreRefusedWithWhatTheAdapterTakes) {
    const kcs_adapter_api& api = adapter().api();
    for (const char* bad : {"math=fast", "atomics=yes", "workspace=x", "threads=2", "split_k=2", "api=cublasxt"}) {
        EXPECT_EQ(try_open(api, {bad}), KCS_INVALID_ARGUMENT) << bad;
        EXPECT_NE(std::string(api.last_error(nullptr)).find(std::string(bad).substr(0, std::string(bad).find('='))),
                  std::string::npos)
            << api.last_error(nullptr);
    }
}

TEST(CublasAdapterWithoutADevice, SaysSoAtOpen) {
    if (missing_device().empty()) GTEST_SKIP() << "a CUDA device is present";
    EXPECT_NE(missing_device().find("no CUDA device"), std::string::npos) << missing_device();
}

}  // namespace
}  // namespace kcs::cpu_core::test
