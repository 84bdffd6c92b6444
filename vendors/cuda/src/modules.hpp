// The adapter's kernels on its device: each family's module compiled by
// NVRTC on first use (compiler.hpp) for the device's own architecture
// (sm_XY, a cubin: nothing is left to the driver's JIT) under the
// instance's float controls, loaded with cudaLibraryLoadData, and its
// kernels looked up by name expression. Unloaded with the instance.
#pragma once

#include <cuda_runtime_api.h>

#include <map>
#include <string>

#include "families.hpp"
#include "options.hpp"

namespace kcs::cuda {

class ModuleLibrary {
public:
    ModuleLibrary(std::string architecture, FloatControls controls, std::string include_dir);
    ModuleLibrary(const ModuleLibrary&) = delete;
    ModuleLibrary& operator=(const ModuleLibrary&) = delete;
    ~ModuleLibrary();

    // The kernel of `expression` (families.hpp) in the family's module.
    cudaKernel_t kernel(Family family, const std::string& expression);

private:
    struct Module {
        cudaLibrary_t library = nullptr;
        std::map<std::string, cudaKernel_t> kernels;  // by name expression
    };
    Module& module(Family family);

    std::string architecture_;
    FloatControls controls_;
    std::string include_dir_;
    std::map<Family, Module> modules_;
};

}  // namespace kcs::cuda
