#include "kcs/host/shared_bytes.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <string>
#include <system_error>
#include <utility>

#include "shared_regions.hpp"

namespace kcs::host {

namespace {

std::uint64_t whole_pages(std::uint64_t bytes) {
    const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    return bytes == 0 ? page : (bytes + page - 1) / page * page;
}

[[noreturn]] void fail(const char* what, std::uint64_t bytes) {
    throw std::system_error(errno, std::generic_category(),
                            std::string("shared region of ") + std::to_string(bytes) + " bytes: " + what);
}

std::uintptr_t address(const std::byte* p) { return reinterpret_cast<std::uintptr_t>(p); }

}  // namespace

// ---- the table ---------------------------------------------------------------

std::uint64_t SharedRegionTable::add(const std::byte* base, SharedRegion region) {
    region.id = next_id_++;
    const auto id = region.id;
    regions_.emplace(address(base), std::move(region));
    return id;
}

void SharedRegionTable::remove(const std::byte* base) {
    const auto it = regions_.find(address(base));
    if (it == regions_.end()) return;
    if (it->second.mapped_generation != 0) unmaps_.emplace_back(it->second.id, it->second.mapped_generation);
    regions_.erase(it);
}

std::optional<RegionSpan> SharedRegionTable::find(const std::byte* data, std::uint64_t size, bool worker_writes) {
    if (size == 0 || regions_.empty()) return std::nullopt;
    const std::uintptr_t begin = address(data);
    auto it = regions_.upper_bound(begin);  // the first region starting after `data`
    if (it == regions_.begin()) return std::nullopt;
    --it;
    SharedRegion& region = it->second;
    const std::uint64_t offset = begin - it->first;
    // Written so that nothing overflows: offset < region.size, then size <= the rest.
    if (offset >= region.size || size > region.size - offset) return std::nullopt;
    if (worker_writes && region.access != WorkerAccess::read_write) return std::nullopt;
    return RegionSpan{&region, offset};
}

SharedRegion* SharedRegionTable::by_id(std::uint64_t id) {
    for (auto& [base, region] : regions_)
        if (region.id == id) return &region;
    return nullptr;
}

// ---- SharedBytes ---------------------------------------------------------------

SharedBytes::SharedBytes(std::shared_ptr<SharedRegionTable> table, std::uint64_t size, WorkerAccess access)
    : size_(size), mapped_(whole_pages(size)), access_(access) {
    // Sealing is what makes read_only and the size hold against the worker.
    UniqueFd memfd(::memfd_create("kcs-shared-region", MFD_CLOEXEC | MFD_ALLOW_SEALING));
    if (!memfd) fail("memfd_create", size);
    if (::ftruncate(memfd.get(), static_cast<off_t>(mapped_)) != 0) fail("ftruncate", size);
    void* p = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE, MAP_SHARED, memfd.get(), 0);
    if (p == MAP_FAILED) fail("mmap", size);
    // No shrinking (the harness's own accesses would fault), no growing, and
    // for read_only no writable mapping anywhere but the one just made.
    int seals = F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL;
    if (access == WorkerAccess::read_only) seals |= F_SEAL_FUTURE_WRITE;
    if (::fcntl(memfd.get(), F_ADD_SEALS, seals) != 0) {
        const int error = errno;
        ::munmap(p, mapped_);
        errno = error;
        fail("sealing the memfd", size);
    }
    data_ = static_cast<std::byte*>(p);
    SharedRegion region;
    region.memfd = std::move(memfd);
    region.size = size_;
    region.mapped = mapped_;
    region.access = access;
    id_ = table->add(data_, std::move(region));
    table_ = std::move(table);
}

SharedBytes::SharedBytes(SharedBytes&& other) noexcept
    : table_(std::move(other.table_)),
      id_(std::exchange(other.id_, 0)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      mapped_(std::exchange(other.mapped_, 0)),
      access_(other.access_) {}

SharedBytes& SharedBytes::operator=(SharedBytes&& other) noexcept {
    if (this != &other) {
        reset();
        table_ = std::move(other.table_);
        id_ = std::exchange(other.id_, 0);
        data_ = std::exchange(other.data_, nullptr);
        size_ = std::exchange(other.size_, 0);
        mapped_ = std::exchange(other.mapped_, 0);
        access_ = other.access_;
    }
    return *this;
}

SharedBytes::~SharedBytes() { reset(); }

void SharedBytes::resize_within_pages(std::uint64_t size) {
    if (size > mapped_) throw std::logic_error("a shared region of " + std::to_string(mapped_) +
                                               " mapped bytes cannot serve " + std::to_string(size));
    size_ = size;
    if (SharedRegion* region = table_->by_id(id_)) region->size = size;
}

void SharedBytes::reset() noexcept {
    if (table_) table_->remove(data_);
    if (data_) ::munmap(data_, mapped_);
    table_.reset();
    id_ = 0;
    data_ = nullptr;
    size_ = mapped_ = 0;
}

}  // namespace kcs::host
