#include "execution.hpp"

#include <algorithm>

namespace kcs::opencl {

namespace {

std::size_t floor_power_of_two(std::size_t n) {
    std::size_t p = 1;
    while (p * 2 <= n) p *= 2;
    return p;
}

std::size_t kernel_work_group_limit(cl_kernel kernel, cl_device_id device) {
    std::size_t limit = 0;
    if (clGetKernelWorkGroupInfo(kernel, device, CL_KERNEL_WORK_GROUP_SIZE, sizeof limit, &limit, nullptr) !=
            CL_SUCCESS ||
        limit == 0)
        return 1;
    return limit;
}

cl_device_id device_of(cl_command_queue queue) {
    cl_device_id device = nullptr;
    check_cl(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr), "clGetCommandQueueInfo");
    return device;
}

}  // namespace

Execution::Execution(cl_context context, cl_command_queue queue, DeviceBuffers& buffers, ProgramLibrary& programs,
                     const DeviceDescription& device, std::size_t reduction_local_size)
    : context_(context),
      queue_(queue),
      buffers_(buffers),
      programs_(programs),
      device_(device),
      reduction_local_size_(reduction_local_size) {}

void Execution::set_arg(cl_kernel kernel, cl_uint& index, const BoundTensor& tensor) {
    check_cl(clSetKernelArg(kernel, index++, sizeof(cl_mem), &tensor.memory), "clSetKernelArg (buffer)");
    check_cl(clSetKernelArg(kernel, index++, sizeof(cl_ulong), &tensor.at), "clSetKernelArg (offset)");
}

void Execution::set_arg(cl_kernel kernel, cl_uint& index, const LocalFloats& local) {
    check_cl(clSetKernelArg(kernel, index++, local.count * sizeof(cl_float), nullptr), "clSetKernelArg (local)");
}

std::size_t Execution::reduction_local_size(cl_kernel kernel) const {
    std::size_t size = reduction_local_size_;
    size = std::min(size, floor_power_of_two(kernel_work_group_limit(kernel, device_of(queue_))));
    return std::min(size, floor_power_of_two(device_.max_work_group_size));
}

std::size_t Execution::pointwise_local_size(cl_kernel kernel) const {
    return std::min<std::size_t>(64, floor_power_of_two(kernel_work_group_limit(kernel, device_of(queue_))));
}

void Execution::launch(cl_kernel kernel, cl_uint dimensions, const std::array<std::size_t, 3>& global,
                       const std::array<std::size_t, 3>& local) {
    for (cl_uint d = 0; d < dimensions; ++d)
        if (global[d] == 0) return;  // nothing to compute
    check_cl(clEnqueueNDRangeKernel(queue_, kernel, dimensions, nullptr, global.data(), local.data(), 0, nullptr,
                                    nullptr),
             "clEnqueueNDRangeKernel");
}

cl_mem Execution::scratch(std::uint64_t bytes) {
    if (bytes == 0) bytes = 1;
    if (bytes > scratch_bytes_) {
        scratch_.reset();
        scratch_bytes_ = 0;
        if (bytes > device_.max_alloc_bytes)
            fail(KCS_OUT_OF_MEMORY, "scratch of " + std::to_string(bytes) + " bytes exceeds the device's largest buffer");
        cl_int error = CL_SUCCESS;
        scratch_ = Memory(clCreateBuffer(context_, CL_MEM_READ_WRITE, static_cast<std::size_t>(bytes), nullptr, &error));
        check_cl(error, "clCreateBuffer (scratch)");
        scratch_bytes_ = bytes;
    }
    return scratch_.get();
}

cl_mem Execution::flag() {
    if (!flag_) {
        cl_int error = CL_SUCCESS;
        flag_ = Memory(clCreateBuffer(context_, CL_MEM_READ_WRITE, sizeof(cl_int), nullptr, &error));
        check_cl(error, "clCreateBuffer (flag)");
    }
    return flag_.get();
}

}  // namespace kcs::opencl
