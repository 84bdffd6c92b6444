// The options of open(), each key=value, each at most once:
//   device=N|TEXT     the physical device by index (vkEnumeratePhysicalDevices
//                     order) or by a substring of its name; default: the
//                     first discrete GPU, else integrated, virtual, CPU, other
//   local_size=N      work-group size of the row reductions (reduce_sum,
//                     reduce_max, softmax, the norms, attention): a power of
//                     two; default 256, or less where the device allows less
//   memory=auto|staged  auto: buffers in memory that is device-local and
//                     host-visible where the device has it (mapped, no
//                     copies), else device-local with a staging buffer;
//                     staged: always device-local with staging
// The kernels reduce through shared memory, not subgroup operations, so the
// subgroup size does not change any result and has no option.
// Anything else is refused with KCS_INVALID_ARGUMENT.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kcs::vulkan {

struct Options {
    std::string device;          // empty: by device type
    std::size_t local_size = 0;  // 0: the adapter's choice
    bool always_staged = false;
};

inline constexpr std::size_t kMaxLocalSize = 1024;

Options parse_options(const char* const* options, std::uint32_t option_count);

}  // namespace kcs::vulkan
