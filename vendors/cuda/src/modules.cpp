#include "modules.hpp"

#include <utility>

#include "adapter_failure.hpp"
#include "compiler.hpp"
#include "cuda_device.hpp"

namespace kcs::cuda {

ModuleLibrary::ModuleLibrary(std::string architecture, FloatControls controls, std::string include_dir)
    : architecture_(std::move(architecture)), controls_(controls), include_dir_(std::move(include_dir)) {}

ModuleLibrary::~ModuleLibrary() {
    for (auto& [family, module] : modules_) cudaLibraryUnload(module.library);
}

ModuleLibrary::Module& ModuleLibrary::module(Family family) {
    const auto found = modules_.find(family);
    if (found != modules_.end()) return found->second;
    const CompiledModule compiled = compile(family, architecture_, controls_, include_dir_);
    Module loaded;
    check_cuda(cudaLibraryLoadData(&loaded.library, compiled.image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
               (std::string("cudaLibraryLoadData (") + name_of(family) + ")").c_str());
    for (const auto& [expression, lowered] : compiled.lowered) {
        cudaKernel_t kernel = nullptr;
        const cudaError_t error = cudaLibraryGetKernel(&kernel, loaded.library, lowered.c_str());
        if (error != cudaSuccess) cudaLibraryUnload(loaded.library);
        check_cuda(error, ("cudaLibraryGetKernel " + expression).c_str());
        loaded.kernels.emplace(expression, kernel);
    }
    return modules_.emplace(family, std::move(loaded)).first->second;
}

cudaKernel_t ModuleLibrary::kernel(Family family, const std::string& expression) {
    const Module& found = module(family);
    const auto kernel = found.kernels.find(expression);
    if (kernel == found.kernels.end())
        device::fail(KCS_UNSUPPORTED, "no kernel " + expression + " in the " + name_of(family) + " module");
    return kernel->second;
}

}  // namespace kcs::cuda
