#include "device.hpp"

#include <charconv>
#include <mutex>
#include <optional>
#include <string_view>
#include <vector>

namespace kcs::opencl {

namespace {

std::string platform_text(cl_platform_id platform, cl_platform_info what) {
    std::size_t size = 0;
    if (clGetPlatformInfo(platform, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
    std::string text(size, '\0');
    if (clGetPlatformInfo(platform, what, size, text.data(), nullptr) != CL_SUCCESS) return "";
    text.resize(text.find('\0') == std::string::npos ? size : text.find('\0'));
    return text;
}

std::string device_text(cl_device_id device, cl_device_info what) {
    std::size_t size = 0;
    if (clGetDeviceInfo(device, what, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "";
    std::string text(size, '\0');
    if (clGetDeviceInfo(device, what, size, text.data(), nullptr) != CL_SUCCESS) return "";
    text.resize(text.find('\0') == std::string::npos ? size : text.find('\0'));
    return text;
}

template <typename T>
T device_value(cl_device_id device, cl_device_info what) {
    T value{};
    if (clGetDeviceInfo(device, what, sizeof(T), &value, nullptr) != CL_SUCCESS) return T{};
    return value;
}

std::vector<cl_platform_id> platforms() {
    cl_uint count = 0;
    const cl_int error = clGetPlatformIDs(0, nullptr, &count);
    if (error == -1001 /* CL_PLATFORM_NOT_FOUND_KHR */ || count == 0)
        fail(KCS_DEVICE_ERROR,
             "no OpenCL platform found: the ICD loader lists no driver (install one, e.g. Debian's "
             "pocl-opencl-icd for the CPU, and check /etc/OpenCL/vendors)");
    check_cl(error, "clGetPlatformIDs");
    std::vector<cl_platform_id> ids(count);
    check_cl(clGetPlatformIDs(count, ids.data(), nullptr), "clGetPlatformIDs");
    return ids;
}

std::vector<cl_device_id> devices(cl_platform_id platform) {
    cl_uint count = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS || count == 0) return {};
    std::vector<cl_device_id> ids(count);
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr) != CL_SUCCESS) return {};
    return ids;
}

std::optional<std::size_t> as_index(std::string_view text) {
    std::size_t n = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), n);
    if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return n;
}

// "0: Portable Computing Language (1 device), 1: ...", for messages.
std::string platform_list(const std::vector<cl_platform_id>& ids) {
    std::string text;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        text.append(i ? ", " : "").append(std::to_string(i)).append(": ").append(platform_text(ids[i], CL_PLATFORM_NAME));
        text.append(" (").append(std::to_string(devices(ids[i]).size())).append(" device(s))");
    }
    return text;
}

std::string device_list(const std::vector<cl_device_id>& ids) {
    std::string text;
    for (std::size_t i = 0; i < ids.size(); ++i)
        text.append(i ? ", " : "").append(std::to_string(i)).append(": ").append(device_text(ids[i], CL_DEVICE_NAME));
    return text;
}

cl_platform_id choose_platform(const std::vector<cl_platform_id>& ids, const std::string& wanted) {
    if (wanted.empty()) {
        for (cl_platform_id id : ids)
            if (!devices(id).empty()) return id;
        fail(KCS_DEVICE_ERROR, "no OpenCL device found on any platform (" + platform_list(ids) + ")");
    }
    if (const auto index = as_index(wanted)) {
        if (*index < ids.size()) return ids[*index];
        fail(KCS_INVALID_ARGUMENT, "platform=" + wanted + ": there are " + std::to_string(ids.size()) +
                                       " platform(s): " + platform_list(ids));
    }
    for (cl_platform_id id : ids)
        if (platform_text(id, CL_PLATFORM_NAME).find(wanted) != std::string::npos ||
            platform_text(id, CL_PLATFORM_VENDOR).find(wanted) != std::string::npos)
            return id;
    fail(KCS_INVALID_ARGUMENT, "platform=" + wanted + ": no platform's name or vendor contains it (" +
                                   platform_list(ids) + ")");
}

cl_device_id choose_device(cl_platform_id platform, const std::string& wanted) {
    const auto ids = devices(platform);
    const std::string where = " on platform " + platform_text(platform, CL_PLATFORM_NAME);
    if (ids.empty()) fail(KCS_DEVICE_ERROR, "no OpenCL device" + where);
    if (wanted.empty()) return ids.front();
    if (const auto index = as_index(wanted)) {
        if (*index < ids.size()) return ids[*index];
        fail(KCS_INVALID_ARGUMENT, "device=" + wanted + ": there are " + std::to_string(ids.size()) + " device(s)" +
                                       where + ": " + device_list(ids));
    }
    for (cl_device_id id : ids)
        if (device_text(id, CL_DEVICE_NAME).find(wanted) != std::string::npos) return id;
    fail(KCS_INVALID_ARGUMENT, "device=" + wanted + ": no device's name contains it" + where + " (" +
                                   device_list(ids) + ")");
}

// PoCL 3.1 crashes when two threads query device strings at once
// (clGetDeviceInfo, inside its string copy; FINDINGS.md), although OpenCL
// makes these calls thread-safe. Two instances opened from two threads
// (adapter.h allows it) take turns here; nothing else is serialised.
std::mutex& discovery_mutex() {
    static std::mutex mutex;
    return mutex;
}

}  // namespace

SelectedDevice select_device(const Options& options) {
    const std::lock_guard lock(discovery_mutex());
    const auto ids = platforms();
    SelectedDevice selected;
    selected.platform = choose_platform(ids, options.platform);
    selected.device = choose_device(selected.platform, options.device);
    return selected;
}

DeviceDescription describe_device(const SelectedDevice& selected) {
    const std::lock_guard lock(discovery_mutex());
    const cl_device_id device = selected.device;
    DeviceDescription d;
    d.platform_name = platform_text(selected.platform, CL_PLATFORM_NAME);
    d.platform_version = platform_text(selected.platform, CL_PLATFORM_VERSION);
    d.vendor = device_text(device, CL_DEVICE_VENDOR);
    d.name = device_text(device, CL_DEVICE_NAME);
    d.driver_version = device_text(device, CL_DRIVER_VERSION);
    d.device_version = device_text(device, CL_DEVICE_VERSION);
    d.c_version = device_text(device, CL_DEVICE_OPENCL_C_VERSION);
    d.extensions = device_text(device, CL_DEVICE_EXTENSIONS);
    d.has_fp16 = (" " + d.extensions + " ").find(" cl_khr_fp16 ") != std::string::npos;
    const auto fp_config = device_value<cl_device_fp_config>(device, CL_DEVICE_SINGLE_FP_CONFIG);
    d.has_denormals = (fp_config & CL_FP_DENORM) != 0;
    d.has_fma = (fp_config & CL_FP_FMA) != 0;
    d.rounds_divide_sqrt = (fp_config & CL_FP_CORRECTLY_ROUNDED_DIVIDE_SQRT) != 0;
    d.max_work_group_size = device_value<std::size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    d.max_alloc_bytes = device_value<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    d.local_memory_bytes = device_value<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
    if (d.max_work_group_size == 0) d.max_work_group_size = 1;
    return d;
}

OpenDevice open_device(const Options& options) {
    OpenDevice opened;
    opened.selected = select_device(options);
    opened.description = describe_device(opened.selected);
    cl_int error = CL_SUCCESS;
    const cl_context_properties properties[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(opened.selected.platform), 0};
    opened.context = Context(clCreateContext(properties, 1, &opened.selected.device, nullptr, nullptr, &error));
    check_cl(error, "clCreateContext");
    opened.queue = Queue(clCreateCommandQueue(opened.context.get(), opened.selected.device, 0, &error));
    check_cl(error, "clCreateCommandQueue");
    return opened;
}

}  // namespace kcs::opencl
