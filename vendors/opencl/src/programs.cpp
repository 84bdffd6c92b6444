#include "programs.hpp"

#include <span>
#include <string_view>
#include <vector>

#include "kcs_opencl_kernel_sources.hpp"

namespace kcs::opencl {

namespace {

struct Instance {
    const char* first;   // IN, or gather's ELEMENT
    const char* second;  // OUT, or gather's INDEX
};

// The reducing operators' five configurations (spec/v1/operators): f32 ->
// f32, and f16 or bf16 to themselves or to f32. reduce_max uses the three
// of them whose dtypes agree.
constexpr Instance kAccumulating[] = {
    {"f32", "f32"}, {"f16", "f32"}, {"f16", "f16"}, {"bf16", "f32"}, {"bf16", "bf16"}};
// unary and elementwise keep the dtype; cast converts f32 <-> f16, bf16.
constexpr Instance kSameDtype[] = {{"f32", "f32"}, {"f16", "f16"}, {"bf16", "bf16"}};
constexpr Instance kCast[] = {{"f32", "f16"}, {"f32", "bf16"}, {"f16", "f32"}, {"bf16", "f32"}};
constexpr Instance kGather[] = {{"uint", "int"}, {"uint", "long"}, {"ushort", "int"}, {"ushort", "long"}};

std::span<const Instance> instances_of(Family family) {
    switch (family) {
        case Family::unary: case Family::elementwise: return kSameDtype;
        case Family::cast: return kCast;
        case Family::gather: return kGather;
        default: return kAccumulating;
    }
}

std::string_view family_source(Family family) {
    namespace k = kernel_sources;
    switch (family) {
        case Family::matmul: return k::matmul;
        case Family::reduce: return k::reduce;
        case Family::softmax: return k::softmax;
        case Family::norms: return k::norms;
        case Family::attention: return k::attention;
        case Family::unary: return k::unary;
        case Family::elementwise: return k::elementwise;
        case Family::cast: return k::cast;
        case Family::gather: return k::gather;
    }
    return {};
}

// common.cl, then the family's file once per instance.
std::string program_source(Family family) {
    const bool gather = family == Family::gather;
    std::string source(kernel_sources::common);
    for (const Instance& instance : instances_of(family)) {
        source.append("\n#define ").append(gather ? "ELEMENT " : "IN ").append(instance.first);
        source.append("\n#define ").append(gather ? "INDEX " : "OUT ").append(instance.second);
        source.append("\n#define KERNEL(name) KCS_CAT(name, _").append(instance.first).append("_").append(instance.second);
        source.append(")\n").append(family_source(family));
        source.append(gather ? "\n#undef ELEMENT\n#undef INDEX" : "\n#undef IN\n#undef OUT").append("\n#undef KERNEL\n");
    }
    return source;
}

}  // namespace

ProgramLibrary::ProgramLibrary(cl_context context, cl_device_id device, const DeviceDescription& description,
                               std::string user_build_options, std::optional<ProgramCache> cache)
    : context_(context),
      device_(device),
      device_identity_(description.platform_name + "\n" + description.platform_version + "\n" + description.name +
                       "\n" + description.device_version + "\n" + description.driver_version),
      user_build_options_(std::move(user_build_options)),
      cache_(std::move(cache)) {}

cl_kernel ProgramLibrary::kernel(Family family, const std::string& name) {
    const cl_program built = program(family);
    auto& slot = kernels_[{built, name}];
    if (!slot) {
        cl_int error = CL_SUCCESS;
        Kernel created(clCreateKernel(built, name.c_str(), &error));
        check_cl(error, ("clCreateKernel " + name).c_str());
        slot = std::move(created);
    }
    return slot.get();
}

cl_program ProgramLibrary::program(Family family) {
    auto& slot = programs_[family];
    if (slot) return slot.get();
    const std::string source = program_source(family);
    const std::string& options = user_build_options_;
    const std::string key = device_identity_ + "\n" + options + "\n" + source;
    if (cache_) slot = build_from_cache(key, options);
    if (slot) {
        ++cached_builds_;
        return slot.get();
    }
    slot = build_from_source(source, options);
    ++source_builds_;
    if (cache_) {
        std::size_t size = 0;
        if (clGetProgramInfo(slot.get(), CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr) == CL_SUCCESS &&
            size > 0) {
            std::vector<unsigned char> binary(size);
            unsigned char* pointer = binary.data();
            if (clGetProgramInfo(slot.get(), CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr) == CL_SUCCESS)
                cache_->store(key, binary);
        }
    }
    return slot.get();
}

// A cached binary that the driver refuses (another driver build, a torn
// file) is ignored: the program is compiled from source instead.
Program ProgramLibrary::build_from_cache(const std::string& key, const std::string& options) {
    const auto binary = cache_->load(key);
    if (!binary) return {};
    const unsigned char* data = binary->data();
    const std::size_t size = binary->size();
    cl_int status = CL_SUCCESS;
    cl_int error = CL_SUCCESS;
    Program program(clCreateProgramWithBinary(context_, 1, &device_, &size, &data, &status, &error));
    if (error != CL_SUCCESS || status != CL_SUCCESS) return {};
    if (clBuildProgram(program.get(), 1, &device_, options.c_str(), nullptr, nullptr) != CL_SUCCESS) return {};
    return program;
}

Program ProgramLibrary::build_from_source(const std::string& source, const std::string& options) {
    const char* text = source.c_str();
    const std::size_t length = source.size();
    cl_int error = CL_SUCCESS;
    Program program(clCreateProgramWithSource(context_, 1, &text, &length, &error));
    check_cl(error, "clCreateProgramWithSource");
    build(program.get(), options, "clBuildProgram");
    return program;
}

void ProgramLibrary::build(cl_program program, const std::string& options, const char* what) {
    const cl_int error = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
    if (error == CL_SUCCESS) return;
    std::size_t size = 0;
    std::string log;
    if (clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) == CL_SUCCESS && size > 0) {
        log.resize(size);
        clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        log.resize(log.find('\0') == std::string::npos ? size : log.find('\0'));
    }
    // A bad user option is the user's to fix; anything else is the driver's.
    const kcs_status status = error == CL_INVALID_BUILD_OPTIONS ? KCS_INVALID_ARGUMENT : KCS_DEVICE_ERROR;
    std::string message = std::string(what) + " with options '" + options + "': " + cl_error_text(error);
    if (!log.empty()) message.append("\nbuild log:\n").append(log.substr(0, 4000));
    fail(status, message);
}

}  // namespace kcs::opencl
