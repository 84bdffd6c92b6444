// A BLAS adapter (KCS_BLAS_ADAPTER: openblas or blis) through the C ABI, as
// the harness drives it: it declines every operator but f32 matmul, computes
// a small sgemm exactly with the library, never reads the output (beta 0)
// nor writes outside it, refuses bad options, and names the shared object
// it computes with.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "loaded_adapter.hpp"

namespace kcs::cpu_core::test {
namespace {

constexpr unsigned char kGuard = 0xC3;

LoadedAdapter& adapter() {
    static LoadedAdapter loaded(KCS_BLAS_ADAPTER);
    return loaded;
}

// An op over tensors in one buffer, each between 12 guard bytes, outputs
// poisoned with NaN; run() and supports() through the ABI.
class Call {
public:
    Call(Instance& instance, std::string name) : instance_(instance), spec_{std::move(name), "", 0, {}, {}, {}} {}

    void input(kcs_dtype dtype, const std::vector<std::int64_t>& shape, const std::vector<float>& values = {}) {
        spec_.inputs.push_back(place(dtype, shape, values));
    }
    void output(kcs_dtype dtype, const std::vector<std::int64_t>& shape) {
        spec_.outputs.push_back(place(dtype, shape, {}));
    }
    kcs_status supports() {
        const kcs_op op = spec_.op();
        return instance_.api().supports(instance_.get(), &op);
    }
    kcs_status run() {
        const kcs_op op = bind();
        return instance_.api().run(instance_.get(), &op);
    }
    // Output i's floats; every byte outside the outputs (the inputs and the
    // guards) must be as it was written.
    std::vector<float> result(std::size_t i) {
        std::vector<unsigned char> after(bytes_.size());
        instance_.read(buffer_, 0, after.data(), after.size());
        for (std::size_t b = 0; b < after.size(); ++b) {
            if (in_output(b)) continue;
            EXPECT_EQ(after[b], bytes_[b]) << "byte " << b << " outside the outputs was written";
        }
        const kcs_tensor& t = spec_.outputs[i];
        std::vector<float> out(count(t));
        std::memcpy(out.data(), after.data() + t.offset, out.size() * 4);
        return out;
    }

private:
    static std::size_t count(const kcs_tensor& t) {
        std::size_t n = 1;
        for (std::uint32_t d = 0; d < t.rank; ++d) n *= static_cast<std::size_t>(t.shape[d]);
        return n;
    }
    static std::size_t element_size(kcs_dtype dtype) { return dtype == KCS_DTYPE_F32 ? 4 : 2; }

    kcs_tensor place(kcs_dtype dtype, const std::vector<std::int64_t>& shape, const std::vector<float>& values) {
        bytes_.resize(bytes_.size() + 12, kGuard);
        const kcs_tensor t = tensor(0, bytes_.size(), dtype, shape);
        const std::size_t size = count(t) * element_size(dtype);
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (std::size_t e = 0; e < size / 4; ++e) {
            const float value = e < values.size() ? values[e] : nan;
            bytes_.resize(bytes_.size() + 4);
            std::memcpy(bytes_.data() + bytes_.size() - 4, &value, 4);
        }
        bytes_.resize(t.offset + size, kGuard);
        bytes_.resize(bytes_.size() + 12, kGuard);
        return t;
    }
    kcs_op bind() {
        buffer_ = instance_.alloc(bytes_.size());
        instance_.write(buffer_, 0, bytes_.data(), bytes_.size());
        for (auto* list : {&spec_.inputs, &spec_.outputs})
            for (kcs_tensor& t : *list) t.buffer = buffer_;
        return spec_.op();
    }
    bool in_output(std::size_t byte) const {
        for (const kcs_tensor& t : spec_.outputs)
            if (byte >= t.offset && byte < t.offset + count(t) * element_size(t.dtype)) return true;
        return false;
    }

    Instance& instance_;
    OpSpec spec_;
    std::vector<unsigned char> bytes_;
    kcs_buffer buffer_ = 0;
};

// Small whole numbers: every sum is exact in f32 in any order, so the
// library's result is known to the bit.
std::vector<float> whole_numbers(std::size_t n, int seed) {
    std::vector<float> v(n);
    for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(static_cast<int>((i * 7 + seed * 3) % 11) - 5);
    return v;
}

void expect_exact_matmul(const std::vector<std::int64_t>& a_shape, const std::vector<std::int64_t>& b_shape,
                         const std::vector<std::int64_t>& c_shape) {
    Instance instance(adapter().api());
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

TEST(BlasAdapter, ComputesSgemmOverNaNPoisonedOutputs) {
    expect_exact_matmul({3, 5}, {5, 4}, {3, 4});
    expect_exact_matmul({2, 7, 19}, {2, 19, 3}, {2, 7, 3});
    expect_exact_matmul({1, 1}, {1, 1}, {1, 1});
    expect_exact_matmul({8, 1}, {1, 33}, {8, 33});
}

TEST(BlasAdapter, AnEmptySumIsZero) { expect_exact_matmul({2, 0}, {0, 3}, {2, 3}); }

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
    for (const char* name : {"softmax", "reduce_sum", "no_such_operator"}) {
        Call call(instance, name);
        call.input(KCS_DTYPE_F32, {2, 3}, whole_numbers(6, 3));
        call.output(KCS_DTYPE_F32, std::string(name) == "reduce_sum" ? std::vector<std::int64_t>{2}
                                                                      : std::vector<std::int64_t>{2, 3});
        EXPECT_EQ(call.supports(), KCS_UNSUPPORTED) << name;
        EXPECT_EQ(call.run(), KCS_UNSUPPORTED) << name;
    }
}

TEST(BlasAdapter, RefusesAMisalignedTensor) {
    Instance instance(adapter().api());
    const kcs_buffer buffer = instance.alloc(64);
    OpSpec spec{"matmul", "", 0, {}, {}, {}};
    spec.inputs = {tensor(buffer, 2, KCS_DTYPE_F32, {2, 2}), tensor(buffer, 20, KCS_DTYPE_F32, {2, 2})};
    spec.outputs = {tensor(buffer, 40, KCS_DTYPE_F32, {2, 2})};
    const kcs_op op = spec.op();
    EXPECT_EQ(instance.api().run(instance.get(), &op), KCS_INVALID_ARGUMENT);
    EXPECT_NE(instance.last_error().find("offset 2"), std::string::npos) << instance.last_error();
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
