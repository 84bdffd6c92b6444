// The options of the CUDA adapter's open(), each key=value, each at most
// once. The float controls are NVRTC's (NVRTC's documentation, "Supported
// Compile Options"); each changes what the kernels compute, so each is an
// option, and info() reports them as built:
//   device=N               the CUDA device (default 0)
//   fast_math=true|false   --use_fast_math: fast intrinsics for expf, logf,
//                          ... and, as nvcc documents it, -ftz=true
//                          -prec-div=false -prec-sqrt=false -fmad=true
//                          (default false)
//   ftz=true|false         -ftz: flush f32 subnormals to zero (default false)
//   prec_div=true|false    -prec-div: IEEE round-to-nearest division (default true)
//   prec_sqrt=true|false   -prec-sqrt: IEEE round-to-nearest sqrt (default true)
//   fmad=true|false        -fmad: contract a * b + c into one fused
//                          multiply-add (default false, as the claims say
//                          fp_contract: off; NVRTC's own default is true)
//   local_size=N           block size of the row reductions, a power of two
//                          (default 256, capped by the kernel's limit)
//   include=PATH           the CUDA headers NVRTC compiles against (cuda_fp16.h);
//                          default: the include folder beside libnvrtc's
// A control that contradicts fast_math=true is refused, as is anything else
// not listed, with KCS_INVALID_ARGUMENT.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kcs::cuda {

struct FloatControls {
    bool fast_math = false;
    bool ftz = false;
    bool prec_div = true;
    bool prec_sqrt = true;
    bool fmad = false;
};

// The NVRTC options that build them: "-ftz=false", ..., and
// "--use_fast_math" first where it is set.
std::vector<std::string> nvrtc_flags(const FloatControls& controls);
// The same, one line: "-ftz=false -prec-div=true -prec-sqrt=true -fmad=false".
std::string describe(const FloatControls& controls);

inline constexpr std::size_t kDefaultLocalSize = 256;
inline constexpr std::size_t kMaxLocalSize = 1024;  // CUDA's threads per block

struct Options {
    std::optional<int> device;
    FloatControls controls;
    std::size_t local_size = kDefaultLocalSize;
    std::string include;  // empty: found beside libnvrtc
};

Options parse_options(const char* const* options, std::uint32_t option_count);

}  // namespace kcs::cuda
