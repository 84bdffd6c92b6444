#include "compiler.hpp"

#include <dlfcn.h>
#include <nvrtc.h>

#include <filesystem>
#include <memory>
#include <vector>

#include "adapter_failure.hpp"
#include "shared_object.hpp"

namespace kcs::cuda {

namespace {

struct ProgramDeleter {
    void operator()(_nvrtcProgram* program) const { nvrtcDestroyProgram(&program); }
};
using Program = std::unique_ptr<_nvrtcProgram, ProgramDeleter>;

void check_nvrtc(nvrtcResult result, const char* call, const std::string& log = "") {
    if (result == NVRTC_SUCCESS) return;
    std::string message = std::string(call) + " returns " + nvrtcGetErrorString(result);
    if (!log.empty()) message.append("\nNVRTC log:\n").append(log.substr(0, 4000));
    device::fail(KCS_DEVICE_ERROR, message);
}

std::string program_log(nvrtcProgram program) {
    std::size_t size = 0;
    if (nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size <= 1) return {};
    std::string log(size, '\0');
    nvrtcGetProgramLog(program, log.data());
    log.resize(size - 1);  // the terminating NUL
    return log;
}

bool has_headers(const std::filesystem::path& folder) {
    std::error_code error;
    return std::filesystem::is_regular_file(folder / "cuda_fp16.h", error);
}

}  // namespace

CompiledModule compile(Family family, const std::string& architecture, const FloatControls& controls,
                       const std::string& include_dir) {
    const std::string source = module_source(family);
    const std::string file = std::string(name_of(family)) + ".cu";
    nvrtcProgram raw = nullptr;
    check_nvrtc(nvrtcCreateProgram(&raw, source.c_str(), file.c_str(), 0, nullptr, nullptr), "nvrtcCreateProgram");
    const Program program(raw);
    const std::vector<std::string> names = name_expressions(family);
    for (const std::string& name : names)
        check_nvrtc(nvrtcAddNameExpression(raw, name.c_str()), "nvrtcAddNameExpression");

    std::vector<std::string> flags{"--gpu-architecture=" + architecture, "-std=c++17", "-I" + include_dir};
    for (std::string& flag : nvrtc_flags(controls)) flags.push_back(std::move(flag));
    std::vector<const char*> pointers;
    for (const std::string& flag : flags) pointers.push_back(flag.c_str());

    CompiledModule compiled;
    const nvrtcResult result = nvrtcCompileProgram(raw, static_cast<int>(pointers.size()), pointers.data());
    compiled.log = program_log(raw);
    check_nvrtc(result, ("nvrtcCompileProgram (" + file + ", " + describe(controls) + ")").c_str(), compiled.log);

    const bool ptx = architecture.rfind("compute_", 0) == 0;
    std::size_t size = 0;
    check_nvrtc(ptx ? nvrtcGetPTXSize(raw, &size) : nvrtcGetCUBINSize(raw, &size), "nvrtcGet*Size");
    compiled.image.resize(size);
    check_nvrtc(ptx ? nvrtcGetPTX(raw, compiled.image.data()) : nvrtcGetCUBIN(raw, compiled.image.data()),
                "nvrtcGetPTX/CUBIN");
    for (const std::string& name : names) {
        const char* lowered = nullptr;
        check_nvrtc(nvrtcGetLoweredName(raw, name.c_str(), &lowered), "nvrtcGetLoweredName");
        compiled.lowered.emplace(name, lowered);
    }
    return compiled;
}

std::string nvrtc_description() {
    int major = 0, minor = 0;
    check_nvrtc(nvrtcVersion(&major, &minor), "nvrtcVersion");
    return "NVRTC " + std::to_string(major) + "." + std::to_string(minor) + " (" +
           device::shared_object_of(reinterpret_cast<const void*>(&nvrtcVersion)) + ")";
}

std::string cuda_include_dir(const std::string& given) {
    if (!given.empty()) {
        if (!has_headers(given)) device::invalid("include=" + given + ": no cuda_fp16.h there");
        return given;
    }
    std::vector<std::filesystem::path> tried;
    Dl_info info{};
    if (dladdr(reinterpret_cast<const void*>(&nvrtcVersion), &info) && info.dli_fname) {
        // libnvrtc.so.13 in lib/ or lib64/ beside include/, the link or its target.
        const std::filesystem::path loaded(info.dli_fname);
        std::error_code error;
        const std::filesystem::path resolved = std::filesystem::canonical(loaded, error);
        tried.push_back(loaded.parent_path().parent_path() / "include");
        if (!error) tried.push_back(resolved.parent_path().parent_path() / "include");
    }
    tried.emplace_back(KCS_CUDA_INCLUDE_DIR);  // the toolkit the adapter was built with
    std::string list;
    for (const std::filesystem::path& folder : tried) {
        if (has_headers(folder)) return folder.string();
        list.append(list.empty() ? "" : ", ").append(folder.string());
    }
    device::fail(KCS_DEVICE_ERROR, "no CUDA headers (cuda_fp16.h) for NVRTC in " + list + "; give include=PATH");
}

}  // namespace kcs::cuda
