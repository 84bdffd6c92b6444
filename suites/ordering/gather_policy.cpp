// C-EXC-02 Out-of-bounds policy and memory domain (spec/v1/classes/
// C-EXC-02.yaml) for gather. Every call runs under the integrity protocol
// (canaries, input hashes, poison: a breach FAILs the case on its own).
// Per shape [R, C, N] of the shapes parameter:
//   1. the stale test: the previous seed's problem, then this seed's in the
//      same buffers; this seed's rows must not be the previous seed's;
//   2. a call with in-range indices only: success, every row bit for bit;
//   3. per value v of oob_indices(R, t) = [R, -1, -R - 1, max(t), min(t)]
//      (for int64 also 2^32 + 1 and 2^31, which a 32-bit truncation maps
//      elsewhere) at the first, middle and last position: the status and
//      rows the claimed oob_policy demands (raise: OUT_OF_RANGE; clamp: row
//      min(max(v, 0), R - 1); zero: a +0 row; undefined: anything, and
//      in-range rows exact when it succeeds).
// Table from normal(0, 1) (input 0), indices from the integers in
// [0, R - 1] (input 1, stream 2^16).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kcs/harness/figures.hpp"
#include "kcs/reference/fill.hpp"
#include "kcs/suites/operator_io.hpp"
#include "gather_problems.hpp"
#include "ordering_probes.hpp"
#include "ordering_results.hpp"

namespace kcs::suites {

namespace {

using harness::HostTensor;

// The out-of-range values of the protocol for an index dtype.
std::vector<std::int64_t> oob_values(std::int64_t rows, bool int64) {
    std::vector<std::int64_t> v{rows, -1, -rows - 1};
    if (int64) {
        v.push_back(std::numeric_limits<std::int64_t>::max());
        v.push_back(std::numeric_limits<std::int64_t>::min());
        v.push_back((std::int64_t{1} << 32) + 1);
        v.push_back(std::int64_t{1} << 31);
    } else {
        v.push_back(std::numeric_limits<std::int32_t>::max());
        v.push_back(std::numeric_limits<std::int32_t>::min());
    }
    return v;
}

// What one call showed against what the policy demands; empty when it held.
struct Departure {
    std::string signature;  // zero-rows-under-raise | policy-mismatch | stale-or-poison-left
    std::string what;
    harness::WorstElement element;
};

harness::WorstElement element_at(const GatherProblem& p, const HostTensor& out, std::int64_t position,
                                 std::int64_t column, std::int64_t index_value, std::int64_t source) {
    harness::WorstElement w;
    w.index = position * p.shape.columns + column;
    w.inputs = {"index[" + std::to_string(position) + "]=" + std::to_string(index_value)};
    const auto at = static_cast<std::size_t>(w.index);
    w.expected = source < 0 ? 0.0 : p.table.value(static_cast<std::size_t>(source * p.shape.columns + column));
    w.got = out.value(at);
    w.got_bits = hex_bits(out, at);
    w.error = 1;
    w.bound = 0;
    return w;
}

class GatherJudge {
public:
    GatherJudge(harness::ProbeContext& context) : context_(context), instance_(context.instance()) {
        policy_ = context.claims().at("oob_policy");
    }

    // 1. The stale test, and 2. the in-range call: success and exact rows.
    void in_range(const GatherShape& s) {
        const GatherProblem previous = draw_gather(instance_, s, previous_seed(context_.seed()));
        const GatherProblem current = draw_gather(instance_, s, context_.seed());
        const auto before = context_.run(gather_call(instance_, previous, previous.index));
        const auto run = context_.run_for_status(gather_call(instance_, current, current.index));
        ++calls_;
        const std::string where = shape_text(s) + ", in-range indices: ";
        if (!run.call.ok()) return depart("policy-mismatch", where + "status " + run.call.describe() + ", not success", {});
        const HostTensor& out = run.outputs[0];
        const WrongRows wrong = wrong_rows(current, out, before[0]);
        if (wrong.stale > 0)
            depart("stale-or-poison-left", where + std::to_string(wrong.stale) + " of " + std::to_string(s.positions) +
                                               " rows are the previous seed's rows at the same positions",
                   {});
        if (wrong.altered) {
            const std::int64_t n = *wrong.altered, source = current.index[static_cast<std::size_t>(n)];
            depart("policy-mismatch", where + "row " + std::to_string(n) + " is not table row " + std::to_string(source),
                   element_at(current, out, n, row_differs(current, out, n, source).value_or(0), source, source));
        }
    }

    // 3. One out-of-range value at one position.
    void out_of_range(const GatherShape& s, std::int64_t value, std::int64_t position) {
        GatherProblem p = draw_gather(instance_, s, context_.seed());
        std::vector<std::int64_t> index = p.index;
        index[static_cast<std::size_t>(position)] = value;
        const auto run = context_.run_for_status(gather_call(instance_, p, index));
        ++calls_;
        const std::string where = shape_text(s) + ", index[" + std::to_string(position) + "] = " +
                                  std::to_string(value) + " under oob_policy " + policy_ + ": ";
        const bool raised = !run.call.ok() && run.call.status == KCS_OUT_OF_RANGE;
        if (policy_ == "raise") {
            if (raised) return;
            if (!run.call.ok())
                return depart("policy-mismatch", where + "status " + run.call.describe() + ", not OUT_OF_RANGE", {});
            const HostTensor& out = run.outputs[0];
            const std::string kind = raise_departure(out, position, s.columns);
            return depart(kind,
                          where + "success with " + (kind == "zero-rows-under-raise" ? "a zero row" : "a nonzero row") +
                              " at the out-of-range position",
                          element_at(p, out, position, row_differs(p, out, position, -1).value_or(0), value, -1));
        }
        if (policy_ == "undefined" && !run.call.ok()) return;  // any answer, as long as memory holds
        if (!run.call.ok()) return depart("policy-mismatch", where + "status " + run.call.describe() + ", not success", {});
        const HostTensor& out = run.outputs[0];
        const std::int64_t clamped = std::min(std::max<std::int64_t>(value, 0), s.rows - 1);
        if (policy_ == "clamp") {
            if (const auto c = row_differs(p, out, position, clamped))
                return depart("policy-mismatch", where + "the row is not table row " + std::to_string(clamped),
                              element_at(p, out, position, *c, value, clamped));
        } else if (policy_ == "zero") {
            if (const auto c = row_differs(p, out, position, -1))
                return depart("policy-mismatch", where + "the row is not +0", element_at(p, out, position, *c, value, -1));
        }
        for (std::int64_t n = 0; n < s.positions; ++n)
            if (n != position)
                if (const auto c = row_differs(p, out, n, index[static_cast<std::size_t>(n)]))
                    return depart("policy-mismatch", where + "in-range row " + std::to_string(n) + " altered",
                                  element_at(p, out, n, *c, index[static_cast<std::size_t>(n)],
                                             index[static_cast<std::size_t>(n)]));
    }

    harness::CaseResult verdict() {
        harness::Evidence evidence;
        evidence.figure_name = harness::figures::policy_departures.name;
        evidence.figure = static_cast<double>(departures_.size());
        evidence.bound = 0;
        evidence.details["oob_policy"] = policy_;
        evidence.details["calls"] = calls_;
        evidence.judged = {static_cast<std::uint64_t>(calls_), "gather calls"};
        for (const auto& d : departures_) evidence.details["departures"].push_back({{"signature", d.signature}, {"what", d.what}});
        const std::string summary = std::to_string(calls_) + " gather calls under oob_policy " + policy_;
        if (departures_.empty()) return passed(instance_, summary + ": every status and row as the policy demands",
                                               std::move(evidence));
        const std::string signature = departure_signature();
        const auto it = std::find_if(departures_.begin(), departures_.end(),
                                     [&](const Departure& d) { return d.signature == signature; });
        const Departure& shown = it != departures_.end() ? *it : departures_.front();
        evidence.details["signature_figures"] = departures_by_signature();
        if (shown.element.bound == 0 && !shown.element.got_bits.empty()) evidence.worst = shown.element;
        return failed(instance_, signature,
                      summary + ": " + std::to_string(departures_.size()) + " departed; e.g. " + shown.what,
                      std::move(evidence));
    }

private:
    static std::string shape_text(const GatherShape& s) {
        return "[R, C, N] = [" + std::to_string(s.rows) + ", " + std::to_string(s.columns) + ", " +
               std::to_string(s.positions) + "]";
    }
    spec::Json departures_by_signature() const {
        std::map<std::string, std::size_t> counts;
        for (const auto& d : departures_) ++counts[d.signature];
        return counts;
    }
    std::string departure_signature() const {
        std::vector<std::string> kinds;
        for (const auto& d : departures_) kinds.push_back(d.signature);
        return suites::departure_signature(kinds);
    }
    void depart(std::string signature, std::string what, harness::WorstElement element) {
        departures_.push_back({std::move(signature), std::move(what), std::move(element)});
    }

    harness::ProbeContext& context_;
    const harness::Instance& instance_;
    std::string policy_;
    std::size_t calls_ = 0;
    std::vector<Departure> departures_;
};

}  // namespace

harness::CaseResult gather_policy_probe(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    const bool int64 = instance.config.inputs[1] == "i64";
    GatherJudge judge(context);
    for (const auto& dims : instance.parameters.at("shapes").get<std::vector<std::vector<std::int64_t>>>()) {
        if (dims.size() != 3 || dims[0] < 1 || dims[1] < 1 || dims[2] < 1)
            throw std::invalid_argument(instance.id + ": gather shapes are [R, C, N] with every extent >= 1");
        const GatherShape s{dims[0], dims[1], dims[2]};
        judge.in_range(s);
        for (const std::int64_t value : oob_values(s.rows, int64))
            for (const std::int64_t position : {std::int64_t{0}, s.positions / 2, s.positions - 1})
                judge.out_of_range(s, value, position);
    }
    return judge.verdict();
}

}  // namespace kcs::suites
