// The options of the CLBlast adapter's open(), each key=value, each at most once:
//   platform=N|TEXT   the OpenCL platform and device, chosen as the opencl
//   device=N|TEXT     adapter chooses them (vendors/opencl/src/options.hpp)
//   gemm_kernel=auto|direct|indirect
//                     CLBlast's choice between its two GEMM kernels: auto
//                     is CLBlast's own (the direct kernel below m*n*k =
//                     XGEMM_MIN_INDIRECT_SIZE^3, the indirect one with its
//                     pre- and post-processing from there); direct or
//                     indirect makes every product use that kernel
//                     (OverrideParameters on XGEMM_MIN_INDIRECT_SIZE)
//   build_options=TEXT
//                     CLBlast's CLBLAST_BUILD_OPTIONS: passed to
//                     clBuildProgram beside CLBlast's own (e.g.
//                     -cl-fast-relaxed-math, -cl-denorms-are-zero)
// Anything else is refused with KCS_INVALID_ARGUMENT.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "options.hpp"  // vendors/opencl: the device's options

namespace kcs::clblast_adapter {

enum class GemmKernel { automatic, direct, indirect };
const char* name_of(GemmKernel kernel);  // "auto", "direct", "indirect"

struct Options {
    opencl::Options device;  // platform= and device= only
    GemmKernel gemm_kernel = GemmKernel::automatic;
    std::optional<std::string> build_options;  // nullopt: the environment's CLBLAST_BUILD_OPTIONS, if any
};

Options parse_options(const char* const* options, std::uint32_t option_count);

}  // namespace kcs::clblast_adapter
