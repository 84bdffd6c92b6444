// NVRTC, compiling a kernel family (families.hpp) under the float controls
// of the adapter's options (options.hpp). Host code: it needs the CUDA
// toolkit's NVRTC and headers, never a device, so the CPU-side tests
// compile every family here.
#pragma once

#include <map>
#include <string>

#include "families.hpp"
#include "options.hpp"

namespace kcs::cuda {

struct CompiledModule {
    std::string image;                          // a cubin for sm_XY, PTX text for compute_XY
    std::map<std::string, std::string> lowered;  // name expression -> the kernel's mangled name
    std::string log;                             // NVRTC's warnings, if any
};

// Compiles `family` for `architecture` ("sm_90" for a cubin, "compute_90"
// for PTX) with the controls' flags, against the CUDA headers in
// `include_dir`. Throws AdapterFailure (KCS_DEVICE_ERROR) with NVRTC's log.
CompiledModule compile(Family family, const std::string& architecture, const FloatControls& controls,
                       const std::string& include_dir);

// NVRTC's version and the library loaded: "NVRTC 13.0 (libnvrtc.so.13 -> ...)".
std::string nvrtc_description();

// The folder of CUDA headers NVRTC compiles against: `given` if it holds
// cuda_fp16.h, else the include folder beside the libnvrtc in use, else
// the toolkit's the adapter was built with. Throws AdapterFailure
// (KCS_DEVICE_ERROR, or KCS_INVALID_ARGUMENT for a `given` without it)
// naming the folders tried.
std::string cuda_include_dir(const std::string& given);

}  // namespace kcs::cuda
