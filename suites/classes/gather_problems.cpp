#include "gather_problems.hpp"

#include "kcs/reference/fill.hpp"
#include "kcs/suites/operator_io.hpp"

namespace kcs::suites {

namespace {

constexpr std::uint32_t kIndexStream = 1u << 16;

harness::HostTensor index_tensor(const harness::Instance& instance, const std::vector<std::int64_t>& index) {
    harness::HostTensor t =
        harness::HostTensor::zeros(abi_dtype(instance.config.inputs[1]), {static_cast<std::int64_t>(index.size())});
    for (std::size_t i = 0; i < index.size(); ++i) t.set_bits(i, static_cast<std::uint64_t>(index[i]));
    return t;
}

}  // namespace

GatherProblem draw_gather(const harness::Instance& instance, const GatherShape& s, std::uint64_t seed) {
    return {s, generate(instance.config.inputs[0], {s.rows, s.columns}, ref::Normal{0, 1}, seed, 0),
            ref::fill_integers(ref::Integers{0, s.rows - 1}, ref::TensorStream{seed, 1, kIndexStream},
                               static_cast<std::size_t>(s.positions))};
}

harness::Invocation gather_call(const harness::Instance& instance, const GatherProblem& p,
                                const std::vector<std::int64_t>& index) {
    return invocation(instance, {p.table, index_tensor(instance, index)}, {p.shape.positions, p.shape.columns});
}

std::vector<std::uint64_t> gathered_bits(const GatherProblem& p) {
    std::vector<std::uint64_t> bits;
    bits.reserve(static_cast<std::size_t>(p.shape.positions * p.shape.columns));
    for (const std::int64_t row : p.index)
        for (std::int64_t c = 0; c < p.shape.columns; ++c)
            bits.push_back(p.table.bits(static_cast<std::size_t>(row * p.shape.columns + c)));
    return bits;
}

}  // namespace kcs::suites
