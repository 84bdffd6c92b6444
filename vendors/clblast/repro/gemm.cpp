// What CLBlast's GEMM does on an OpenCL device, shown without KCS: CLBlast's
// C++ API and OpenCL alone, on the first device of the first platform that
// has one (PoCL's CPU device here), row-major, alpha 1, beta 0, as the
// clblast adapter calls it (vendors/clblast/src/gemm.cpp). One mode per
// behaviour; each prints what it sees and exits 0 when it sees the
// behaviour, 1 when not, 2 on an error. Each mode runs in its own process:
// CLBlast reads CLBLAST_BUILD_OPTIONS when it first compiles a program.
//
//   gemm build-options  CLBLAST_BUILD_OPTIONS=-cl-denorms-are-zero makes every
//                       GEMM fail with CL_INVALID_BUILD_OPTIONS (CLBlast glues
//                       its own -cl-std=CL1.1 to the last option); the same
//                       value followed by a space builds
//   gemm denormals      under CLBLAST_BUILD_OPTIONS="-cl-denorms-are-zero " a
//                       product of subnormal size comes out 0
//   gemm kernels        XGEMM_MIN_INDIRECT_SIZE overridden to 2^21 and to 0
//                       (the adapter's gemm_kernel=direct and =indirect)
//                       makes CLBlast launch different kernels for the same
//                       64 x 128 x 128 product; prints whether their bits differ
//   gemm threshold      a row computed alone (CLBlast chooses the direct
//                       kernel) keeps its bits inside a product large enough
//                       for CLBlast's own threshold to choose the indirect one
//   gemm contract       CLBlast's GEMM fuses a product into the running sum
//                       (one rounding, as fma), with either kernel
//
// Which kernels CLBlast launches is seen by interposition: this program
// defines clEnqueueNDRangeKernel, so the dynamic linker binds libclblast's
// calls to it; it records the kernel's name and forwards to the loader's.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clblast.h>
#include <dlfcn.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

std::vector<std::string> launched;  // kernel names, in launch order

extern "C" cl_int clEnqueueNDRangeKernel(cl_command_queue queue, cl_kernel kernel, cl_uint dimensions,
                                         const size_t* offset, const size_t* global, const size_t* local,
                                         cl_uint wait_count, const cl_event* wait_list, cl_event* event) {
    using Enqueue = cl_int (*)(cl_command_queue, cl_kernel, cl_uint, const size_t*, const size_t*, const size_t*,
                               cl_uint, const cl_event*, cl_event*);
    static const auto loader = reinterpret_cast<Enqueue>(dlsym(RTLD_NEXT, "clEnqueueNDRangeKernel"));
    char name[128] = {};
    clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof name - 1, name, nullptr);
    launched.emplace_back(name);
    return loader(queue, kernel, dimensions, offset, global, local, wait_count, wait_list, event);
}

namespace {

// The kernels launched since the last call, "A B C".
std::string take_launched() {
    std::string names;
    for (const std::string& name : launched) names.append(names.empty() ? "" : " ").append(name);
    launched.clear();
    return names;
}

bool is_direct(const std::string& kernels) { return kernels.rfind("XgemmDirect", 0) == 0 && kernels.find(' ') == std::string::npos; }

struct Device {
    cl_device_id id = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
};

[[noreturn]] void die(const std::string& what) {
    std::fprintf(stderr, "repro: %s\n", what.c_str());
    std::exit(2);
}

Device open_device() {
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) die("no OpenCL platform");
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    Device d;
    for (cl_platform_id p : platforms)
        if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d.id, nullptr) == CL_SUCCESS) break;
    if (!d.id) die("no OpenCL device");
    cl_int error = CL_SUCCESS;
    d.context = clCreateContext(nullptr, 1, &d.id, nullptr, nullptr, &error);
    if (error != CL_SUCCESS) die("clCreateContext " + std::to_string(error));
    d.queue = clCreateCommandQueue(d.context, d.id, 0, &error);
    if (error != CL_SUCCESS) die("clCreateCommandQueue " + std::to_string(error));
    char name[256] = {};
    clGetDeviceInfo(d.id, CL_DEVICE_NAME, sizeof name - 1, name, nullptr);
    std::printf("device: %s\n", name);
    return d;
}

cl_mem upload(const Device& d, const std::vector<float>& values) {
    cl_int error = CL_SUCCESS;
    cl_mem m = clCreateBuffer(d.context, CL_MEM_READ_WRITE, values.size() * 4, nullptr, &error);
    if (error != CL_SUCCESS) die("clCreateBuffer " + std::to_string(error));
    clEnqueueWriteBuffer(d.queue, m, CL_TRUE, 0, values.size() * 4, values.data(), 0, nullptr, nullptr);
    return m;
}

// C = A B (m x k times k x n) by clblast::Gemm<float>; C starts as NaN, as
// KCS poisons its outputs. Returns CLBlast's status and C.
clblast::StatusCode gemm(const Device& d, std::size_t m, std::size_t n, std::size_t k, const std::vector<float>& a,
                         const std::vector<float>& b, std::vector<float>& c) {
    c.assign(m * n, std::nanf(""));
    cl_mem ma = upload(d, a), mb = upload(d, b), mc = upload(d, c);
    cl_command_queue queue = d.queue;
    const auto status = clblast::Gemm<float>(clblast::Layout::kRowMajor, clblast::Transpose::kNo,
                                             clblast::Transpose::kNo, m, n, k, 1.0f, ma, 0, k, mb, 0, n, 0.0f, mc, 0,
                                             n, &queue);
    clFinish(queue);
    if (status == clblast::StatusCode::kSuccess)
        clEnqueueReadBuffer(queue, mc, CL_TRUE, 0, c.size() * 4, c.data(), 0, nullptr, nullptr);
    clReleaseMemObject(ma);
    clReleaseMemObject(mb);
    clReleaseMemObject(mc);
    return status;
}

void set_min_indirect_size(const Device& d, std::size_t size) {
    if (clblast::OverrideParameters(d.id, "GemmRoutine", clblast::Precision::kSingle,
                                    {{"XGEMM_MIN_INDIRECT_SIZE", size}}) != clblast::StatusCode::kSuccess)
        die("OverrideParameters GemmRoutine");
}

std::size_t min_indirect_size(const Device& d) {
    std::unordered_map<std::string, std::size_t> parameters;
    clblast::RetrieveParameters(d.id, "GemmRoutine", clblast::Precision::kSingle, parameters);
    return parameters["XGEMM_MIN_INDIRECT_SIZE"];
}

std::vector<float> normal(std::size_t count, unsigned seed) {
    std::mt19937 engine(seed);
    std::normal_distribution<float> draw(0.0f, 1.0f);
    std::vector<float> x(count);
    for (float& v : x) v = draw(engine);
    return x;
}

std::uint32_t bits(float x) {
    std::uint32_t u;
    std::memcpy(&u, &x, 4);
    return u;
}

std::size_t differing(const float* x, const float* y, std::size_t count) {
    std::size_t n = 0;
    for (std::size_t i = 0; i < count; ++i) n += bits(x[i]) != bits(y[i]);
    return n;
}

int build_options(const Device& d) {
    setenv("CLBLAST_BUILD_OPTIONS", "-cl-denorms-are-zero", 1);
    std::vector<float> c;
    const auto glued = gemm(d, 2, 2, 2, {1, 2, 3, 4}, {1, 0, 0, 1}, c);
    clblast::ClearCache();
    setenv("CLBLAST_BUILD_OPTIONS", "-cl-denorms-are-zero ", 1);
    const auto spaced = gemm(d, 2, 2, 2, {1, 2, 3, 4}, {1, 0, 0, 1}, c);
    std::printf("CLBLAST_BUILD_OPTIONS=\"-cl-denorms-are-zero\": Gemm returns %d\n", static_cast<int>(glued));
    std::printf("CLBLAST_BUILD_OPTIONS=\"-cl-denorms-are-zero \": Gemm returns %d\n", static_cast<int>(spaced));
    const bool seen = static_cast<int>(glued) == CL_INVALID_BUILD_OPTIONS && spaced == clblast::StatusCode::kSuccess;
    std::printf(seen ? "SEEN: without a trailing space CLBlast's build options are invalid\n"
                     : "NOT SEEN: CLBlast passes the option as given\n");
    return seen ? 0 : 1;
}

int denormals(const Device& d) {
    setenv("CLBLAST_BUILD_OPTIONS", "-cl-denorms-are-zero ", 1);
    // 2^-70 * 2^-70 = 2^-140 and 2^-130 * 1 = 2^-130: subnormal results.
    const float tiny = std::ldexp(1.0f, -70), subnormal = std::ldexp(1.0f, -130);
    std::vector<float> c;
    if (gemm(d, 1, 2, 1, {tiny}, {tiny, 1.0f}, c) != clblast::StatusCode::kSuccess) die("Gemm");
    std::vector<float> c2;
    if (gemm(d, 1, 1, 1, {subnormal}, {1.0f}, c2) != clblast::StatusCode::kSuccess) die("Gemm");
    std::printf("2^-70 x 2^-70 = 0x%08x (RN: 0x%08x); 2^-130 x 1 = 0x%08x (RN: 0x%08x)\n", bits(c[0]),
                bits(tiny * tiny), bits(c2[0]), bits(subnormal));
    const bool seen = c[0] == 0.0f && c2[0] == 0.0f;
    std::printf(seen ? "SEEN: subnormal products come out 0 under -cl-denorms-are-zero\n"
                     : "NOT SEEN: subnormal products are kept\n");
    return seen ? 0 : 1;
}

int kernels(const Device& d) {
    const std::size_t m = 64, n = 128, k = 128;
    const auto a = normal(m * k, 1), b = normal(k * n, 2);
    std::vector<float> direct, indirect;
    set_min_indirect_size(d, std::size_t{1} << 21);
    take_launched();
    if (gemm(d, m, n, k, a, b, direct) != clblast::StatusCode::kSuccess) die("Gemm (direct)");
    const std::string direct_kernels = take_launched();
    set_min_indirect_size(d, 0);
    if (gemm(d, m, n, k, a, b, indirect) != clblast::StatusCode::kSuccess) die("Gemm (indirect)");
    const std::string indirect_kernels = take_launched();
    const std::size_t diff = differing(direct.data(), indirect.data(), m * n);
    std::printf("XGEMM_MIN_INDIRECT_SIZE 2^21: launched %s\n", direct_kernels.c_str());
    std::printf("XGEMM_MIN_INDIRECT_SIZE 0:    launched %s\n", indirect_kernels.c_str());
    std::printf("%zu x %zu x %zu, N(0,1): the two results differ in %zu of %zu elements\n", m, n, k, diff, m * n);
    const bool seen = is_direct(direct_kernels) && !is_direct(indirect_kernels);
    std::printf(seen ? "SEEN: the override chooses the kernel\n" : "NOT SEEN: the same kernels ran\n");
    return seen ? 0 : 1;
}

int threshold(const Device& d) {
    const std::size_t n = 128, k = 128, limit = min_indirect_size(d);
    const std::size_t rows = (limit * limit * limit + n * k - 1) / (n * k);  // the fewest rows CLBlast sends indirect
    const auto b = normal(k * n, 2), all = normal(rows * k, 3);
    std::vector<float> big;
    take_launched();
    if (gemm(d, rows, n, k, all, b, big) != clblast::StatusCode::kSuccess) die("Gemm (large)");
    const std::string big_kernels = take_launched();
    std::printf("CLBlast's XGEMM_MIN_INDIRECT_SIZE %zu: %zu x %zu x %zu launched %s\n", limit, rows, n, k,
                big_kernels.c_str());
    std::size_t changed_rows = 0;
    std::string row_kernels;
    for (std::size_t p = 0; p < rows; p += rows / 16) {
        std::vector<float> alone;
        const std::vector<float> row(all.begin() + static_cast<std::ptrdiff_t>(p * k),
                                     all.begin() + static_cast<std::ptrdiff_t>((p + 1) * k));
        if (gemm(d, 1, n, k, row, b, alone) != clblast::StatusCode::kSuccess) die("Gemm (row)");
        row_kernels = take_launched();
        const std::size_t diff = differing(alone.data(), big.data() + p * n, n);
        changed_rows += diff != 0;
        std::printf("row %zu: %zu of %zu elements differ from the row alone (%s)\n", p, diff, n, row_kernels.c_str());
    }
    if (is_direct(big_kernels) || !is_direct(row_kernels)) die("CLBlast did not switch kernels at its threshold");
    if (changed_rows)
        std::printf("NOT SEEN: %zu rows change when the product crosses the threshold\n", changed_rows);
    else
        std::printf("SEEN: every row keeps its bits across the kernel switch\n");
    return changed_rows ? 1 : 0;
}

// Row [-1, x] times column [1, x] with x = 1 + 2^-12: -1 + x*x, where x*x =
// 1 + 2^-11 + 2^-24 needs 25 bits. Rounded once (fused): 2^-11 + 2^-24;
// rounded twice: 2^-11 (the product's tie rounds to even, down).
int contract(const Device& d) {
    const float x = 1.0f + std::ldexp(1.0f, -12);
    const float fused = std::ldexp(1.0f, -11) + std::ldexp(1.0f, -24), twice = std::ldexp(1.0f, -11);
    int fused_count = 0;
    for (const std::size_t size : {std::size_t{1} << 21, std::size_t{0}}) {
        set_min_indirect_size(d, size);
        take_launched();
        std::vector<float> c;
        if (gemm(d, 1, 1, 2, {-1.0f, x}, {1.0f, x}, c) != clblast::StatusCode::kSuccess) die("Gemm");
        const std::string kernels = take_launched();
        std::printf("%s: -1 + x*x = 0x%08x (fused 0x%08x, rounded twice 0x%08x)\n", kernels.c_str(), bits(c[0]),
                    bits(fused), bits(twice));
        if (c[0] != fused && c[0] != twice) die("neither rounding");
        fused_count += c[0] == fused;
    }
    if (fused_count == 2)
        std::printf("SEEN: both kernels fuse the product into the sum\n");
    else
        std::printf("NOT SEEN: %d of 2 kernels fuse\n", fused_count);
    return fused_count == 2 ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode != "build-options" && mode != "denormals" && mode != "kernels" && mode != "threshold" &&
        mode != "contract") {
        std::fprintf(stderr, "usage: %s build-options|denormals|kernels|threshold|contract\n", argv[0]);
        return 2;
    }
    const Device d = open_device();
    if (mode == "build-options") return build_options(d);
    if (mode == "denormals") return denormals(d);
    if (mode == "kernels") return kernels(d);
    if (mode == "threshold") return threshold(d);
    return contract(d);
}
