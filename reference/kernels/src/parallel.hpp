// Splits independent rows over threads. Each row is computed by exactly one
// thread in a fixed order, so results never depend on the thread count:
// the kernels stay deterministic and batch-invariant.
#pragma once

#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

namespace kcs::kernels::detail {

template <typename RowFn>
void for_each_row(std::int64_t rows, int threads, RowFn row) {
    const std::int64_t workers = std::clamp<std::int64_t>(threads, 1, std::max<std::int64_t>(rows, 1));
    if (workers == 1) {
        for (std::int64_t r = 0; r < rows; ++r) row(r);
        return;
    }
    std::vector<std::thread> pool;
    for (std::int64_t w = 0; w < workers; ++w) {
        pool.emplace_back([=, &row] {
            for (std::int64_t r = w * rows / workers; r < (w + 1) * rows / workers; ++r) row(r);
        });
    }
    for (auto& t : pool) t.join();
}

}  // namespace kcs::kernels::detail
