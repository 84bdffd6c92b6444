#include "kcs/reference/permutation.hpp"

#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

#include "kcs/reference/distributions.hpp"
#include "kcs/reference/philox.hpp"

namespace kcs::ref {

std::vector<std::uint64_t> permutation(std::uint64_t seed, std::uint64_t n, std::uint32_t j) {
    if (j > kMaxPermutation)
        throw std::invalid_argument("permutation " + std::to_string(j) +
                                    ": stream 2 + j would reach the auxiliary streams (j <= " +
                                    std::to_string(kMaxPermutation) + ")");
    std::vector<std::uint64_t> order(n);
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    const std::uint32_t stream = kFirstPermutationStream + j;
    for (std::uint64_t i = n == 0 ? 0 : n - 1; i >= 1; --i) {
        // The tensor word of the counter is 0 for every permutation (SPEC.md).
        const PhiloxBlock w = philox_block(seed, 0, stream, i);
        const std::uint64_t r = static_cast<std::uint64_t>(sample(Integers{0, static_cast<std::int64_t>(i)}, w));
        std::swap(order[i], order[r]);
    }
    return order;
}

}  // namespace kcs::ref
