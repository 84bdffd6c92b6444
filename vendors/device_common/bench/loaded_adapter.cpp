#include "loaded_adapter.hpp"

#include <dlfcn.h>

#include <stdexcept>

namespace kcs::device::bench {

LoadedAdapter::LoadedAdapter(const char* path, const std::vector<std::string>& options)
    : library_(dlopen(path, RTLD_NOW | RTLD_LOCAL)) {
    if (!library_) throw std::runtime_error(dlerror());
    const auto entry = reinterpret_cast<kcs_adapter_entry_fn>(dlsym(library_, KCS_ADAPTER_ENTRY_SYMBOL));
    if (!entry || !(api_ = entry(KCS_ADAPTER_ABI_VERSION))) {
        dlclose(library_);
        throw std::runtime_error(std::string(path) + ": no adapter entry");
    }
    std::vector<const char*> raw;
    for (const std::string& option : options) raw.push_back(option.c_str());
    if (api_->open(raw.data(), static_cast<std::uint32_t>(raw.size()), &adapter_) != KCS_OK) {
        const std::string why = api_->last_error(nullptr) ? api_->last_error(nullptr) : "open failed";
        dlclose(library_);
        throw std::runtime_error(why);
    }
}

LoadedAdapter::~LoadedAdapter() {
    for (const kcs_buffer b : buffers_) api_->release(adapter_, b);
    api_->close(adapter_);
    dlclose(library_);
}

void LoadedAdapter::check(kcs_status status, const char* what) const {
    if (status == KCS_OK) return;
    const char* why = api_->last_error(adapter_);
    throw std::runtime_error(std::string(what) + ": " + (why ? why : "failed"));
}

kcs_buffer LoadedAdapter::alloc(std::uint64_t bytes) {
    kcs_buffer buffer = 0;
    check(api_->alloc(adapter_, bytes, &buffer), "alloc");
    buffers_.push_back(buffer);
    return buffer;
}

void LoadedAdapter::write(kcs_buffer buffer, const void* data, std::uint64_t bytes) {
    check(api_->write(adapter_, buffer, 0, data, bytes), "write");
}

void LoadedAdapter::read(kcs_buffer buffer, void* data, std::uint64_t bytes) {
    check(api_->read(adapter_, buffer, 0, data, bytes), "read");
}

void LoadedAdapter::run(const kcs_op& op) { check(api_->run(adapter_, &op), "run"); }

kcs_buffer LoadedAdapter::filled(std::uint64_t count, float value) {
    const kcs_buffer buffer = alloc(count * 4);
    const std::vector<float> values(count, value);
    write(buffer, values.data(), count * 4);
    return buffer;
}

}  // namespace kcs::device::bench
