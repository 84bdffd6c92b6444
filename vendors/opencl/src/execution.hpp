// What an operator needs to run on the device: its kernels, its tensors
// bound to device memory, the work-group sizes, scratch memory, and the
// enqueue itself. Every launch goes to the one in-order queue; run() in
// adapter_api.cpp waits for the queue before it returns.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "cl_handle.hpp"
#include "device_buffers.hpp"
#include "op_request.hpp"
#include "programs.hpp"

namespace kcs::opencl {

// A __local buffer of `count` floats, as a kernel argument.
struct LocalFloats {
    std::size_t count = 0;
};

class Execution {
public:
    Execution(cl_context context, cl_command_queue queue, DeviceBuffers& buffers, ProgramLibrary& programs,
              const DeviceDescription& device, std::size_t reduction_local_size);

    cl_kernel kernel(Family family, const std::string& name) { return programs_.kernel(family, name); }

    // The tensor in device memory (DeviceBuffers::bind).
    BoundTensor bind(const TensorRef& tensor, const char* what) const { return buffers_.bind(tensor, what); }

    // Sets the kernel's arguments in order: a BoundTensor takes two (the
    // cl_mem and its element offset), LocalFloats one local buffer, any
    // other value one argument of its own type.
    template <typename... Args>
    void set_args(cl_kernel kernel, const Args&... args) {
        cl_uint index = 0;
        (set_arg(kernel, index, args), ...);
    }

    // The work-group size of a row reduction: the configured size (a power
    // of two) capped by the device's and the kernel's limits. One size per
    // kernel, whatever the shape: the order of a row's sum depends on its
    // length and the options only, never on the number of rows, and a
    // driver that compiles per work-group size (PoCL) compiles once.
    std::size_t reduction_local_size(cl_kernel kernel) const;
    // The work-group size of the one-item-per-element kernels.
    std::size_t pointwise_local_size(cl_kernel kernel) const;

    // Enqueues an NDRange; sizes are the global and local extents.
    void launch(cl_kernel kernel, cl_uint dimensions, const std::array<std::size_t, 3>& global,
                const std::array<std::size_t, 3>& local);

    // A device buffer of at least `bytes` bytes that lives until the next
    // call of scratch(); for the attention scores.
    cl_mem scratch(std::uint64_t bytes);
    // A 4-byte device buffer for the gather's out-of-range report.
    cl_mem flag();

    cl_command_queue queue() const { return queue_; }

private:
    void set_arg(cl_kernel kernel, cl_uint& index, const BoundTensor& tensor);
    void set_arg(cl_kernel kernel, cl_uint& index, const LocalFloats& local);
    template <typename T>
    void set_arg(cl_kernel kernel, cl_uint& index, const T& value) {
        check_cl(clSetKernelArg(kernel, index++, sizeof(T), &value), "clSetKernelArg");
    }

    cl_context context_;
    cl_command_queue queue_;
    DeviceBuffers& buffers_;
    ProgramLibrary& programs_;
    const DeviceDescription& device_;
    std::size_t reduction_local_size_;
    Memory scratch_;
    std::uint64_t scratch_bytes_ = 0;
    Memory flag_;
};

// Rounds up to a multiple of `step`.
inline std::size_t round_up(std::uint64_t value, std::size_t step) {
    return static_cast<std::size_t>((value + step - 1) / step * step);
}

}  // namespace kcs::opencl
