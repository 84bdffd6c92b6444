#include "device.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <vector>

#include "vk_failure.hpp"

namespace kcs::vulkan {

namespace {

std::string version_text(std::uint32_t v) {
    return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v)) + "." +
           std::to_string(VK_API_VERSION_PATCH(v));
}

const char* type_name(VkPhysicalDeviceType type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
        default: return "other";
    }
}

// "Mesa (0x10005)": vendorID is a PCI vendor ID, or one of Khronos's
// VkVendorId values for vendors without one; the number alone means
// nothing to a reader of a report.
std::string vendor_text(std::uint32_t id) {
    const char* name = "";
    switch (id) {
        case 0x1002: name = "AMD"; break;
        case 0x1010: name = "Imagination"; break;
        case 0x106B: name = "Apple"; break;
        case 0x10DE: name = "NVIDIA"; break;
        case 0x13B5: name = "Arm"; break;
        case 0x1AE0: name = "Google"; break;
        case 0x5143: name = "Qualcomm"; break;
        case 0x8086: name = "Intel"; break;
        case VK_VENDOR_ID_VIV: name = "Vivante"; break;
        case VK_VENDOR_ID_VSI: name = "VeriSilicon"; break;
        case VK_VENDOR_ID_KAZAN: name = "Kazan"; break;
        case VK_VENDOR_ID_CODEPLAY: name = "Codeplay"; break;
        case VK_VENDOR_ID_MESA: name = "Mesa"; break;
        case VK_VENDOR_ID_POCL: name = "PoCL"; break;
        default: break;
    }
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%04x", id);
    return *name ? std::string(name) + " (" + hex + ")" : std::string("vendor ") + hex;
}

// Lower is preferred when no device= is given.
int preference(VkPhysicalDeviceType type) {
    switch (type) {
        case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
        case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
        case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
        case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
        default: return 4;
    }
}

VkInstance create_instance() {
    VkApplicationInfo app{VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "kcs";
    app.pEngineName = "kcs-adapter-vulkan";
    app.apiVersion = VK_API_VERSION_1_2;  // a 1.1 device still opens; float controls are then unknown
    VkInstanceCreateInfo info{VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    info.pApplicationInfo = &app;
    VkInstance instance = VK_NULL_HANDLE;
    const VkResult result = vkCreateInstance(&info, nullptr, &instance);
    if (result == VK_ERROR_INCOMPATIBLE_DRIVER)
        fail(KCS_DEVICE_ERROR, "no Vulkan driver is installed (vkCreateInstance: " + vk_result_text(result) + ")");
    check_vk(result, "vkCreateInstance");
    return instance;
}

VkPhysicalDevice choose(VkInstance instance, const std::string& wanted) {
    std::uint32_t count = 0;
    check_vk(vkEnumeratePhysicalDevices(instance, &count, nullptr), "vkEnumeratePhysicalDevices");
    std::vector<VkPhysicalDevice> devices(count);
    check_vk(vkEnumeratePhysicalDevices(instance, &count, devices.data()), "vkEnumeratePhysicalDevices");
    if (devices.empty()) fail(KCS_DEVICE_ERROR, "the Vulkan loader offers no physical device");
    std::vector<VkPhysicalDeviceProperties> properties(count);
    std::string names;
    for (std::uint32_t i = 0; i < count; ++i) {
        vkGetPhysicalDeviceProperties(devices[i], &properties[i]);
        names.append(names.empty() ? "" : ", ").append(std::to_string(i) + ": " + properties[i].deviceName);
    }
    if (wanted.empty()) {
        std::uint32_t best = 0;
        for (std::uint32_t i = 1; i < count; ++i)
            if (preference(properties[i].deviceType) < preference(properties[best].deviceType)) best = i;
        return devices[best];
    }
    std::uint32_t index = 0;
    const auto [end, error] = std::from_chars(wanted.data(), wanted.data() + wanted.size(), index);
    if (error == std::errc() && end == wanted.data() + wanted.size()) {
        if (index >= count) invalid("device=" + wanted + ": there are " + std::to_string(count) + " devices (" + names + ")");
        return devices[index];
    }
    for (std::uint32_t i = 0; i < count; ++i)
        if (std::string(properties[i].deviceName).find(wanted) != std::string::npos) return devices[i];
    invalid("device=" + wanted + ": no device name contains it (" + names + ")");
}

std::uint32_t compute_family(VkPhysicalDevice physical) {
    std::uint32_t count = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, nullptr);
    std::vector<VkQueueFamilyProperties> families(count);
    vkGetPhysicalDeviceQueueFamilyProperties(physical, &count, families.data());
    for (std::uint32_t i = 0; i < count; ++i)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return i;
    fail(KCS_DEVICE_ERROR, "the device has no compute queue");
}

}  // namespace

Device::Device(const Options& options) {
    instance_ = create_instance();
    try {
        physical_ = choose(instance_, options.device);
        VkPhysicalDeviceProperties basic{};
        vkGetPhysicalDeviceProperties(physical_, &basic);
        const bool v12 = basic.apiVersion >= VK_API_VERSION_1_2;

        VkPhysicalDeviceFloatControlsProperties controls{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES};
        VkPhysicalDeviceDriverProperties driver{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES};
        VkPhysicalDeviceProperties2 properties{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2};
        if (v12) {
            properties.pNext = &controls;
            controls.pNext = &driver;
        }
        vkGetPhysicalDeviceProperties2(physical_, &properties);

        VkPhysicalDeviceShaderFloat16Int8Features float16{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
        VkPhysicalDevice16BitStorageFeatures storage{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
        VkPhysicalDeviceFeatures2 features{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2};
        features.pNext = &storage;
        if (v12) storage.pNext = &float16;
        vkGetPhysicalDeviceFeatures2(physical_, &features);

        DeviceDescription& d = description_;
        d.name = basic.deviceName;
        d.type = type_name(basic.deviceType);
        d.api_version = version_text(basic.apiVersion);
        d.driver_version = std::to_string(basic.driverVersion);
        d.vendor = vendor_text(basic.vendorID);
        if (v12) {
            d.driver_name = driver.driverName;
            d.driver_info = driver.driverInfo;
            if (!d.driver_info.empty()) d.driver_version = d.driver_info;
            FloatControls& f = d.float_controls;
            f.known = true;
            f.denorm_preserve_16 = controls.shaderDenormPreserveFloat16;
            f.denorm_preserve_32 = controls.shaderDenormPreserveFloat32;
            f.denorm_flush_16 = controls.shaderDenormFlushToZeroFloat16;
            f.denorm_flush_32 = controls.shaderDenormFlushToZeroFloat32;
            f.signed_zero_inf_nan_preserve_16 = controls.shaderSignedZeroInfNanPreserveFloat16;
            f.signed_zero_inf_nan_preserve_32 = controls.shaderSignedZeroInfNanPreserveFloat32;
            f.rte_16 = controls.shaderRoundingModeRTEFloat16;
            f.rte_32 = controls.shaderRoundingModeRTEFloat32;
            f.rtz_16 = controls.shaderRoundingModeRTZFloat16;
            f.rtz_32 = controls.shaderRoundingModeRTZFloat32;
        }
        d.storage_16bit = storage.storageBuffer16BitAccess;
        d.float16 = v12 && float16.shaderFloat16;
        d.limits = basic.limits;
        vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);

        // Only the features the shaders use are enabled.
        VkPhysicalDeviceShaderFloat16Int8Features enable_float16{
            VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES};
        enable_float16.shaderFloat16 = d.float16;
        VkPhysicalDevice16BitStorageFeatures enable_storage{VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES};
        enable_storage.storageBuffer16BitAccess = d.storage_16bit;
        if (d.float16) enable_storage.pNext = &enable_float16;

        const std::uint32_t family = compute_family(physical_);
        const float priority = 1.0f;
        VkDeviceQueueCreateInfo queue{VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
        queue.queueFamilyIndex = family;
        queue.queueCount = 1;
        queue.pQueuePriorities = &priority;
        VkDeviceCreateInfo create{VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
        create.pNext = &enable_storage;
        create.queueCreateInfoCount = 1;
        create.pQueueCreateInfos = &queue;
        check_vk(vkCreateDevice(physical_, &create, nullptr, &device_), "vkCreateDevice");
        vkGetDeviceQueue(device_, family, 0, &queue_);
        VkCommandPoolCreateInfo pool{VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
        pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
        pool.queueFamilyIndex = family;
        check_vk(vkCreateCommandPool(device_, &pool, nullptr, &pool_), "vkCreateCommandPool");
    } catch (...) {
        release();
        throw;
    }
}

Device::~Device() { release(); }

void Device::release() noexcept {
    if (pool_) vkDestroyCommandPool(device_, pool_, nullptr);
    if (device_) vkDestroyDevice(device_, nullptr);
    if (instance_) vkDestroyInstance(instance_, nullptr);
    pool_ = VK_NULL_HANDLE;
    device_ = VK_NULL_HANDLE;
    instance_ = VK_NULL_HANDLE;
}

int Device::memory_type(std::uint32_t type_bits, VkMemoryPropertyFlags wanted) const {
    for (std::uint32_t i = 0; i < memory_.memoryTypeCount; ++i)
        if ((type_bits & (1u << i)) && (memory_.memoryTypes[i].propertyFlags & wanted) == wanted) return static_cast<int>(i);
    return -1;
}

}  // namespace kcs::vulkan
