// kcs/dtypes.hpp: the element types, once for every C++ part of KCS (the
// catalog, the harness, the reference kernels, the adapters): one enum and
// one table of facts: the ABI's code (kcs/adapter.h), the catalog's name
// (spec/SCHEMA.md), the size, and whether it is a float.
#pragma once

#include <kcs/adapter.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace kcs {

enum class Dtype { f32, f16, bf16, f64, i8, i32, i64, u8 };

struct DtypeFacts {
    Dtype dtype;
    kcs_dtype code;         // KCS_DTYPE_*
    const char* name;       // the catalog's: "f32", "bf16", "i64", ...
    std::size_t bytes;
    bool is_float;
};

// In the enum's order.
inline constexpr std::array<DtypeFacts, 8> kDtypes{{
    {Dtype::f32, KCS_DTYPE_F32, "f32", 4, true},
    {Dtype::f16, KCS_DTYPE_F16, "f16", 2, true},
    {Dtype::bf16, KCS_DTYPE_BF16, "bf16", 2, true},
    {Dtype::f64, KCS_DTYPE_F64, "f64", 8, true},
    {Dtype::i8, KCS_DTYPE_I8, "i8", 1, false},
    {Dtype::i32, KCS_DTYPE_I32, "i32", 4, false},
    {Dtype::i64, KCS_DTYPE_I64, "i64", 8, false},
    {Dtype::u8, KCS_DTYPE_U8, "u8", 1, false},
}};

constexpr const DtypeFacts& facts(Dtype dtype) { return kDtypes[static_cast<std::size_t>(dtype)]; }
constexpr std::size_t size_of(Dtype dtype) { return facts(dtype).bytes; }
constexpr const char* name_of(Dtype dtype) { return facts(dtype).name; }
constexpr kcs_dtype code_of(Dtype dtype) { return facts(dtype).code; }

// The ABI's codes are 1..8 in the enum's order, so a code maps by
// arithmetic (this runs per element in the harness's tensor access).
constexpr bool codes_follow_the_enum() {
    for (std::size_t i = 0; i < kDtypes.size(); ++i)
        if (kDtypes[i].code != i + 1 || static_cast<std::size_t>(kDtypes[i].dtype) != i) return false;
    return true;
}
static_assert(codes_follow_the_enum());

// nullopt for a code or a name outside the table.
constexpr std::optional<Dtype> dtype_of_code(kcs_dtype code) {
    if (code < 1 || code > kDtypes.size()) return std::nullopt;
    return static_cast<Dtype>(code - 1);
}
constexpr std::optional<Dtype> dtype_of_name(std::string_view name) {
    for (const auto& f : kDtypes)
        if (std::string_view(f.name) == name) return f.dtype;
    return std::nullopt;
}

}  // namespace kcs
