#include "payload_codec.hpp"

#include <bit>
#include <utility>

namespace kcs::host {

void PayloadWriter::put(std::uint64_t v, int width) {
    for (int i = 0; i < width; ++i) bytes_.push_back(static_cast<std::byte>(v >> (8 * i)));
}

void PayloadWriter::f64(double v) { u64(std::bit_cast<std::uint64_t>(v)); }

void PayloadWriter::string(std::string_view s) {
    if (s.size() > UINT32_MAX) throw std::length_error("string too long for the worker protocol");
    u32(static_cast<std::uint32_t>(s.size()));
    const auto* p = reinterpret_cast<const std::byte*>(s.data());
    bytes_.insert(bytes_.end(), p, p + s.size());
}

std::uint64_t PayloadReader::get(int width) {
    const auto field = take(static_cast<std::uint64_t>(width));
    std::uint64_t v = 0;
    for (int i = 0; i < width; ++i) v |= std::to_integer<std::uint64_t>(field[static_cast<std::size_t>(i)]) << (8 * i);
    return v;
}

double PayloadReader::f64() { return std::bit_cast<double>(u64()); }

std::string PayloadReader::string() {
    const auto size = u32();
    const auto chars = take(size);
    return {reinterpret_cast<const char*>(chars.data()), chars.size()};
}

std::span<const std::byte> PayloadReader::take(std::uint64_t n) {
    if (n > bytes_.size())
        throw ProtocolError("payload ends early: " + std::to_string(n) + " bytes wanted, " +
                            std::to_string(bytes_.size()) + " left");
    const auto field = bytes_.first(static_cast<std::size_t>(n));
    bytes_ = bytes_.subspan(static_cast<std::size_t>(n));
    return field;
}

void PayloadReader::expect_end() const {
    if (!bytes_.empty()) throw ProtocolError(std::to_string(bytes_.size()) + " unexpected bytes after the payload");
}

}  // namespace kcs::host
