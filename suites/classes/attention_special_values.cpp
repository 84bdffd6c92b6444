// C-EXC-01 NaN and Inf propagation (spec/v1/classes/C-EXC-01.yaml) for
// attention. The protocol's attention probes: NaN and infinities in Q, K and
// V (at unmasked keys), and fully masked rows made by Q[s, 0] = -inf against
// K[:, 0] from uniform(0.5, 1) (stream 2^16 + 1), so that every score of row
// s is -inf. Every probe also runs under causal masking, where the
// precondition admits specials in K and V only at key 0, which every query
// sees. Other entries are normal(0, 1). The oracle (IEEE 754 in f64) gives
// each element's class; fully masked rows must be the masked_row claim.
//
// Special values in Q act on their own query row, in V on their own column,
// so one invocation carries many of them; one in K reaches every query, so
// each gets its own invocation.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attention_problems.hpp"
#include "attention_probes.hpp"
#include "kcs/reference/fill.hpp"
#include "kcs/reference/philox.hpp"
#include "kcs/suites/operator_io.hpp"
#include "special_values_judge.hpp"

namespace kcs::suites {

namespace {

using namespace attention;
using namespace exactness;

constexpr std::int64_t kKeys = 17;   // first, middle (8) and last positions distinct
constexpr std::int64_t kHeadDim = 8;
constexpr std::int64_t kQueries = 4;  // queries of the K and V probes
constexpr std::uint32_t kMaskKeyStream = ref::auxiliary_stream(1);  // stream 2^16 + 1

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

struct Special {
    std::string name;
    double value;
};

const std::vector<Special>& specials() {
    static const std::vector<Special> all{{"+qNaN", kNaN}, {"-qNaN", -kNaN}, {"+inf", kInf}, {"-inf", -kInf}};
    return all;
}

std::string position_name(std::int64_t i, std::int64_t n) {
    return i == 0 ? "first" : i == n - 1 ? "last" : "middle";
}

// A probe: one invocation and the label of each of its query rows.
struct Probe {
    std::string name;
    AttentionProblem problem;
    std::vector<std::string> row_labels;  // [S]; empty entries take the probe's name alone
};

AttentionProblem normal_problem(const harness::Instance& instance, const harness::Claims& claims, std::int64_t queries,
                                std::uint64_t seed, bool causal) {
    const ref::Normal normal{0.0, 1.0};
    AttentionProblem p = drawn_problem(instance, claims, queries, kKeys, kHeadDim, normal, normal, normal, seed,
                                       causal ? "causal" : "unmasked");
    p.causal = causal;
    return p;
}

void set(std::vector<double>& x, std::int64_t row, std::int64_t col, double value) {
    x[static_cast<std::size_t>(row * kHeadDim + col)] = value;
}

// Q rows with one special at the first, middle or last head position, two pairs and a plain row.
Probe query_probe(const harness::Instance& instance, const harness::Claims& claims, std::uint64_t seed, bool causal) {
    struct Row {
        std::string label;
        std::vector<std::pair<std::int64_t, double>> entries;
    };
    std::vector<Row> rows;
    for (const Special& s : specials())
        for (const std::int64_t d : {std::int64_t{0}, kHeadDim / 2, kHeadDim - 1})
            rows.push_back({"Q " + s.name + " at " + position_name(d, kHeadDim), {{d, s.value}}});
    rows.push_back({"Q +inf at first with -inf at last", {{0, kInf}, {kHeadDim - 1, -kInf}}});
    rows.push_back({"Q NaN at middle with +inf at last", {{kHeadDim / 2, kNaN}, {kHeadDim - 1, kInf}}});
    rows.push_back({"normal(0, 1) only", {}});
    Probe probe{"Q specials", normal_problem(instance, claims, static_cast<std::int64_t>(rows.size()), seed, causal), {}};
    for (std::size_t s = 0; s < rows.size(); ++s) {
        for (const auto& [d, v] : rows[s].entries) set(probe.problem.q, static_cast<std::int64_t>(s), d, v);
        probe.row_labels.push_back(rows[s].label);
    }
    return probe;
}

// One special in K at (key t, head position t mod D); causal runs use key 0 only.
std::vector<Probe> key_probes(const harness::Instance& instance, const harness::Claims& claims, std::uint64_t seed, bool causal) {
    std::vector<Probe> probes;
    const std::vector<std::int64_t> keys = causal ? std::vector<std::int64_t>{0}
                                                  : std::vector<std::int64_t>{0, kKeys / 2, kKeys - 1};
    for (const Special& s : specials())
        for (const std::int64_t t : keys) {
            Probe p{"K " + s.name + " at key " + position_name(t, kKeys), normal_problem(instance, claims, kQueries, seed, causal),
                    {}};
            set(p.problem.k, t, t % kHeadDim, s.value);
            probes.push_back(std::move(p));
        }
    return probes;
}

// Specials in V, one column each (columns are independent outputs).
Probe value_probe(const harness::Instance& instance, const harness::Claims& claims, std::uint64_t seed, bool causal) {
    Probe p{"V specials", normal_problem(instance, claims, kQueries, seed, causal), {}};
    const std::int64_t middle = causal ? 0 : kKeys / 2, last = causal ? 0 : kKeys - 1;
    set(p.problem.v, 0, 0, kNaN);
    set(p.problem.v, middle, 1, -kNaN);
    set(p.problem.v, last, 2, kInf);
    set(p.problem.v, 0, 3, -kInf);
    if (!causal) {  // pairs need two keys every query sees; under the causal mask only key 0 is
        set(p.problem.v, 0, 4, kInf);
        set(p.problem.v, last, 4, -kInf);
        set(p.problem.v, middle, 5, kNaN);
        set(p.problem.v, last, 5, kInf);
    }
    return p;
}

// Rows 1 and 3 fully masked: Q[s, 0] = -inf against K[:, 0] in [0.5, 1].
Probe masked_row_probe(const harness::Instance& instance, const harness::Claims& claims, std::uint64_t seed, bool causal) {
    Probe p{"fully masked rows", normal_problem(instance, claims, kQueries, seed, causal), {}};
    const auto column = ref::fill_values(float_format(instance.config.inputs.at(1)), ref::Uniform{0.5, 1.0},
                                         ref::TensorStream{seed, 1, kMaskKeyStream}, static_cast<std::size_t>(kKeys));
    for (std::int64_t t = 0; t < kKeys; ++t) set(p.problem.k, t, 0, column[static_cast<std::size_t>(t)]);
    for (const std::int64_t s : {1, 3}) set(p.problem.q, s, 0, -kInf);
    return p;
}

SpecialBatch run_probe(harness::ProbeContext& context, const Probe& probe, ref::MaskedRow masked_row) {
    const harness::Instance& instance = context.instance();
    const AttentionProblem& p = probe.problem;
    const ref::AttentionResult oracle = attention_reference(instance, p, masked_row);
    SpecialBatch batch{run_attention(context, p), {}, {}};
    const std::string mode = p.causal ? " (causal)" : "";
    for (std::size_t i = 0; i < oracle.value.size(); ++i) {
        const std::size_t s = i / static_cast<std::size_t>(kHeadDim);
        SpecialExpectation expected = expectation_of(oracle.value[i]);
        if (oracle.score_max[s] == -kInf)
            expected = masked_row == ref::MaskedRow::zero ? SpecialExpectation::masked_row_zero
                                                          : SpecialExpectation::masked_row_nan;
        const std::string row = s < probe.row_labels.size() ? ": " + probe.row_labels[s] : "";
        batch.elements.push_back({i, expected, oracle.value[i], probe.name + mode + row});
    }
    batch.inputs_of = [&instance, p](std::size_t i) { return attention_inputs(instance, p, i); };
    return batch;
}

}  // namespace

harness::CaseResult attention_special_values(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    const ref::MaskedRow masked_row =
        context.claims().at("masked_row") == "zero" ? ref::MaskedRow::zero : ref::MaskedRow::nan;
    std::vector<Probe> probes;
    for (const bool causal : {false, true}) {
        probes.push_back(query_probe(instance, context.claims(), context.seed(), causal));
        for (Probe& p : key_probes(instance, context.claims(), context.seed(), causal)) probes.push_back(std::move(p));
        probes.push_back(value_probe(instance, context.claims(), context.seed(), causal));
        probes.push_back(masked_row_probe(instance, context.claims(), context.seed(), causal));
    }
    std::vector<SpecialBatch> batches;
    for (Probe& p : probes) {
        fit_to_inputs(instance, p.problem);
        batches.push_back(run_probe(context, p, masked_row));
    }
    return judge_special_batches(context, batches);
}

}  // namespace kcs::suites
