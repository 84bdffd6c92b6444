// The field encoding of PROTOCOL.md: fixed-width little-endian integers,
// IEEE doubles by their bits, strings as a u32 length and UTF-8 bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kcs::host {

// A frame or payload that breaks PROTOCOL.md.
class ProtocolError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

class PayloadWriter {
public:
    void u8(std::uint8_t v) { put(v, 1); }
    void u32(std::uint32_t v) { put(v, 4); }
    void i32(std::int32_t v) { put(static_cast<std::uint32_t>(v), 4); }
    void u64(std::uint64_t v) { put(v, 8); }
    void i64(std::int64_t v) { put(static_cast<std::uint64_t>(v), 8); }
    void f64(double v);
    void string(std::string_view s);
    void raw(std::span<const std::byte> bytes) { bytes_.insert(bytes_.end(), bytes.begin(), bytes.end()); }

    std::span<const std::byte> bytes() const noexcept { return bytes_; }

private:
    void put(std::uint64_t v, int width);

    std::vector<std::byte> bytes_;
};

// Reads fields in order; throws ProtocolError past the end.
class PayloadReader {
public:
    explicit PayloadReader(std::span<const std::byte> bytes) : bytes_(bytes) {}

    std::uint8_t u8() { return static_cast<std::uint8_t>(get(1)); }
    std::uint32_t u32() { return static_cast<std::uint32_t>(get(4)); }
    std::int32_t i32() { return static_cast<std::int32_t>(static_cast<std::uint32_t>(get(4))); }
    std::uint64_t u64() { return get(8); }
    std::int64_t i64() { return static_cast<std::int64_t>(get(8)); }
    double f64();
    std::string string();
    // The next n bytes, without copying.
    std::span<const std::byte> take(std::uint64_t n);
    std::span<const std::byte> rest() noexcept { return std::exchange(bytes_, {}); }
    std::size_t remaining() const noexcept { return bytes_.size(); }
    void expect_end() const;

private:
    std::uint64_t get(int width);

    std::span<const std::byte> bytes_;
};

}  // namespace kcs::host
