// Finding the OpenCL device the options name, and what info() says about it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "cl_handle.hpp"
#include "failure.hpp"
#include "options.hpp"

namespace kcs::opencl {

struct DeviceDescription {
    std::string platform_name;
    std::string platform_version;
    std::string vendor;
    std::string name;
    std::string driver_version;
    std::string device_version;  // "OpenCL 3.0 PoCL ..."
    std::string c_version;       // "OpenCL C 1.2 PoCL"
    std::string extensions;
    bool has_fp16 = false;           // cl_khr_fp16: f16 arithmetic (the kernels do not use it)
    bool has_denormals = false;      // CL_FP_DENORM in CL_DEVICE_SINGLE_FP_CONFIG
    bool has_fma = false;            // CL_FP_FMA
    bool rounds_divide_sqrt = false; // CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT
    std::size_t max_work_group_size = 1;
    std::uint64_t max_alloc_bytes = 0;
    std::uint64_t local_memory_bytes = 0;
};

struct SelectedDevice {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
};

// The device that platform= and device= name. Fails with KCS_DEVICE_ERROR
// and a message that says what exists when there is no OpenCL platform, no
// device, or none that matches.
SelectedDevice select_device(const Options& options);

DeviceDescription describe_device(const SelectedDevice& selected);

// The selected device with a context and an in-order queue on it: what
// every adapter over OpenCL (ours, CLBlast's) computes with.
struct OpenDevice {
    SelectedDevice selected;
    DeviceDescription description;
    Context context;
    Queue queue;
};
OpenDevice open_device(const Options& options);

}  // namespace kcs::opencl
