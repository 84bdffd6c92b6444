// gather is a copy. Two classes judge it, with the same protocol on
// different tables:
//   C-EXC-01 (NaN and Inf propagation): table rows holding the nans,
//     infinities, zeros and snans special values (payloads included) at
//     the first, middle and last columns, judged as the class judges every
//     operator (special_values_judge.hpp) and, the definition being a copy,
//     bit for bit: a NaN quieted or a zero of the other sign is not_a_copy;
//   C-CMP-02 (subnormal handling): table rows holding the subnormals set
//     and subnormals drawn at random. A copy has y_flush = y_pres, so under
//     either subnormals claim every element must equal it bitwise.
// Every other element is normal(0, 1); the random subnormals' trailing
// bits come from stream 2^16 + 1 of the table. The indices gather every row
// once in the order of permutation 0 (SPEC.md section 4), then every row
// again in order. One table at each row length [C] of the `shapes`
// parameter.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "../tolerance/bitwise_equal.hpp"
#include "../ordering/gather_problems.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/reference/permutation.hpp"
#include "kcs/reference/special_values.hpp"
#include "kcs/suites/operator_io.hpp"
#include "exactness_common.hpp"
#include "exactness_probes.hpp"
#include "special_values_judge.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using harness::HostTensor;

// The table: rows of C columns holding the given values, each row one value
// at the first, middle and last columns, the rest normal(0, 1) as drawn.
GatherProblem special_table(const harness::Instance& instance, const std::vector<std::uint32_t>& values,
                            std::int64_t columns, std::uint64_t seed) {
    const std::int64_t rows = std::max<std::int64_t>(1, static_cast<std::int64_t>(values.size()));
    GatherProblem p = draw_gather(instance, {rows, columns, 2 * rows}, seed);
    for (std::int64_t r = 0; r < static_cast<std::int64_t>(values.size()); ++r)
        for (const std::int64_t c : {std::int64_t{0}, columns / 2, columns - 1})
            p.table.set_bits(static_cast<std::size_t>(r * columns + c), values[static_cast<std::size_t>(r)]);
    // Every row once in a seeded order, then every row again in order.
    const auto order = ref::permutation(seed, static_cast<std::uint64_t>(rows), 0);
    p.index.clear();
    for (const auto r : order) p.index.push_back(static_cast<std::int64_t>(r));
    for (std::int64_t r = 0; r < rows; ++r) p.index.push_back(r);
    return p;
}

// C-CMP-02: a subnormal copied as zero is a subnormal input read as zero.
std::string subnormal_signature(double expected, double got) {
    return expected != 0 && std::fpclassify(expected) != FP_NAN && got == 0 ? "daz" : "unmatched";
}

// The evidence of gathered element i: its index and its table element.
std::vector<std::string> copy_inputs(const GatherProblem& p, ref::Format format, std::uint64_t want, std::size_t i) {
    const std::size_t position = i / static_cast<std::size_t>(p.shape.columns);
    return {"index[" + std::to_string(position) + "]=" + std::to_string(p.index[position]),
            "table element " + hex(format, static_cast<std::uint32_t>(want))};
}

// The tables of `values` at every row length [C] of the `shapes` parameter.
std::vector<GatherProblem> special_tables(const harness::Instance& instance, const std::vector<std::uint32_t>& values,
                                          std::uint64_t seed) {
    std::vector<GatherProblem> out;
    for (const auto& shape : probe_shapes(instance, 1, "[C]")) out.push_back(special_table(instance, values, shape[0], seed));
    return out;
}

// The first element not copied bit for bit: its table, index, output and bits.
struct FirstDifference {
    const GatherProblem* problem;
    std::size_t index;
    HostTensor out, want;
};

harness::CaseResult judge_subnormal_copy(harness::ProbeContext& context, const std::vector<GatherProblem>& problems) {
    const harness::Instance& instance = context.instance();
    const ref::Format format = float_format(instance.config.output);
    std::size_t differing = 0, elements = 0;
    std::optional<FirstDifference> first;
    nlohmann::json columns = nlohmann::json::array();
    for (const GatherProblem& p : problems) {
        HostTensor out = context.run(gather_call(instance, p, p.index))[0];
        HostTensor want = gathered(p);
        const auto c = tolerance::compare_bitwise(tolerance::whole(want), tolerance::whole(out));
        elements += c.compared;
        columns.push_back(p.shape.columns);
        if (!c.equal() && differing == 0) first = FirstDifference{&p, c.differences.front().element, out, want};
        differing += c.differing;
    }

    harness::Evidence evidence;
    evidence.figure_name = harness::figures::miscopied_elements.name;
    evidence.figure = static_cast<double>(differing);
    evidence.bound = 0;
    evidence.details["bound"] = model_citation(*instance.contract);
    evidence.details["elements"] = elements;
    evidence.details["table_rows"] = problems.front().shape.rows;
    evidence.details["table_columns"] = columns;
    evidence.judged = {elements, "elements"};
    const std::string summary = std::to_string(elements) + " gathered elements";
    if (!first) return passed(instance, summary + ", every one the table's bits", std::move(evidence));

    const std::size_t i = first->index;
    const std::uint64_t want = first->want.bits(i);
    const double expected = ref::decode(format, static_cast<std::uint32_t>(want));
    harness::WorstElement w;
    w.index = static_cast<std::int64_t>(i);
    w.inputs = copy_inputs(*first->problem, format, want, i);
    w.expected = expected;
    w.got = first->out.value(i);
    w.got_bits = hex_bits(first->out, i);
    w.error = std::isnan(w.got) || std::isnan(expected) ? INFINITY : std::fabs(w.got - expected);
    w.bound = 0;
    evidence.worst = w;
    return failed(instance, subnormal_signature(expected, w.got),
                  summary + ": " + std::to_string(differing) + " differ from the table; the first, element " +
                      std::to_string(i) + " of the table of " + std::to_string(first->problem->shape.columns) +
                      " columns, is " + w.got_bits + " for " + hex(format, static_cast<std::uint32_t>(want)),
                  std::move(evidence));
}

}  // namespace

harness::CaseResult special_values_gather(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    const ref::Format f = float_format(instance.config.output);
    std::vector<std::uint32_t> values;
    for (const char* subset : {"nans", "infinities", "zeros", "snans"})
        for (const auto bits : ref::special_subset(f, subset)) values.push_back(bits);
    std::vector<SpecialBatch> batches;
    for (const GatherProblem& p : special_tables(instance, values, context.seed())) {
        const std::vector<std::uint64_t> want = gathered_bits(p);
        SpecialBatch batch{context.run(gather_call(instance, p, p.index))[0], {},
                           [p, f, want](std::size_t i) { return copy_inputs(p, f, want[i], i); }};
        const std::string columns = " [C = " + std::to_string(p.shape.columns) + "]";
        for (std::size_t i = 0; i < want.size(); ++i) {
            const double v = ref::decode(f, static_cast<std::uint32_t>(want[i]));
            const std::size_t position = i / static_cast<std::size_t>(p.shape.columns);
            batch.elements.push_back(
                {i, expectation_of(v), v, "table row " + std::to_string(p.index[position]) + " gathered" + columns,
                 static_cast<std::uint32_t>(want[i])});
        }
        batches.push_back(std::move(batch));
    }
    return judge_special_batches(context, batches);
}

harness::CaseResult subnormal_handling_gather(harness::ProbeContext& context) {
    const ref::Format f = float_format(context.instance().config.output);
    std::vector<std::uint32_t> values = ref::special_subset(f, "subnormals");
    // Subnormals drawn at random: every trailing-significand pattern is one.
    const auto trailing = draw_integers(context.seed(), 0, ref::auxiliary_stream(1), 0, 16, 1,
                                        f == ref::Format::f32 ? (1 << 23) - 1 : f == ref::Format::f16 ? 1023 : 127);
    const std::uint32_t sign = f == ref::Format::f32 ? 0x80000000u : 0x8000u;
    for (std::size_t k = 0; k < trailing.size(); ++k)
        values.push_back(static_cast<std::uint32_t>(trailing[k]) | (k % 2 ? sign : 0u));
    return judge_subnormal_copy(context, special_tables(context.instance(), values, context.seed()));
}

}  // namespace kcs::suites
