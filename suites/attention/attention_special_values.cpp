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
// each gets its own invocation. Every probe runs at each shape [S, T, D] of
// the `shapes` parameter: the Q probe's rows S to a call (cyclically), the
// others with S queries; V's six special columns D to a call.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "attention_problems.hpp"
#include "attention_probes.hpp"
#include "../exactness/exactness_common.hpp"
#include "kcs/reference/fill.hpp"
#include "kcs/reference/philox.hpp"
#include "kcs/suites/operator_io.hpp"
#include "../exactness/special_values_judge.hpp"

namespace kcs::suites {

namespace {

using namespace attention;
using namespace exactness;

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

// A probe shape: S queries, T keys, head dimension D.
struct Shape {
    std::int64_t queries, keys, head_dim;
    std::string text;
};

std::string position_name(std::int64_t i, std::int64_t n) {
    return i == 0 ? "first" : i == n - 1 ? "last" : "middle";
}

// First, middle and last of n, each once (a short axis has fewer).
std::vector<std::int64_t> positions(std::int64_t n) {
    std::vector<std::int64_t> out{0};
    for (const std::int64_t i : {n / 2, n - 1})
        if (i != out.back()) out.push_back(i);
    return out;
}

// A probe: one invocation and the label of each of its query rows.
struct Probe {
    std::string name;
    AttentionProblem problem;
    std::vector<std::string> row_labels;  // [S]; empty entries take the probe's name alone
};

AttentionProblem normal_problem(const harness::Instance& instance, const harness::Claims& claims, const Shape& shape,
                                std::uint64_t seed, bool causal) {
    const ref::Normal normal{0.0, 1.0};
    AttentionProblem p = drawn_problem(instance, claims, shape.queries, shape.keys, shape.head_dim, normal, normal, normal,
                                       seed, causal ? "causal" : "unmasked");
    p.causal = causal;
    return p;
}

void set(std::vector<double>& x, std::int64_t width, std::int64_t row, std::int64_t col, double value) {
    x[static_cast<std::size_t>(row * width + col)] = value;
}

// Q rows with one special at the first, middle or last head position, two
// pairs and a plain row, S rows to a call.
std::vector<Probe> query_probes(const harness::Instance& instance, const harness::Claims& claims, const Shape& shape,
                                std::uint64_t seed, bool causal) {
    struct Row {
        std::string label;
        std::vector<std::pair<std::int64_t, double>> entries;
    };
    const std::int64_t D = shape.head_dim;
    std::vector<Row> rows;
    for (const Special& s : specials())
        for (const std::int64_t d : positions(D)) rows.push_back({"Q " + s.name + " at " + position_name(d, D), {{d, s.value}}});
    if (D > 1) {  // pairs need two head positions
        rows.push_back({"Q +inf at first with -inf at last", {{0, kInf}, {D - 1, -kInf}}});
        const std::int64_t middle = D / 2 == D - 1 ? 0 : D / 2;
        rows.push_back({"Q NaN at " + position_name(middle, D) + " with +inf at last", {{middle, kNaN}, {D - 1, kInf}}});
    }
    rows.push_back({"normal(0, 1) only", {}});
    std::vector<Probe> probes;
    const auto S = static_cast<std::size_t>(shape.queries);
    for (std::size_t first = 0; first < rows.size(); first += S) {
        Probe probe{"Q specials " + shape.text, normal_problem(instance, claims, shape, seed, causal), {}};
        for (std::size_t s = 0; s < S; ++s) {
            const Row& row = rows[(first + s) % rows.size()];
            for (const auto& [d, v] : row.entries) set(probe.problem.q, D, static_cast<std::int64_t>(s), d, v);
            probe.row_labels.push_back(row.label);
        }
        probes.push_back(std::move(probe));
    }
    return probes;
}

// One special in K at (key t, head position t mod D); causal runs use key 0 only.
std::vector<Probe> key_probes(const harness::Instance& instance, const harness::Claims& claims, const Shape& shape,
                              std::uint64_t seed, bool causal) {
    std::vector<Probe> probes;
    const std::vector<std::int64_t> keys = causal ? std::vector<std::int64_t>{0} : positions(shape.keys);
    for (const Special& s : specials())
        for (const std::int64_t t : keys) {
            Probe p{"K " + s.name + " at key " + position_name(t, shape.keys) + " " + shape.text,
                    normal_problem(instance, claims, shape, seed, causal), {}};
            set(p.problem.k, shape.head_dim, t, t % shape.head_dim, s.value);
            probes.push_back(std::move(p));
        }
    return probes;
}

// Specials in V, one column each (columns are independent outputs), D
// columns to a call.
std::vector<Probe> value_probes(const harness::Instance& instance, const harness::Claims& claims, const Shape& shape,
                                std::uint64_t seed, bool causal) {
    struct Entry {
        std::int64_t key;
        double value;
    };
    const std::int64_t middle = causal ? 0 : shape.keys / 2, last = causal ? 0 : shape.keys - 1;
    std::vector<std::vector<Entry>> columns{{{0, kNaN}}, {{middle, -kNaN}}, {{last, kInf}}, {{0, -kInf}}};
    if (!causal && last != 0) {  // pairs need two keys every query sees; under the causal mask only key 0 is
        columns.push_back({{0, kInf}, {last, -kInf}});
        columns.push_back({{middle == last ? 0 : middle, kNaN}, {last, kInf}});
    }
    std::vector<Probe> probes;
    const auto D = static_cast<std::size_t>(shape.head_dim);
    for (std::size_t first = 0; first < columns.size(); first += D) {
        Probe p{"V specials " + shape.text, normal_problem(instance, claims, shape, seed, causal), {}};
        for (std::size_t c = first; c < std::min(columns.size(), first + D); ++c)
            for (const Entry& e : columns[c])
                set(p.problem.v, shape.head_dim, e.key, static_cast<std::int64_t>(c - first), e.value);
        probes.push_back(std::move(p));
    }
    return probes;
}

// Rows 1 and S - 1 (row 0 where S = 1) fully masked: Q[s, 0] = -inf against K[:, 0] in [0.5, 1].
Probe masked_row_probe(const harness::Instance& instance, const harness::Claims& claims, const Shape& shape,
                       std::uint64_t seed, bool causal) {
    Probe p{"fully masked rows " + shape.text, normal_problem(instance, claims, shape, seed, causal), {}};
    const auto column = ref::fill_values(float_format(instance.config.inputs.at(1)), ref::Uniform{0.5, 1.0},
                                         ref::TensorStream{seed, 1, kMaskKeyStream}, static_cast<std::size_t>(shape.keys));
    for (std::int64_t t = 0; t < shape.keys; ++t) set(p.problem.k, shape.head_dim, t, 0, column[static_cast<std::size_t>(t)]);
    for (const std::int64_t s : {1 % shape.queries, shape.queries - 1}) set(p.problem.q, shape.head_dim, s, 0, -kInf);
    return p;
}

SpecialBatch run_probe(harness::ProbeContext& context, const Probe& probe, ref::MaskedRow masked_row) {
    const harness::Instance& instance = context.instance();
    const AttentionProblem& p = probe.problem;
    const ref::AttentionResult oracle = attention_reference(instance, p, masked_row);
    SpecialBatch batch{run_attention(context, p), {}, {}};
    const std::string mode = p.causal ? " (causal)" : "";
    for (std::size_t i = 0; i < oracle.value.size(); ++i) {
        const std::size_t s = i / static_cast<std::size_t>(p.head_dim);
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
    const auto append = [&probes](std::vector<Probe> more) {
        for (Probe& p : more) probes.push_back(std::move(p));
    };
    // The causal half runs where the adapter offers the mask (the support phase).
    const bool causal_offered = !context.declined(declared_attention(instance, true));
    for (const auto& s : probe_shapes(instance, 3, "[S, T, D]")) {
        const Shape shape{s[0], s[1], s[2], shape_text(s)};
        for (const bool causal : {false, true}) {
            if (causal && !causal_offered) continue;
            append(query_probes(instance, context.claims(), shape, context.seed(), causal));
            append(key_probes(instance, context.claims(), shape, context.seed(), causal));
            append(value_probes(instance, context.claims(), shape, context.seed(), causal));
            probes.push_back(masked_row_probe(instance, context.claims(), shape, context.seed(), causal));
        }
    }
    std::vector<SpecialBatch> batches;
    for (Probe& p : probes) {
        fit_to_inputs(instance, p.problem);
        batches.push_back(run_probe(context, p, masked_row));
    }
    return judge_special_batches(context, batches);
}

std::vector<harness::Invocation> attention_special_value_forms(const harness::Instance& instance) {
    return {declared_attention(instance, false), declared_attention(instance, true)};
}

}  // namespace kcs::suites
