// Oracle of gather: out[n, c] = table[index[n], c], with the oob_policy
// claim deciding what an index outside [0, rows) does.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "kcs/reference/oracle_shapes.hpp"

namespace kcs::ref {

// The oob_policy claim (undefined is not certifiable, so it has no oracle).
enum class OobPolicy { raise, clamp, zero };

enum class GatherStatus { ok, out_of_range };

// Which table row each output position copies.
struct GatherSelection {
    static constexpr std::int64_t kZeroRow = -1;  // the position gets a row of +0

    // out_of_range only under raise with at least one index outside [0, rows);
    // the run must then return the OUT_OF_RANGE status and `source` is empty.
    GatherStatus status = GatherStatus::ok;
    std::size_t out_of_range_count = 0;  // indices outside [0, rows), under every policy
    std::size_t first_out_of_range = 0;  // position of the first such index, if any
    std::vector<std::int64_t> source;    // [N]: a row in [0, rows), or kZeroRow
};

// Negative indices are out of range (never counted from the end); int32
// indices widen exactly to int64. Throws std::invalid_argument for clamp on
// an empty table, which has no row to clamp to.
GatherSelection select_gather_rows(std::span<const std::int64_t> index, std::size_t rows,
                                   OobPolicy policy);

template <class Element>
struct GatherResult {
    GatherStatus status = GatherStatus::ok;
    std::size_t out_of_range_count = 0;
    std::size_t first_out_of_range = 0;
    std::vector<Element> value;  // [N, cols]; empty when status is out_of_range
};

// table is [rows, cols], row-major. Element is the stored type: double for
// values, or std::uint16_t / std::uint32_t encodings, whose copies keep NaN
// payloads bit for bit (a double copy need not). Element{} is the +0 row.
// Exact: no arithmetic. Throws std::invalid_argument on a size mismatch.
template <class Element>
GatherResult<Element> gather_oracle(std::span<const Element> table, const RowShape& table_shape,
                                    std::span<const std::int64_t> index, OobPolicy policy) {
    require_size("gather oracle", "table", table.size(),
                 element_count("gather oracle", table_shape.rows, table_shape.length));
    const GatherSelection selection = select_gather_rows(index, table_shape.rows, policy);
    GatherResult<Element> result;
    result.status = selection.status;
    result.out_of_range_count = selection.out_of_range_count;
    result.first_out_of_range = selection.first_out_of_range;
    if (selection.status != GatherStatus::ok) return result;

    const std::size_t cols = table_shape.length;
    result.value.assign(element_count("gather oracle", index.size(), cols), Element{});
    for (std::size_t n = 0; n < index.size(); ++n) {
        if (selection.source[n] == GatherSelection::kZeroRow) continue;
        const auto row = table.subspan(static_cast<std::size_t>(selection.source[n]) * cols, cols);
        std::copy(row.begin(), row.end(), result.value.begin() + static_cast<std::ptrdiff_t>(n * cols));
    }
    return result;
}

}  // namespace kcs::ref
