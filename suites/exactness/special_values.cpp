// C-EXC-01 NaN and Inf propagation (spec/v1/classes/C-EXC-01.yaml) for
// matmul, reduce_sum, reduce_max and softmax. Probes place values of the
// special-value sets (nans, infinities, zeros) at the first, middle and last
// positions of the reduced axis, one per probe and in pairs (+inf with -inf,
// NaN with inf), every other element from normal(0, 1), at every shape of
// the `shapes` parameter ([M, K, N]; [rows, L] for the row operators, the
// probe rows cycled into calls of `rows`); softmax adds masks
// at random positions (stream 2^16), rows of one unmasked entry and fully
// masked rows. The oracle evaluates each operator's definition in f64 under
// IEEE 754 and the ieee_special model judges every element by class.
#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>

#include "exactness_common.hpp"
#include "exactness_probes.hpp"
#include "special_value_cases.hpp"
#include "special_values_judge.hpp"
#include "kcs/reference/matmul_oracle.hpp"
#include "kcs/reference/philox.hpp"
#include "kcs/reference/reduce_max_oracle.hpp"
#include "kcs/reference/reduce_sum_oracle.hpp"
#include "kcs/reference/softmax_oracle.hpp"
#include "kcs/reference/special_values.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../tolerance/ieee_special.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using harness::HostTensor;
using namespace special_cases;

constexpr std::uint32_t kMaskStream = ref::auxiliary_stream(0);  // stream 2^16: softmax's random positions
// Softmax rows drawn at random per kind (masks, single unmasked entries).
constexpr int kRandomMaskRows = 4;
constexpr int kSingleEntryRows = 2;

// ---------------------------------------------------------------- row operators

using RowOracle = std::vector<double> (*)(std::span<const double>, const ref::RowShape&);

std::vector<double> sum_of_rows(std::span<const double> x, const ref::RowShape& shape) {
    return ref::reduce_sum_oracle(x, shape).value;
}

// reduce_sum and reduce_max: one output per row, at every shape [rows, L].
harness::CaseResult judge_reduction(harness::ProbeContext& context,
                                    const std::function<std::vector<SpecialLine>(std::size_t)>& lines_of,
                                    RowOracle oracle) {
    std::vector<SpecialBatch> batches;
    for (const RowCall& call : row_calls(formats_of(context.instance()), context, lines_of)) {
        const std::size_t rows = call.lines.size(), length = call.length;
        const auto y = oracle(values(call.x), {rows, length});
        SpecialBatch batch{
            context.run(invocation(context.instance(), {call.x}, {static_cast<std::int64_t>(rows)}))[0], {},
            [x = call.x, length](std::size_t r) { return depends_on_range("x", x, r * length, length); }};
        for (std::size_t r = 0; r < rows; ++r)
            batch.elements.push_back({r, expectation_of(y[r]), y[r], call.lines[r].label + " " + call.shape});
        batches.push_back(std::move(batch));
    }
    return judge_special_batches(context, batches);
}

// A NaN in a row of its own at each of this many positions, evenly spread
// from first to last (every position of a shorter row).
constexpr std::size_t kNanPositions = 17;

std::vector<SpecialLine> reduce_max_lines(const SpecialValues& s, std::size_t length) {
    auto lines = singles_and_pairs(s, length);
    const std::size_t count = std::min(length, kNanPositions);
    for (std::size_t k = 0; k < count; ++k) {  // NaN at each position
        const std::size_t p = count == 1 ? 0 : k * (length - 1) / (count - 1);
        lines.push_back({name_of(s, k % 2 ? s.minus_nan : s.plus_nan) + " at position " + std::to_string(p),
                         {{p, k % 2 ? s.minus_nan : s.plus_nan}}});
    }
    lines.push_back(filled("all +qNaN", {s.plus_nan}, length));
    lines.push_back(filled("all NaN, both signs", {s.minus_nan, s.plus_nan}, length));
    lines.push_back(filled("all -inf", {s.minus_inf}, length));
    lines.push_back(filled("all +inf", {s.plus_inf}, length));
    return lines;
}

// ---------------------------------------------------------------- softmax

// Integers drawn in order from stream 2^16 of input tensor 0.
class PositionDraws {
public:
    explicit PositionDraws(std::uint64_t seed) : seed_(seed) {}
    std::int64_t next(std::int64_t lo, std::int64_t hi) {
        return draw_integers(seed_, 0, kMaskStream, index_++, 1, lo, hi)[0];
    }

private:
    std::uint64_t seed_;
    std::uint64_t index_ = 0;
};

std::vector<SpecialLine> softmax_lines(const SpecialValues& s, std::uint64_t seed, std::size_t length) {
    using P = ref::Position;
    std::vector<SpecialLine> lines;
    for (const std::uint32_t v : {s.plus_nan, s.plus_inf, s.minus_inf})
        for (const P p : kPositions) lines.push_back(single(s, v, p, length));
    lines.push_back(pair(s, s.plus_inf, P::first, s.minus_inf, P::last, length));
    lines.push_back(pair(s, s.plus_nan, P::middle, s.plus_inf, P::last, length));
    PositionDraws draws(seed);
    const auto last = static_cast<std::int64_t>(length) - 1;
    for (const std::uint32_t v : {s.plus_nan, s.minus_nan, s.plus_inf}) {
        const auto p = static_cast<std::size_t>(draws.next(0, last));
        lines.push_back({name_of(s, v) + " at random position " + std::to_string(p), {{p, v}}});
    }
    for (int r = 0; r < kRandomMaskRows; ++r) {  // -inf masks, each position masked with probability 1/2
        SpecialLine line{"random -inf masks", {}};
        for (std::size_t j = 0; j < length; ++j)
            if (draws.next(0, 1) == 0) line.specials.push_back({j, s.minus_inf});
        lines.push_back(std::move(line));
    }
    for (int r = 0; r < kSingleEntryRows; ++r) {
        const auto keep = static_cast<std::size_t>(draws.next(0, last));
        SpecialLine line{"one unmasked entry at " + std::to_string(keep), {}};
        for (std::size_t j = 0; j < length; ++j)
            if (j != keep) line.specials.push_back({j, s.minus_inf});
        lines.push_back(std::move(line));
    }
    lines.push_back(filled("fully masked", {s.minus_inf}, length));
    lines.push_back(filled("fully masked", {s.minus_inf}, length));
    lines.push_back({"normal(0, 1) only", {}});
    return lines;
}

// ---------------------------------------------------------------- matmul

// Columns of B: plain, exact zeros where A's rows hold infinities (0 * inf
// is NaN), and specials of their own.
std::vector<SpecialLine> matmul_columns(const SpecialValues& s, std::size_t K) {
    using P = ref::Position;
    std::vector<SpecialLine> columns{{"normal(0, 1) only", {}}, {"normal(0, 1) only", {}}};
    for (const P p : kPositions) columns.push_back(single(s, s.plus_zero, p, K));
    columns.push_back(single(s, s.minus_zero, P::middle, K));
    columns.push_back(single(s, s.plus_nan, P::last, K));
    columns.push_back(single(s, s.plus_inf, P::middle, K));
    columns.push_back(single(s, s.minus_inf, P::first, K));
    columns.push_back(pair(s, s.plus_inf, P::first, s.minus_inf, P::last, K));
    columns.push_back({"normal(0, 1) only", {}});
    return columns;
}

// One call at [M, K, N]: A's rows and B's columns the given lines.
SpecialBatch matmul_call(harness::ProbeContext& context, const std::vector<SpecialLine>& rows,
                         const std::vector<SpecialLine>& columns, std::size_t K, const std::string& shape) {
    const auto& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const std::string b_dtype = instance.config.inputs[1];
    const auto m = static_cast<std::int64_t>(rows.size()), n = static_cast<std::int64_t>(columns.size());
    HostTensor a = rows_with(f, context, rows, K);
    HostTensor b = generate(b_dtype, {static_cast<std::int64_t>(K), n}, ref::Normal{0, 1}, context.seed(), 1);
    read_as_claimed(b, context.claims());
    for (std::size_t c = 0; c < columns.size(); ++c)
        for (const auto& p : columns[c].specials) b.set_bits(p.position * columns.size() + c, p.bits);
    const auto y = ref::matmul_oracle(values(a), values(b), {1, rows.size(), K, columns.size()}).value;
    SpecialBatch batch{context.run(invocation(instance, {a, b}, {m, n}))[0], {}, {}};
    for (std::size_t i = 0; i < y.size(); ++i) {
        const std::size_t r = i / columns.size(), c = i % columns.size();
        batch.elements.push_back({i, expectation_of(y[i]), y[i],
                                  "A row: " + rows[r].label + "; B column: " + columns[c].label + " " + shape});
    }
    const std::size_t width = columns.size();
    batch.inputs_of = [a, b, width, K](std::size_t i) {
        const std::size_t r = i / width, c = i % width;
        auto out = depends_on_range("A", a, r * K, K);
        std::vector<std::size_t> column(K);
        for (std::size_t j = 0; j < K; ++j) column[j] = j * width + c;
        const auto from_b = depends_on("B", b, column);
        out.insert(out.end(), from_b.begin(), from_b.end());
        return out;
    };
    return batch;
}

// Every row line against every column line at each shape of the `shapes`
// parameter ([M, K, N]), as many calls as that takes; across the sizes at
// which libraries switch kernels (a blocked kernel that skips zero blocks
// drops 0 * inf, say, only where it blocks).
harness::CaseResult judge_matmul(harness::ProbeContext& context) {
    const auto& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const SpecialValues in_a = special_values_of(f.in), in_b = special_values_of(float_format(instance.config.inputs[1]));
    std::vector<SpecialBatch> batches;
    for (const auto& s : probe_shapes(instance, 3, "[M, K, N]")) {
        const auto M = static_cast<std::size_t>(s[0]), K = static_cast<std::size_t>(s[1]),
                   N = static_cast<std::size_t>(s[2]);
        const auto rows = singles_and_pairs(in_a, K);
        const auto columns = matmul_columns(in_b, K);
        const std::string shape = shape_text(s);
        for (std::size_t r = 0; r < rows.size(); r += M)
            for (std::size_t c = 0; c < columns.size(); c += N)
                batches.push_back(matmul_call(context, cycle_of(rows, r, M), cycle_of(columns, c, N), K, shape));
    }
    return judge_special_batches(context, batches);
}

}  // namespace

harness::CaseResult special_values_matmul(harness::ProbeContext& context) { return judge_matmul(context); }

harness::CaseResult special_values_reduce_sum(harness::ProbeContext& context) {
    const SpecialValues s = special_values_of(formats_of(context.instance()).in);
    return judge_reduction(context, [&s](std::size_t length) { return singles_and_pairs(s, length); }, sum_of_rows);
}

harness::CaseResult special_values_reduce_max(harness::ProbeContext& context) {
    const SpecialValues s = special_values_of(formats_of(context.instance()).in);
    return judge_reduction(context, [&s](std::size_t length) { return reduce_max_lines(s, length); },
                           ref::reduce_max_oracle);
}

harness::CaseResult special_values_softmax(harness::ProbeContext& context) {
    const auto& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const SpecialValues s = special_values_of(f.in);
    const bool masked_row_zero = context.claims().at("masked_row") == "zero";
    std::vector<SpecialBatch> batches;
    const auto lines_of = [&](std::size_t length) { return softmax_lines(s, context.seed(), length); };
    for (const RowCall& call : row_calls(f, context, lines_of)) {
        const std::size_t length = call.length;
        const auto x_values = values(call.x);
        const auto oracle = ref::softmax_oracle(x_values, {call.lines.size(), length},
                                                masked_row_zero ? ref::MaskedRow::zero : ref::MaskedRow::nan);
        SpecialBatch batch{context.run(invocation(instance, {call.x}, call.x.shape))[0], {},
                           [x = call.x, length](std::size_t i) {
                               return depends_on_range("x", x, i / length * length, length);
                           }};
        for (std::size_t i = 0; i < oracle.value.size(); ++i) {
            const std::size_t r = i / length;
            const double m = oracle.row_max[r];
            SpecialExpectation expected = expectation_of(oracle.value[i]);
            if (m == -HUGE_VAL)
                expected = masked_row_zero ? SpecialExpectation::masked_row_zero : SpecialExpectation::masked_row_nan;
            else if (std::isfinite(m) && x_values[i] == -HUGE_VAL)
                expected = SpecialExpectation::masked_zero;  // the oracle's value there is +0
            batch.elements.push_back({i, expected, oracle.value[i], call.lines[r].label + " " + call.shape});
        }
        batches.push_back(std::move(batch));
    }
    return judge_special_batches(context, batches);
}

}  // namespace kcs::suites
