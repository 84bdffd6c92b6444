// The adapter's OpenCL programs, built on first use: one per kernel family,
// kernels/common.cl followed by the family's file once per configuration
// it is instantiated for (IN and OUT dtypes, or gather's ELEMENT and INDEX
// types), each instance's kernels named for it: softmax_f16_f32. One program
// per family rather than per configuration keeps the number of compiles
// small, and no family so large that its build outlasts the harness's call
// timeout on a busy machine (PoCL 3.1 spends about 0.3 s per kernel there). A built program comes from the
// binary cache when it holds one for this device, driver, build options and
// source; otherwise from source, and the binary is then stored.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "cl_handle.hpp"
#include "device.hpp"
#include "program_cache.hpp"

namespace kcs::opencl {

enum class Family { matmul, reduce, softmax, norms, attention, unary, elementwise, cast, gather };

class ProgramLibrary {
public:
    ProgramLibrary(cl_context context, cl_device_id device, const DeviceDescription& description,
                   std::string user_build_options, std::optional<ProgramCache> cache);

    // The kernel `name` (with its configuration suffix) of the family's
    // program. The kernel object is the library's; it lives as long as the
    // library.
    cl_kernel kernel(Family family, const std::string& name);

    // How many programs came from the cache and how many were compiled.
    int cached_builds() const { return cached_builds_; }
    int source_builds() const { return source_builds_; }

private:
    cl_program program(Family family);
    Program build_from_cache(const std::string& key, const std::string& options);
    Program build_from_source(const std::string& source, const std::string& options);
    void build(cl_program program, const std::string& options, const char* what);

    cl_context context_;
    cl_device_id device_;
    std::string device_identity_;  // platform, device and driver: part of every cache key
    std::string user_build_options_;
    std::optional<ProgramCache> cache_;
    std::map<Family, Program> programs_;
    std::map<std::pair<cl_program, std::string>, Kernel> kernels_;
    int cached_builds_ = 0;
    int source_builds_ = 0;
};

}  // namespace kcs::opencl
