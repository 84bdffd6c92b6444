// Owning wrappers of OpenCL objects: one release per object, on destruction.
#pragma once

#include <utility>

#include "failure.hpp"

namespace kcs::opencl {

template <typename T, cl_int (*Release)(T)>
class ClHandle {
public:
    ClHandle() = default;
    explicit ClHandle(T object) : object_(object) {}
    ~ClHandle() { reset(); }
    ClHandle(ClHandle&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
    ClHandle& operator=(ClHandle&& other) noexcept {
        if (this != &other) {
            reset();
            object_ = std::exchange(other.object_, nullptr);
        }
        return *this;
    }
    ClHandle(const ClHandle&) = delete;
    ClHandle& operator=(const ClHandle&) = delete;

    T get() const { return object_; }
    explicit operator bool() const { return object_ != nullptr; }
    void reset() {
        if (object_) Release(object_);
        object_ = nullptr;
    }

private:
    T object_ = nullptr;
};

using Context = ClHandle<cl_context, clReleaseContext>;
using Queue = ClHandle<cl_command_queue, clReleaseCommandQueue>;
using Memory = ClHandle<cl_mem, clReleaseMemObject>;
using Program = ClHandle<cl_program, clReleaseProgram>;
using Kernel = ClHandle<cl_kernel, clReleaseKernel>;

}  // namespace kcs::opencl
