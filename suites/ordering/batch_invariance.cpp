// C-ORD-03 Batch invariance (spec/v1/classes/C-ORD-03.yaml), for every
// operator row_problems.hpp knows (for matmul the batch is the M rows of A,
// with B fixed). One test row, computed alone twice (the reference), then
// at the first, middle and last position of batches of every size in
// batch_sizes whose other rows are filled three ways; the test row's output
// must equal the reference bit for bit every time (bitwise_equal). Then
// every row of a pool of distinct rows, each computed alone once, in
// batches of every size: a change that rounding hides in all but 1 element
// of 20000 needs that many distinct comparisons (the tolerance's power);
// with fewer and no change seen the verdict is INCONCLUSIVE. A tolerance
// that states no power (release 1.0.0's) asks for no pool step.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "kcs/harness/figures.hpp"
#include "kcs/reference/parse_distribution.hpp"
#include "kcs/spec/tolerance_models.hpp"
#include "kcs/suites/operator_io.hpp"
#include "ordering_probes.hpp"
#include "ordering_results.hpp"
#include "row_problems.hpp"

namespace kcs::suites {

namespace {

// Every comparison of the class sets one call against another and takes
// it that the same call gives the same output: a kernel that is not
// run-to-run deterministic (C-ORD-02) changes rows whatever the batch, so
// the FAIL assumes that class (SPEC.md section 5, "Primary cause").
harness::CaseResult run_to_run_assumed(harness::CaseResult result) {
    result.assumes = {"C-ORD-02"};
    return result;
}

using tolerance::BitwiseComparison;

// Protocol step 1: the test row and the other operands "from normal(0, 1)".
constexpr std::string_view kValues = "normal(0,1)";

// Protocol step 2: "the other rows filled three ways: normal(0, 1) from
// another seed, constant(0), and normal(0, 1e4)".
struct Filling {
    std::string_view name;
    std::string_view distribution;
};
constexpr Filling kFillings[] = {
    {"normal(0,1), another seed", "normal(0,1)"},
    {"constant(0)", "constant(0)"},
    {"normal(0,1e4), another seed", "normal(0,1e4)"},
};
// A batch of one has no other rows to fill.
constexpr std::string_view kNoOtherRows = "none (batch of one)";

// Protocol step 2: "positions 0, b - 1 and floor(b / 2)", each once.
std::vector<std::int64_t> positions(std::int64_t b) {
    std::vector<std::int64_t> out{0};
    for (const std::int64_t p : {b - 1, b / 2})
        if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
    return out;
}

// The test row's output row within a run's output.
struct OutputRow {
    const harness::HostTensor* output = nullptr;
    std::size_t first = 0;
    std::size_t count = 0;

    std::vector<std::uint64_t> bits() const {
        std::vector<std::uint64_t> out(count);
        for (std::size_t i = 0; i < count; ++i) out[i] = output->bits(first + i);
        return out;
    }
};

// What the pool step saw (protocol step "every row of every batch size").
struct PoolChange {
    std::int64_t batch_size = 0;
    std::int64_t pool_row = 0;
    std::int64_t position = 0;  // within its batch
    BitwiseComparison result;
    harness::WorstElement worst;
};
struct PoolResult {
    spec::RequiredPower power;         // the class's, from its tolerance
    std::int64_t rows = 0;             // P, each computed alone once
    std::uint64_t outputs_per_row = 0;
    std::string row_shape;             // one pool row, as the operator writes shapes
    std::uint64_t distinct_elements = 0;  // P x outputs per row, when some batch size >= 2 ran
    std::uint64_t compared = 0;        // every comparison, over all batch sizes
    spec::Json by_batch = spec::Json::array();
    std::optional<PoolChange> first_change;  // the most differing elements of one row
    std::size_t changed_rows = 0;

    double detection_probability() const {
        return spec::detection_probability(power.detectable_rate, distinct_elements);
    }
};

// One batch run compared with the reference.
struct Comparison {
    std::int64_t batch_size = 0;
    std::int64_t position = 0;
    std::string filling;
    BitwiseComparison result;
    std::vector<std::uint64_t> row_bits;  // the test row's output in this run
    std::optional<harness::WorstElement> worst;
};

class BatchInvariance {
public:
    explicit BatchInvariance(harness::ProbeContext& context)
        : context_(context), instance_(context.instance()), op_(instance_) {
        // Step 1: one test row of the functional test's shape, and the operands every row shares.
        const ref::Distribution values = ref::parse_distribution(kValues);
        const ProblemShape full = op_.functional_test_shape(context.catalog());
        row_shape_ = {1, full.length, full.columns};
        test_row_ = op_.row_operand(row_shape_, values, context.seed());
        shared_ = op_.shared_operands(row_shape_, values, context.seed());
        width_ = static_cast<std::size_t>(op_.outputs_per_row(row_shape_));
        output_dtype_ = abi_dtype(instance_.config.output);
    }

    harness::CaseResult measure() {
        // Step 1: the row alone, twice; the two must agree and are the reference.
        const RowProblem alone = op_.make(row_shape_, test_row_, shared_);
        const harness::HostTensor reference = context_.run(alone.invocation)[0];
        const harness::HostTensor again = context_.run(alone.invocation)[0];
        const auto repeat = tolerance::compare_bitwise(tolerance::whole(reference), tolerance::whole(again));
        if (!repeat.equal()) return unstable_reference(alone, reference, again, repeat);

        // Steps 2-4: every batch size, position and filling.
        std::vector<Comparison> comparisons;
        for (const std::int64_t b : context_.int_list("batch_sizes")) {
            for (const std::int64_t p : positions(b)) {
                if (b == 1) {
                    comparisons.push_back(compare(reference, b, p, kNoOtherRows, nullptr));
                    continue;
                }
                for (const Filling& filling : kFillings) {
                    const ref::Distribution d = ref::parse_distribution(filling.distribution);
                    comparisons.push_back(compare(reference, b, p, filling.name, &d));
                }
            }
        }
        return judge(comparisons, pool_step());
    }

private:
    // Rows [first, first + count) of `pool` (wrapping to its start) as one row operand.
    harness::HostTensor pool_rows(const harness::HostTensor& pool, const ProblemShape& row, std::int64_t pool_size,
                                  std::int64_t first, std::int64_t count) const {
        const ProblemShape shape{count, row.length, row.columns};
        harness::HostTensor rows = op_.row_operand(shape, ref::parse_distribution("constant(0)"), context_.seed());
        const std::size_t row_bytes = rows.bytes.size() / static_cast<std::size_t>(count);
        for (std::int64_t i = 0; i < count; ++i)
            std::memcpy(rows.bytes.data() + static_cast<std::size_t>(i) * row_bytes,
                        pool.bytes.data() + static_cast<std::size_t>((first + i) % pool_size) * row_bytes, row_bytes);
        return rows;
    }

    // The pool's rows have pool_shape's other dimensions (wider than the
    // test row where that is cheaper: fewer rows, each computed alone, for
    // the same distinct elements) and as many rows as the power needs, at
    // most pool_shape's first dimension. None when the tolerance states no power.
    std::optional<PoolResult> pool_step() {
        const auto power = spec::required_power(instance_.contract->tolerance);
        if (!power) return std::nullopt;
        PoolResult r;
        r.power = *power;
        const ProblemShape most = op_.shape(context_.int_list("pool_shape"));
        const ProblemShape row{1, most.length, most.columns};
        const auto width = static_cast<std::uint64_t>(op_.outputs_per_row(row));
        r.rows = std::min(static_cast<std::int64_t>((power->elements + width - 1) / width), most.rows);
        r.outputs_per_row = width;
        r.row_shape = op_.describe(row);
        const ref::Distribution values = ref::parse_distribution(kValues);
        const std::uint64_t seed = previous_seed(context_.seed());
        const harness::HostTensor pool = op_.row_operand({r.rows, row.length, row.columns}, values, seed);
        const std::vector<harness::HostTensor> shared = op_.shared_operands(row, values, seed);
        std::vector<harness::HostTensor> alone;
        alone.reserve(static_cast<std::size_t>(r.rows));
        for (std::int64_t i = 0; i < r.rows; ++i)
            alone.push_back(context_.run(op_.make(row, pool_rows(pool, row, r.rows, i, 1), shared).invocation)[0]);
        std::vector<bool> changed(static_cast<std::size_t>(r.rows), false);
        for (const std::int64_t b : context_.int_list("batch_sizes")) {
            if (b < 2) continue;
            std::uint64_t differing = 0, compared = 0;
            for (std::int64_t start = 0; start < r.rows; start += b) {
                const RowProblem problem =
                    op_.make({b, row.length, row.columns}, pool_rows(pool, row, r.rows, start, b), shared);
                const harness::HostTensor output = context_.run(problem.invocation)[0];
                for (std::int64_t p = 0; p < b; ++p) {
                    const std::int64_t pool_row = (start + p) % r.rows;
                    const harness::HostTensor& reference = alone[static_cast<std::size_t>(pool_row)];
                    const std::size_t first = static_cast<std::size_t>(p) * width;
                    auto c = tolerance::compare_bitwise(tolerance::whole(reference), {&output, first, width});
                    compared += c.compared;
                    differing += c.differing;
                    if (c.equal()) continue;
                    changed[static_cast<std::size_t>(pool_row)] = true;
                    if (r.first_change && r.first_change->result.differing >= c.differing) continue;
                    const std::size_t j = c.widest.element;
                    auto worst = differing_element(c.widest, reference, j, output, first + j, first + j,
                                                   op_.dependencies(problem, first + j));
                    r.first_change = PoolChange{b, pool_row, p, std::move(c), std::move(worst)};
                }
            }
            r.compared += compared;
            r.by_batch.push_back({{"batch_size", b}, {"elements_compared", compared}, {"differing_elements", differing}});
        }
        r.changed_rows = static_cast<std::size_t>(std::count(changed.begin(), changed.end(), true));
        // Each pool row was compared with its alone value in a batch of 2 or more, if any ran.
        if (!r.by_batch.empty()) r.distinct_elements = static_cast<std::uint64_t>(r.rows) * width;
        return r;
    }

    // A batch of b rows from `filling` (another seed) with the test row at p.
    RowProblem batch(std::int64_t b, std::int64_t p, const ref::Distribution* filling) const {
        const ProblemShape shape{b, row_shape_.length, row_shape_.columns};
        harness::HostTensor rows = filling ? op_.row_operand(shape, *filling, previous_seed(context_.seed()))
                                           : test_row_;
        const std::size_t row_bytes = test_row_.bytes.size();
        std::memcpy(rows.bytes.data() + static_cast<std::size_t>(p) * row_bytes, test_row_.bytes.data(), row_bytes);
        return op_.make(shape, std::move(rows), shared_);
    }

    Comparison compare(const harness::HostTensor& reference, std::int64_t b, std::int64_t p, std::string_view filling,
                       const ref::Distribution* d) {
        const RowProblem problem = batch(b, p, d);
        const harness::HostTensor output = context_.run(problem.invocation)[0];
        const OutputRow row{&output, static_cast<std::size_t>(p) * width_, width_};
        Comparison c{b, p, std::string(filling),
                     tolerance::compare_bitwise(tolerance::whole(reference), {&output, row.first, row.count}),
                     row.bits(), std::nullopt};
        if (!c.result.equal()) {
            const std::size_t j = c.result.widest.element;
            c.worst = differing_element(c.result.widest, reference, j, output, row.first + j, row.first + j,
                                        op_.dependencies(problem, row.first + j));
        }
        return c;
    }

    harness::CaseResult unstable_reference(const RowProblem& alone, const harness::HostTensor& reference,
                                           const harness::HostTensor& again, const BitwiseComparison& repeat) const {
        harness::Evidence evidence = base_evidence(static_cast<double>(repeat.differing));
        const std::size_t j = repeat.widest.element;
        evidence.worst = differing_element(repeat.widest, reference, j, again, j, j, op_.dependencies(alone, j));
        evidence.details["differences"] = differences_json(repeat, reference.dtype, 0);
        // A batch of one is a batch, but no signature of the class names a
        // row that changes between two identical calls: that is C-ORD-02's
        // evidence, so the match is left open.
        return run_to_run_assumed(failed(instance_, "unmatched",
                      "the test row computed alone twice gives two outputs (" + std::to_string(repeat.differing) +
                          " of " + std::to_string(repeat.compared) + " elements differ): no reference to compare with",
                      std::move(evidence)));
    }

    harness::Evidence base_evidence(double figure) const {
        harness::Evidence evidence;
        evidence.figure_name = harness::figures::differing_elements.name;
        evidence.figure = figure;
        evidence.bound = 0;
        evidence.details["row_shape"] = op_.describe(row_shape_);
        evidence.details["outputs_per_row"] = width_;
        return evidence;
    }

    harness::CaseResult judge(const std::vector<Comparison>& comparisons, const std::optional<PoolResult>& pool_run) const;

    harness::ProbeContext& context_;
    const harness::Instance& instance_;
    RowOperator op_;
    ProblemShape row_shape_;
    harness::HostTensor test_row_;
    std::vector<harness::HostTensor> shared_;
    std::size_t width_ = 0;
    kcs_dtype output_dtype_ = KCS_DTYPE_F32;
};

// Does the row's output vary within some group of comparisons that share
// `same` (batch size and position, or batch size and filling)?
template <class Key>
bool varies_within(const std::vector<Comparison>& comparisons, Key same) {
    for (const auto& a : comparisons)
        for (const auto& b : comparisons)
            if (same(a, b) && a.row_bits != b.row_bits) return true;
    return false;
}

// Signature, most specific first: for a fixed batch size and position the
// row follows the other rows' contents; for a fixed batch size and filling
// it follows the position; otherwise it follows the batch size alone.
std::string signature_of(const std::vector<Comparison>& comparisons) {
    if (varies_within(comparisons, [](const Comparison& a, const Comparison& b) {
            return a.batch_size == b.batch_size && a.position == b.position;
        }))
        return "row-changes-with-neighbours";
    if (varies_within(comparisons, [](const Comparison& a, const Comparison& b) {
            return a.batch_size == b.batch_size && a.filling == b.filling;
        }))
        return "row-changes-with-position";
    return "row-changes-with-batch";
}

// One comparison as evidence: where it ran and how many elements differ;
// the differences themselves are kept for the worst comparison only.
spec::Json comparison_json(const Comparison& c) {
    return {{"batch_size", c.batch_size},
            {"position", c.position},
            {"filling", c.filling},
            {"differing_elements", c.result.differing}};
}

// A probability as a reader writes it: 0.0032, 0.99.
std::string probability_text(double p) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2g", p);
    return buffer;
}

// The pool step as evidence, with the power it reached against the one the class requires.
spec::Json pool_json(const PoolResult& pool) {
    const spec::RequiredPower& power = pool.power;
    return {{"rows", pool.rows},
            {"row_shape", pool.row_shape},
            {"outputs_per_row", pool.outputs_per_row},
            {"by_batch", pool.by_batch},
            {"changed_rows", pool.changed_rows},
            {"power",
             {{"distinct_elements", pool.distinct_elements},
              {"required_elements", power.elements},
              {"detectable_rate", power.detectable_rate},
              {"detection_probability", pool.detection_probability()},
              {"required_probability", power.detection_probability}}}};
}

harness::CaseResult BatchInvariance::judge(const std::vector<Comparison>& comparisons,
                                           const std::optional<PoolResult>& pool_run) const {
    const PoolResult pool = pool_run.value_or(PoolResult{});  // without a pool step: no rows, no power required
    const Comparison* worst = nullptr;
    std::size_t mismatches = 0;
    for (const auto& c : comparisons) {
        if (c.result.equal()) continue;
        ++mismatches;
        if (!worst || c.result.differing > worst->result.differing) worst = &c;
    }
    const spec::RequiredPower& power = pool.power;
    const double pool_worst = pool.first_change ? static_cast<double>(pool.first_change->result.differing) : 0;
    harness::Evidence evidence =
        base_evidence(std::max(worst ? static_cast<double>(worst->result.differing) : 0, pool_worst));
    evidence.details["comparisons"] = spec::Json::array();
    for (const auto& c : comparisons) {
        evidence.details["comparisons"].push_back(comparison_json(c));
        evidence.judged.count += c.result.compared;
    }
    evidence.details["pool"] = pool_run ? pool_json(pool) : spec::Json();
    evidence.judged.count += pool.compared;
    evidence.judged.unit = "elements compared";
    const std::string summary = std::to_string(mismatches) + " of " + std::to_string(comparisons.size()) +
                                " batch runs change the test row's output" +
                                (pool_run ? "; " + std::to_string(pool.changed_rows) + " of " + std::to_string(pool.rows) +
                                                " pool rows change in some batch"
                                          : std::string("; no pool step (the tolerance states no power)"));
    if (!worst && !pool.first_change) {
        if (pool.distinct_elements >= power.elements) return passed(instance_, summary, std::move(evidence));
        harness::CaseResult r = passed(instance_, summary, std::move(evidence));
        r.verdict = harness::Verdict::inconclusive;
        r.message = summary + ", but " + std::to_string(pool.distinct_elements) +
                    " distinct elements compared see a change of 1 in " +
                    std::to_string(std::llround(1 / power.detectable_rate)) + " only with probability " +
                    probability_text(pool.detection_probability()) +
                    " (the class requires " + probability_text(power.detection_probability) + ", " +
                    std::to_string(power.elements) + " elements: pool_shape at this depth has too few rows)";
        return r;
    }
    if (!worst) {
        // Only the pool saw it: a row alone and in a batch differ, which is
        // the batch's doing whatever the position or the other rows.
        const PoolChange& c = *pool.first_change;
        evidence.worst = c.worst;
        evidence.details["differences"] =
            differences_json(c.result, output_dtype_, static_cast<std::size_t>(c.position) * pool.outputs_per_row);
        evidence.details["pattern"] = "row-changes-with-batch";
        return run_to_run_assumed(failed(instance_, "row-changes-with-batch",
                      summary + "; the most at batch size " + std::to_string(c.batch_size) + ", pool row " +
                          std::to_string(c.pool_row) + " at position " + std::to_string(c.position) + ": " +
                          std::to_string(c.result.differing) + " of " + std::to_string(c.result.compared) +
                          " elements",
                      std::move(evidence)));
    }

    evidence.worst = worst->worst;
    const std::size_t row_start = static_cast<std::size_t>(worst->position) * width_;
    evidence.details["differences"] = differences_json(worst->result, output_dtype_, row_start);
    const std::string signature = signature_of(comparisons);
    evidence.details["pattern"] = signature;
    return run_to_run_assumed(failed(instance_, signature,
                  summary + "; the most at batch size " + std::to_string(worst->batch_size) + ", position " +
                      std::to_string(worst->position) + ", other rows " + worst->filling + ": " +
                      std::to_string(worst->result.differing) + " of " + std::to_string(worst->result.compared) +
                      " elements",
                  std::move(evidence)));
}

}  // namespace

harness::CaseResult batch_invariance_probe(harness::ProbeContext& context) {
    BatchInvariance probe(context);
    return probe.measure();
}

}  // namespace kcs::suites
