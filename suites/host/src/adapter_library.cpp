#include "kcs/host/adapter_library.hpp"

#include <dlfcn.h>

#include <array>
#include <fstream>
#include <string>
#include <utility>

#include "kcs/host/adapter_error.hpp"

namespace kcs::host {

namespace {

namespace fs = std::filesystem;

// dlerror's text, less the "PATH: " it usually starts with: the message
// names the path already.
std::string last_dl_error(const fs::path& opened) {
    const char* e = ::dlerror();
    std::string text = e ? e : "unknown dynamic loader error";
    const auto prefix = opened.string() + ": ";
    if (text.starts_with(prefix)) text.erase(0, prefix.size());
    return text;
}

bool starts_like_elf(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::array<char, 4> magic{};
    return in.read(magic.data(), magic.size()) && magic == std::array<char, 4>{'\x7f', 'E', 'L', 'F'};
}

// The checks that need nothing but the file system, so that their
// messages do not depend on the dynamic loader's wording.
void check_file(const fs::path& path) {
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (status.type() == fs::file_type::not_found) throw AdapterError(path, AdapterProblem::not_found, "no such file");
    if (ec) throw AdapterError(path, AdapterProblem::not_found, "cannot access: " + ec.message());
    if (status.type() == fs::file_type::directory)
        throw AdapterError(path, AdapterProblem::not_a_library, "is a directory, not a shared library");
}

// KCS-ABI-2: the version the adapter answers to this harness's newest, or
// 1.0 for an adapter without the handshake.
std::uint32_t negotiate(const fs::path& path, void* handle) {
    void* symbol = ::dlsym(handle, KCS_ADAPTER_NEGOTIATE_SYMBOL);
    if (!symbol) return KCS_ADAPTER_ABI_VERSION_1_0;
    std::uint32_t version = KCS_ADAPTER_ABI_VERSION;
    const kcs_status answer = reinterpret_cast<kcs_adapter_negotiate_fn>(symbol)(&version);
    const std::string speaks = "kcs speaks ABI " + abi_version_text(KCS_ADAPTER_ABI_VERSION_1_0) + " to " +
                               abi_version_text(KCS_ADAPTER_ABI_VERSION);
    if (answer != KCS_OK)
        throw AdapterError(path, AdapterProblem::abi_version,
                           "implements ABI " + abi_version_text(version) + " and later only; " + speaks);
    if (!harness_speaks(version))
        throw AdapterError(path, AdapterProblem::abi_version,
                           "answered ABI " + abi_version_text(version) + " to the offer of " +
                               abi_version_text(KCS_ADAPTER_ABI_VERSION) + "; " + speaks);
    return version;
}

void check_table(const fs::path& path, const kcs_adapter_api* api, std::uint32_t version) {
    const std::string entry = "kcs_adapter_entry(" + std::to_string(version) + ")";
    if (!api)
        throw AdapterError(path, AdapterProblem::no_table,
                           entry + " returned NULL: the adapter does not implement ABI " + abi_version_text(version) +
                               (version == KCS_ADAPTER_ABI_VERSION_1_0 ? " (it exports no " KCS_ADAPTER_NEGOTIATE_SYMBOL
                                                                         ", so kcs asked for 1.0)"
                                                                       : ", which it negotiated"));
    // abi_version and struct_size are the table's first fields in every
    // version, so reading them is safe before the size is known.
    if (api->abi_version != version)
        throw AdapterError(path, AdapterProblem::abi_version,
                           "its table implements ABI " + abi_version_text(api->abi_version) + ", but " + entry +
                               " asked for " + abi_version_text(version));
    // 1.0 and 1.1 have the same table.
    if (api->struct_size < sizeof(kcs_adapter_api))
        throw AdapterError(path, AdapterProblem::table_size,
                           "function table is " + std::to_string(api->struct_size) + " bytes, ABI " +
                               abi_version_text(version) + " needs " + std::to_string(sizeof(kcs_adapter_api)));
    const std::pair<const char*, bool> functions[] = {
        {"open", api->open != nullptr},       {"close", api->close != nullptr},
        {"info", api->info != nullptr},       {"supports", api->supports != nullptr},
        {"alloc", api->alloc != nullptr},     {"release", api->release != nullptr},
        {"write", api->write != nullptr},     {"read", api->read != nullptr},
        {"run", api->run != nullptr},         {"last_error", api->last_error != nullptr},
    };
    for (const auto& [name, present] : functions)
        if (!present)
            throw AdapterError(path, AdapterProblem::incomplete_table,
                               std::string("function table has no '") + name + "' (a NULL pointer)");
    if (!api->name || !*api->name)
        throw AdapterError(path, AdapterProblem::incomplete_table, "function table has an empty name");
}

}  // namespace

std::string abi_version_text(std::uint32_t version) {
    if (version == KCS_ADAPTER_ABI_VERSION_1_0) return "1.0";
    if (version < (1u << 16)) return "value " + std::to_string(version) + " (no version)";
    return std::to_string(version >> 16) + "." + std::to_string(version & 0xFFFFu);
}

bool harness_speaks(std::uint32_t version) {
    return version == KCS_ADAPTER_ABI_VERSION_1_0 || version == KCS_ADAPTER_ABI_VERSION_1_1;
}

AdapterLibrary AdapterLibrary::load(const fs::path& path) {
    check_file(path);
    // RTLD_NODELETE: device drivers often register exit handlers and
    // threads; unloading them before the process ends is asking for a crash.
    // An absolute path: dlopen would search the system's library folders
    // for a bare file name instead of taking the file the user named.
    const auto absolute = fs::absolute(path);
    void* handle = ::dlopen(absolute.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
    if (!handle) {
        const auto why = last_dl_error(absolute);
        if (!starts_like_elf(path))
            throw AdapterError(path, AdapterProblem::not_a_library, "not a shared library (" + why + ")");
        throw AdapterError(path, AdapterProblem::cannot_load, "cannot be loaded: " + why);
    }
    ::dlerror();
    void* entry = ::dlsym(handle, KCS_ADAPTER_ENTRY_SYMBOL);
    if (!entry) {
        ::dlclose(handle);
        throw AdapterError(path, AdapterProblem::no_entry_symbol,
                           "no symbol " KCS_ADAPTER_ENTRY_SYMBOL
                           " (an adapter exports it with KCS_ADAPTER_EXPORT, see kcs/adapter.h)");
    }
    try {
        const std::uint32_t version = negotiate(path, handle);
        const auto* api = reinterpret_cast<kcs_adapter_entry_fn>(entry)(version);
        check_table(path, api, version);
        return AdapterLibrary(path, handle, api);
    } catch (...) {
        ::dlclose(handle);
        throw;
    }
}

AdapterLibrary::AdapterLibrary(fs::path path, void* handle, const kcs_adapter_api* api)
    : path_(std::move(path)), handle_(handle), api_(api) {}

AdapterLibrary::AdapterLibrary(AdapterLibrary&& other) noexcept
    : path_(std::move(other.path_)),
      handle_(std::exchange(other.handle_, nullptr)),
      api_(std::exchange(other.api_, nullptr)) {}

AdapterLibrary& AdapterLibrary::operator=(AdapterLibrary&& other) noexcept {
    if (this != &other) {
        if (handle_) ::dlclose(handle_);
        path_ = std::move(other.path_);
        handle_ = std::exchange(other.handle_, nullptr);
        api_ = std::exchange(other.api_, nullptr);
    }
    return *this;
}

AdapterLibrary::~AdapterLibrary() {
    if (handle_) ::dlclose(handle_);
}

}  // namespace kcs::host
