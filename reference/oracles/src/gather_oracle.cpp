#include "kcs/reference/gather_oracle.hpp"

#include <stdexcept>

namespace kcs::ref {

GatherSelection select_gather_rows(std::span<const std::int64_t> index, std::size_t rows,
                                   OobPolicy policy) {
    if (policy == OobPolicy::clamp && rows == 0) {
        throw std::invalid_argument("gather oracle: oob_policy clamp on a table with 0 rows");
    }
    GatherSelection selection;
    selection.source.resize(index.size());
    for (std::size_t n = 0; n < index.size(); ++n) {
        const std::int64_t i = index[n];
        // Compared without converting rows to int64 so that no table size wraps.
        const bool in_range = i >= 0 && static_cast<std::uint64_t>(i) < rows;
        if (in_range) {
            selection.source[n] = i;
            continue;
        }
        if (selection.out_of_range_count++ == 0) selection.first_out_of_range = n;
        selection.source[n] = policy == OobPolicy::zero
                                  ? GatherSelection::kZeroRow
                                  : (i < 0 ? 0 : static_cast<std::int64_t>(rows - 1));
    }
    if (policy == OobPolicy::raise && selection.out_of_range_count > 0) {
        selection.status = GatherStatus::out_of_range;
        selection.source.clear();
    }
    return selection;
}

}  // namespace kcs::ref
