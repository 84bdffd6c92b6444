// C-CMP-02 Subnormal handling (spec/v1/classes/C-CMP-02.yaml) for matmul,
// reduce_sum, reduce_max and softmax. Each probe is built from the
// subnormals set, the extremes set and the grid of subnormals (integers
// times the smallest subnormal, stream 2^16) so that its result is exact
// when subnormals are honoured (y_pres), and flushing at any step gives the
// value of flushing inputs and results only (y_flush). Probes act on one
// side: input-side (a subnormal input, a normal result: only DAZ changes
// it), output-side (normal inputs, a subnormal result: only FTZ changes it)
// or both. Every distinguishing element (y_pres != y_flush) is classified
// as pres, flush or neither and judged by subnormal_policy against the
// subnormals claim.
#include <algorithm>
#include <cmath>
#include <array>
#include <functional>
#include <limits>
#include <map>
#include <span>

#include "exactness_common.hpp"
#include "exactness_probes.hpp"
#include "subnormal_batches.hpp"
#include "kcs/reference/matmul_oracle.hpp"
#include "kcs/reference/philox.hpp"
#include "kcs/reference/reduce_max_oracle.hpp"
#include "kcs/reference/reduce_sum_oracle.hpp"
#include "kcs/reference/softmax_oracle.hpp"
#include "kcs/reference/special_values.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../tolerance/subnormal_policy.hpp"
#include "../tolerance/ulp_table.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using harness::HostTensor;
using namespace subnormal_batches;

// ---------------------------------------------------------------- exact sums

// Whether flushing any intermediate of a sum of `terms` in any order gives
// y_flush (the class's reference oracle rejects a probe otherwise). The
// sum qualifies when it has at most one nonzero term; when every term is a
// multiple of a power of two that is itself normal in the accumulator (no
// partial sum can be subnormal there); when no partial sum can reach the
// smallest normal (every partial sum is subnormal, so any flushing gives 0);
// or when its two nonzero terms are the inputs themselves (flushing the one
// addition is flushing the result).
bool flush_consistent(std::span<const double> terms, bool terms_are_inputs, ref::Format acc) {
    const double tiny = ref::info(acc).min_normal;
    std::size_t nonzero = 0;
    int lowest = std::numeric_limits<int>::max();
    for (const double t : terms) {
        if (t == 0) continue;
        ++nonzero;
        lowest = std::min(lowest, lowest_set_bit(t));
    }
    return nonzero <= 1 || std::ldexp(1.0, lowest) >= tiny || largest_partial_sum(terms) < tiny ||
           (nonzero == 2 && terms_are_inputs);
}

void require_exact_and_consistent(std::span<const double> terms, bool terms_are_inputs, ref::Format acc,
                                  const std::string& probe) {
    if (!exact_in_f32_any_order(terms))
        throw std::logic_error("C-CMP-02 probe construction: " + probe + " is not exact in every order");
    if (!flush_consistent(terms, terms_are_inputs, acc))
        throw std::logic_error("C-CMP-02 probe construction: flushing an intermediate of " + probe +
                               " could give a third value");
}

std::size_t position(ref::Position p, std::size_t n) { return ref::position_index(p, n); }

// ---------------------------------------------------------------- row shapes

// reduce_sum, reduce_max and softmax run at every shape [rows, L] of the
// instance's `shapes` (row_dims): the probe rows are built at length L and
// cycled through calls of `rows` rows, as many calls as it takes for every
// probe row to be reduced.

// `count` distinct positions of a row of `length`, rotated by `rotation`:
// first, middle and last where the row has three, else consecutive ones.
std::vector<std::size_t> spread_positions(std::size_t count, std::size_t length, std::size_t rotation) {
    constexpr std::array<ref::Position, 3> at{ref::Position::first, ref::Position::middle, ref::Position::last};
    std::vector<std::size_t> out(count);
    for (std::size_t j = 0; j < count; ++j)
        out[j] = length >= at.size() && count <= at.size() ? position(at[(rotation + j) % at.size()], length)
                                                           : (rotation + j) % length;
    return out;
}

// ---------------------------------------------------------------- reduce_sum

// Rows drawn from the grid per probe (other rows are built from the sets).
constexpr int kGridRows = 8;

struct RowProbe {
    std::string name;
    std::vector<double> row;  // L values
};

// The rows at length L; a row that needs more positions than L has is left out.
std::vector<RowProbe> reduce_sum_rows(ref::Format in, std::size_t length, GridDraws& draws) {
    const Grid g = grid_of(in);
    std::vector<RowProbe> rows;
    auto values_row = [&](std::string name, const std::vector<double>& values) {
        if (values.size() > length) return;
        std::vector<double> row(length, 0.0);
        const auto at = spread_positions(values.size(), length, rows.size());
        for (std::size_t j = 0; j < values.size(); ++j) row[at[j]] = values[j];
        rows.push_back({std::move(name), std::move(row)});
    };
    for (const double sign : {1.0, -1.0}) {
        // Input-side: the smallest normal plus one subnormal of the same sign (normal sum).
        const std::vector<double> subnormals{g.step, g.step * static_cast<double>(g.largest_k),
                                             g.step * static_cast<double>(draws.next(1, g.largest_k)),
                                             g.step * static_cast<double>(draws.next(1, g.largest_k))};
        for (const double s : subnormals) values_row("min normal + subnormal", {sign * g.tiny, sign * s});
        // Output-side: neighbouring small normals whose difference is subnormal,
        // 1.5 * 2^emin - 2^emin among them.
        const std::vector<std::int64_t> steps{std::int64_t{1} << (ref::info(in).precision - 2),
                                              draws.next(1, g.largest_k), draws.next(1, g.largest_k),
                                              draws.next(1, g.largest_k)};
        for (const std::int64_t n : steps)
            values_row("difference of small normals", {sign * (g.tiny + g.step * static_cast<double>(n)), -sign * g.tiny});
    }
    // Both sides: rows of subnormals whose magnitudes add up to at most the
    // largest subnormal, so every partial sum in any order is subnormal too
    // (a row longer than that multiple holds one grid step per position it spreads over).
    const std::size_t nonzero = std::min<std::size_t>(length, static_cast<std::size_t>(g.largest_k));
    const auto bounded = g.largest_k / static_cast<std::int64_t>(nonzero);
    for (int r = 0; r < kGridRows; ++r) {
        std::vector<double> row(length, 0.0);
        for (std::size_t j = 0; j < nonzero; ++j)
            row[j * length / nonzero] = g.step * static_cast<double>(draws.next(-bounded, bounded));
        rows.push_back({"row of grid subnormals", std::move(row)});
    }
    const double largest = g.step * static_cast<double>(g.largest_k);
    values_row("+max subnormal", {largest});
    values_row("-max subnormal", {-largest});
    values_row("+min subnormal", {g.step});
    values_row("-min subnormal twice", {-g.step, -g.step});
    return rows;
}

// A batch of rows each reduced to one value: the oracle on the inputs as
// given and as flushed, and the rows whose two results tell the policies
// apart. `exact_sums` also requires every row sum to be exact in the
// accumulator, so that only flushing can separate the two results.
template <typename RowOracle>
Batch row_reduction_batch(std::string name, const ConfigFormats& f, const std::vector<RowProbe>& probes,
                          std::size_t first, const RowDims& d, RowOracle oracle, bool exact_sums) {
    std::vector<double> x(d.rows * d.length);
    std::vector<const RowProbe*> rows(d.rows);
    for (std::size_t r = 0; r < d.rows; ++r) {
        rows[r] = &probes[(first + r) % probes.size()];
        std::copy(rows[r]->row.begin(), rows[r]->row.end(), x.begin() + static_cast<std::ptrdiff_t>(r * d.length));
    }
    const auto R = static_cast<std::int64_t>(d.rows), L = static_cast<std::int64_t>(d.length);
    Batch b{std::move(name) + " " + d.text(), {from_values(f.in_name, {R, L}, x)}, {R}, {}, {}};
    x = values(b.inputs[0]);
    std::vector<double> flushed(x.size());
    std::transform(x.begin(), x.end(), flushed.begin(), [&](double v) { return flush_input(f.in, v); });
    const ref::RowShape shape{d.rows, d.length};
    const std::vector<double> pres = oracle(x, shape);
    const std::vector<double> flush = oracle(flushed, shape);
    for (std::size_t r = 0; r < d.rows; ++r) {
        const auto row = std::span(x).subspan(r * d.length, d.length);
        if (exact_sums) {
            require_exact_and_consistent(row, true, f.acc, rows[r]->name);
            require_exact_and_consistent(std::span(flushed).subspan(r * d.length, d.length), true, f.acc,
                                         rows[r]->name);
        }
        const double y_pres = exact_result(f.out, pres[r], rows[r]->name);
        const double y_flush = flushed_result(f.out, flush[r]);
        if (!distinguishing(y_pres, y_flush)) continue;
        const bool subnormal_input =
            std::any_of(row.begin(), row.end(), [&](double v) { return is_subnormal(f.in, v); });
        b.elements.push_back({r, side_of(subnormal_input, is_subnormal(f.out, y_pres)), y_pres, y_flush, true});
    }
    const HostTensor& tensor = b.inputs[0];
    const std::size_t length = d.length;
    b.inputs_of = [tensor, length](std::size_t r) { return depends_on_range("x", tensor, r * length, length); };
    return b;
}

// Every probe row at every shape: the rows built at each length, cycled
// through calls of the shape's row count.
template <typename BuildRows, typename RowOracle>
std::vector<Batch> row_reduction_batches(const std::string& name, const harness::Instance& instance,
                                         const ConfigFormats& f, BuildRows build_rows, RowOracle oracle,
                                         bool exact_sums) {
    std::vector<Batch> batches;
    for (const auto& d : row_dims(instance, 1, "a row to reduce")) {
        const std::vector<RowProbe> probes = build_rows(d.length);
        for (std::size_t first = 0; first < probes.size(); first += d.rows)
            batches.push_back(row_reduction_batch(name, f, probes, first, d, oracle, exact_sums));
    }
    return batches;
}

std::vector<Batch> reduce_sum_batches(const harness::Instance& instance, const ConfigFormats& f, GridDraws& draws) {
    const auto oracle = [](std::span<const double> x, const ref::RowShape& shape) {
        return ref::reduce_sum_oracle(x, shape).value;
    };
    const auto rows = [&](std::size_t length) { return reduce_sum_rows(f.in, length, draws); };
    return row_reduction_batches("reduce_sum rows", instance, f, rows, oracle, true);
}

// ---------------------------------------------------------------- reduce_max

std::vector<RowProbe> reduce_max_rows(ref::Format in, std::size_t length, GridDraws& draws) {
    const Grid g = grid_of(in);
    std::vector<RowProbe> rows;
    auto grid_row = [&](std::string name, std::int64_t lo, std::int64_t hi) {
        std::vector<double> row(length);
        for (double& v : row) v = g.step * static_cast<double>(draws.next(lo, hi));
        rows.push_back({std::move(name), std::move(row)});
    };
    for (int r = 0; r < kGridRows; ++r) grid_row("grid subnormals of both signs", -g.largest_k, g.largest_k);
    for (int r = 0; r < kGridRows / 2; ++r) grid_row("negative grid subnormals", -g.largest_k, -1);
    // The subnormals set against negative normals, which every row maximum
    // stays above: the maximum is the subnormal, flushed to a zero.
    const double largest = g.step * static_cast<double>(g.largest_k);
    for (const auto& [name, values] : std::vector<std::pair<std::string, std::vector<double>>>{
             {"+min subnormal, -max subnormal", {g.step, -largest}},
             {"+max subnormal", {largest}},
             {"-max subnormal, -min subnormal", {-largest, -g.step}},
             {"-max subnormal", {-largest}}}) {
        if (values.size() > length) continue;
        std::vector<double> row(length, -g.tiny);
        const auto at = spread_positions(values.size(), length, rows.size());
        for (std::size_t j = 0; j < values.size(); ++j) row[at[j]] = values[j];
        rows.push_back({name, std::move(row)});
    }
    return rows;
}

std::vector<Batch> reduce_max_batches(const harness::Instance& instance, const ConfigFormats& f, GridDraws& draws) {
    // No arithmetic: the maximum is one of the row's values, exact, and
    // flushing the inputs or the result gives the same zero.
    const auto oracle = [](std::span<const double> x, const ref::RowShape& shape) {
        return ref::reduce_max_oracle(x, shape);
    };
    const auto rows = [&](std::size_t length) { return reduce_max_rows(f.in, length, draws); };
    return row_reduction_batches("reduce_max rows", instance, f, rows, oracle, false);
}

// ---------------------------------------------------------------- matmul

// One probe shape, [M, K, N] as the catalog gives it (row_problems.hpp's
// order): libraries choose kernels by shape, so each pattern runs at every
// shape of the instance's `shapes` parameter.
struct MatmulDims {
    std::size_t m, k, n;
    std::string text() const {
        const std::int64_t dims[] = {static_cast<std::int64_t>(m), static_cast<std::int64_t>(k),
                                     static_cast<std::int64_t>(n)};
        return shape_text(dims);
    }
};

// The elements of C = A B that distinguish, judged exactly.
void matmul_expectations(const ConfigFormats& f, const MatmulDims& d, Batch& b) {
    const auto a = values(b.inputs[0]);
    const auto bm = values(b.inputs[1]);
    std::vector<double> a_flushed(a.size()), b_flushed(bm.size());
    std::transform(a.begin(), a.end(), a_flushed.begin(), [&](double v) { return flush_input(f.in, v); });
    std::transform(bm.begin(), bm.end(), b_flushed.begin(), [&](double v) { return flush_input(f.in, v); });
    const ref::MatmulShape shape{1, d.m, d.k, d.n};
    const auto pres = ref::matmul_oracle(a, bm, shape).value;
    const auto flush = ref::matmul_oracle(a_flushed, b_flushed, shape).value;
    std::vector<double> terms(d.k), flushed_terms(d.k);
    for (std::size_t i = 0; i < pres.size(); ++i) {
        const std::size_t row = i / d.n, col = i % d.n;
        bool subnormal_input = false;
        for (std::size_t k = 0; k < d.k; ++k) {
            const double x = a[row * d.k + k], y = bm[k * d.n + col];
            terms[k] = x * y;
            flushed_terms[k] = a_flushed[row * d.k + k] * b_flushed[k * d.n + col];
            // An input matters where its product partner is nonzero.
            subnormal_input |= (is_subnormal(f.in, x) && y != 0) || (is_subnormal(f.in, y) && x != 0);
        }
        require_exact_and_consistent(terms, false, f.acc, b.name);
        require_exact_and_consistent(flushed_terms, false, f.acc, b.name);
        const double y_pres = exact_result(f.out, pres[i], b.name);
        const double y_flush = flushed_result(f.out, flush[i]);
        if (!distinguishing(y_pres, y_flush)) continue;
        b.elements.push_back({i, side_of(subnormal_input, is_subnormal(f.out, y_pres)), y_pres, y_flush, true});
    }
    const HostTensor& ta = b.inputs[0];
    const HostTensor& tb = b.inputs[1];
    b.inputs_of = [ta, tb, d](std::size_t i) {
        const std::size_t row = i / d.n, col = i % d.n;
        auto out = depends_on_range("A", ta, row * d.k, d.k);
        std::vector<std::size_t> column(d.k);
        for (std::size_t k = 0; k < d.k; ++k) column[k] = k * d.n + col;
        const auto from_b = depends_on("B", tb, column);
        out.insert(out.end(), from_b.begin(), from_b.end());
        return out;
    };
}

// K x N, `scale` at (n mod K, n): C[m, n] = scale A[m, n mod K], one product per output.
std::vector<double> scaled_selector(const MatmulDims& d, double scale) {
    std::vector<double> m(d.k * d.n, 0.0);
    for (std::size_t n = 0; n < d.n; ++n) m[(n % d.k) * d.n + n] = scale;
    return m;
}

// A: the subnormals set at its start, grid subnormals of both signs elsewhere.
std::vector<double> subnormal_matrix(ref::Format in, const MatmulDims& d, GridDraws& draws) {
    const Grid g = grid_of(in);
    std::vector<double> a(d.m * d.k);
    for (double& v : a) v = g.step * static_cast<double>(draws.next(-g.largest_k, g.largest_k));
    const auto set = ref::special_subset(in, "subnormals");  // +min, -min, +max, -max subnormal
    for (std::size_t j = 0; j < std::min(set.size(), a.size()); ++j) a[j] = ref::decode(in, set[j]);
    return a;
}

std::vector<MatmulDims> matmul_dims(const harness::Instance& instance) {
    std::vector<MatmulDims> out;
    for (const auto& s : probe_shapes(instance, 3, "[M, K, N]"))
        out.push_back({static_cast<std::size_t>(s[0]), static_cast<std::size_t>(s[1]), static_cast<std::size_t>(s[2])});
    return out;
}

void add_matmul_batches(const harness::Instance& instance, const ConfigFormats& f, const MatmulDims& d,
                        GridDraws& draws, std::vector<Batch>& batches) {
    const std::string b_dtype = instance.config.inputs[1];
    const auto M = static_cast<std::int64_t>(d.m), K = static_cast<std::int64_t>(d.k),
               N = static_cast<std::int64_t>(d.n);
    const auto a_sub = subnormal_matrix(f.in, d, draws);
    auto add = [&](const std::string& name, const std::vector<double>& a, const std::vector<double>& b) {
        Batch batch{name + " " + d.text(),
                    {from_values(f.in_name, {M, K}, a), from_values(b_dtype, {K, N}, b)},
                    {M, N},
                    {},
                    {}};
        matmul_expectations(f, d, batch);
        batches.push_back(std::move(batch));
    };
    // A subnormal operand against a selector: C holds A's values, subnormal
    // where the output dtype's range is the input's (both sides), normal in
    // f32 for f16 inputs (input side).
    add("subnormal A x selector", a_sub, scaled_selector(d, 1));
    // ... and against 2^(p-1) times it, which moves every subnormal into the normal range.
    add("subnormal A x 2^(p-1) selector", a_sub, scaled_selector(d, std::ldexp(1.0, ref::info(f.in).precision - 1)));

    // Output side: normal operands whose products land on the output's
    // subnormal grid, at most two per output: A holds a = 2^ea at (m, m mod K)
    // and (m, m + 1 mod K), B holds k 2^(es - ea) with |k| small enough that
    // the sum stays subnormal.
    const auto& in = ref::info(f.in);
    const Grid out_grid = grid_of(f.out);
    const int es = std::ilogb(out_grid.step);
    const int ea = es / 2 - (es % 2 != 0);  // floor(es / 2)
    const int emin_in = std::ilogb(in.min_normal);
    if (ea >= emin_in && es - ea >= emin_in) {
        const std::int64_t largest_k =
            ((std::int64_t{1} << (std::min(in.precision, ref::info(f.out).precision) - 1)) - 1) / 2;
        std::vector<double> a(d.m * d.k, 0.0), b(d.k * d.n);
        for (std::size_t m = 0; m < d.m; ++m) {
            a[m * d.k + m % d.k] = std::ldexp(1.0, ea);
            a[m * d.k + (m + 1) % d.k] = std::ldexp(1.0, ea);
        }
        for (double& v : b) v = std::ldexp(static_cast<double>(draws.next(-largest_k, largest_k)), es - ea);
        add("small normals with subnormal products", a, b);
    }
}

std::vector<Batch> matmul_batches(const harness::Instance& instance, const ConfigFormats& f, GridDraws& draws) {
    std::vector<Batch> batches;
    for (const auto& d : matmul_dims(instance)) add_matmul_batches(instance, f, d, draws, batches);
    return batches;
}

// ---------------------------------------------------------------- softmax (function probe)

// Rows of L whose entry 0 is 0 (the maximum) and whose other probabilities
// exp(x) / s fall in the output's subnormal range at or above the smallest
// probe probability. s < 1 + (L - 1) tiny(out), so the logits start where
// exp(x) reaches that probability times this factor; they end where exp(x)
// stays that probability below tiny(out), so that no value within C-CMP-01's
// allowance of any of them is normal (inside_subnormal_range). One call per
// shape [rows, L] of `shapes`, every row drawn.
Batch softmax_batch(const harness::ProbeContext& context, const ConfigFormats& f, const RowDims& d, GridDraws& draws) {
    const auto& out = ref::info(f.out);
    const double smallest = smallest_function_probe_value(context, f);
    const double denominator_above_one = static_cast<double>(d.length - 1) * out.min_normal;
    const double x_low = value_at_or_above(f.in, std::log(smallest) + std::log1p(denominator_above_one));
    const double x_high = value_at_or_below(f.in, std::log(out.min_normal - smallest));
    if (!(x_low <= x_high))
        throw std::logic_error("C-CMP-02 softmax probe: no logit gives a subnormal probability in rows of " +
                               std::to_string(d.length));
    // Negative values order their patterns by magnitude.
    const std::int64_t low_bits = ref::encode(f.in, x_high), high_bits = ref::encode(f.in, x_low);

    std::vector<std::uint32_t> bits(d.rows * d.length, 0);
    for (std::size_t r = 0; r < d.rows; ++r)
        for (std::size_t j = 1; j < d.length; ++j)
            bits[r * d.length + j] = static_cast<std::uint32_t>(draws.next(low_bits, high_bits));
    const auto rows = static_cast<std::int64_t>(d.rows), length = static_cast<std::int64_t>(d.length);
    Batch b{"softmax rows with subnormal probabilities " + d.text(),
            {tensor_of_bits(f.in_name, {rows, length}, bits)},
            {rows, length},
            {},
            {}};
    const auto x = values(b.inputs[0]);
    const auto y = ref::softmax_oracle(x, {d.rows, d.length}, ref::MaskedRow::nan).value;
    for (std::size_t i = 0; i < y.size(); ++i) {
        if (i % d.length == 0) continue;  // the row maximum: probability near 1 either way
        if (!inside_subnormal_range(f.out, y[i], smallest))
            throw std::logic_error("C-CMP-02 softmax probe: a probability left the subnormal window");
        b.elements.push_back({i, SubnormalSide::output, y[i], 0.0, false});
    }
    const HostTensor& tensor = b.inputs[0];
    const std::size_t row_length = d.length;
    b.inputs_of = [tensor, row_length](std::size_t i) {
        const std::size_t row = i / row_length;
        return depends_on_range("x", tensor, row * row_length, row_length);
    };
    return b;
}

}  // namespace

harness::CaseResult subnormal_handling_matmul(harness::ProbeContext& context) {
    GridDraws draws(context.seed());
    return judge_batches(context, matmul_batches(context.instance(), formats_of(context.instance()), draws));
}

harness::CaseResult subnormal_handling_reduce_sum(harness::ProbeContext& context) {
    GridDraws draws(context.seed());
    return judge_batches(context, reduce_sum_batches(context.instance(), formats_of(context.instance()), draws));
}

harness::CaseResult subnormal_handling_reduce_max(harness::ProbeContext& context) {
    GridDraws draws(context.seed());
    return judge_batches(context, reduce_max_batches(context.instance(), formats_of(context.instance()), draws));
}

harness::CaseResult subnormal_handling_softmax(harness::ProbeContext& context) {
    GridDraws draws(context.seed());
    const ConfigFormats f = formats_of(context.instance());
    std::vector<Batch> batches;
    for (const auto& d : row_dims(context.instance(), 2, "a probability below the row maximum"))
        batches.push_back(softmax_batch(context, f, d, draws));
    return judge_batches(context, std::move(batches));
}

}  // namespace kcs::suites
