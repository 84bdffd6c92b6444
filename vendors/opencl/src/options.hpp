// The options of open(), each key=value, each at most once:
//   platform=N|TEXT    the platform by index (clGetPlatformIDs order) or by a
//                      substring of its name or vendor; default: the first
//                      platform that has a device
//   device=N|TEXT      the device by index within the platform, or by a
//                      substring of its name; default: the platform's first
//   build_options=TEXT passed to clBuildProgram as they are
//                      (e.g. -cl-fast-relaxed-math, -cl-denorms-are-zero)
//   local_size=N       work-group size of the row reductions (reduce_sum,
//                      reduce_max, softmax, the norms, attention): a power of
//                      two; default: 256, or less where the device or the
//                      kernel allows less
//   cache_dir=PATH     where program binaries are kept; "none" keeps none.
//                      Default: $KCS_OPENCL_CACHE_DIR, else
//                      $XDG_CACHE_HOME/kcs/opencl, else ~/.cache/kcs/opencl
// Anything else is refused with KCS_INVALID_ARGUMENT.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace kcs::opencl {

struct Options {
    std::string platform;  // empty: the first platform with a device
    std::string device;    // empty: the first device
    std::string build_options;
    std::size_t local_size = 0;  // 0: the adapter's choice
    std::optional<std::filesystem::path> cache_dir;  // nullopt: no cache
};

// The row kernels run 16 virtual work-items per work-item (kernels/common.cl,
// lanes), so the reduction's local size is at least 16.
inline constexpr std::size_t kMinLocalSize = 16;
inline constexpr std::size_t kMaxLocalSize = 4096;

Options parse_options(const char* const* options, std::uint32_t option_count);

// The cache folder when no cache_dir= is given, from the environment.
std::optional<std::filesystem::path> default_cache_dir();

}  // namespace kcs::opencl
