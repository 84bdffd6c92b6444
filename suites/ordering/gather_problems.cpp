#include "gather_problems.hpp"

#include <algorithm>

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

harness::Invocation declared_gather(const harness::Instance& instance, const GatherShape& shape) {
    harness::HostTensor table{abi_dtype(instance.config.inputs[0]), {shape.rows, shape.columns}, {}};
    harness::HostTensor index{abi_dtype(instance.config.inputs[1]), {shape.positions}, {}};
    return invocation(instance, {std::move(table), std::move(index)}, {shape.positions, shape.columns});
}

std::vector<std::uint64_t> gathered_bits(const GatherProblem& p) {
    std::vector<std::uint64_t> bits;
    bits.reserve(static_cast<std::size_t>(p.shape.positions * p.shape.columns));
    for (const std::int64_t row : p.index)
        for (std::int64_t c = 0; c < p.shape.columns; ++c)
            bits.push_back(p.table.bits(static_cast<std::size_t>(row * p.shape.columns + c)));
    return bits;
}

harness::HostTensor gathered(const GatherProblem& p) {
    harness::HostTensor out = harness::HostTensor::zeros(p.table.dtype, {p.shape.positions, p.shape.columns});
    out.set_all_bits(std::span<const std::uint64_t>(gathered_bits(p)));
    return out;
}

std::optional<std::int64_t> row_differs(const GatherProblem& p, const harness::HostTensor& out, std::int64_t position,
                                        std::int64_t source) {
    for (std::int64_t c = 0; c < p.shape.columns; ++c) {
        const auto at = static_cast<std::size_t>(position * p.shape.columns + c);
        const std::uint64_t want = source < 0 ? 0 : p.table.bits(static_cast<std::size_t>(source * p.shape.columns + c));
        if (out.bits(at) != want) return c;
    }
    return std::nullopt;
}

WrongRows wrong_rows(const GatherProblem& current, const harness::HostTensor& out,
                     const harness::HostTensor& previous_out) {
    const std::int64_t columns = current.shape.columns;
    const auto same_as_previous = [&](std::int64_t n) {
        for (std::int64_t c = 0; c < columns; ++c) {
            const auto at = static_cast<std::size_t>(n * columns + c);
            if (out.bits(at) != previous_out.bits(at)) return false;
        }
        return true;
    };
    WrongRows wrong;
    for (std::int64_t n = 0; n < current.shape.positions; ++n) {
        if (!row_differs(current, out, n, current.index[static_cast<std::size_t>(n)])) continue;
        if (same_as_previous(n)) ++wrong.stale;
        else if (!wrong.altered) wrong.altered = n;
    }
    return wrong;
}

std::string raise_departure(const harness::HostTensor& out, std::int64_t position, std::int64_t columns) {
    for (std::int64_t c = 0; c < columns; ++c)
        if (out.value(static_cast<std::size_t>(position * columns + c)) != 0.0) return "policy-mismatch";
    return "zero-rows-under-raise";
}

std::string departure_signature(const std::vector<std::string>& departures) {
    const std::string& first = departures.front();
    return std::all_of(departures.begin(), departures.end(), [&](const std::string& d) { return d == first; })
               ? first
               : "policy-mismatch";
}

}  // namespace kcs::suites
