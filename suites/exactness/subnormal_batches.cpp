#include "subnormal_batches.hpp"

#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

#include "../tolerance/kind_tally.hpp"
#include "../tolerance/ulp_table.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/reference/philox.hpp"
#include "kcs/suites/operator_io.hpp"

namespace kcs::suites::subnormal_batches {

namespace {

using namespace exactness;
using harness::HostTensor;

constexpr double kKindMarginFactor = 8;
constexpr std::uint32_t kGridStream = ref::auxiliary_stream(0);  // stream 2^16

struct Seen {
    std::string batch;
    Expectation expectation;
    std::uint32_t got = 0;
    std::vector<std::string> inputs;
};

}  // namespace

std::string RowDims::text() const {
    const std::int64_t dims[] = {static_cast<std::int64_t>(rows), static_cast<std::int64_t>(length)};
    return shape_text(dims);
}

std::vector<RowDims> row_dims(const harness::Instance& instance, std::size_t shortest_row, const std::string& why,
                              std::size_t row_multiple) {
    std::vector<RowDims> out;
    for (const auto& s : probe_shapes(instance, 2, "[rows, L]")) {
        const auto length = static_cast<std::size_t>(s[1]);
        if (length < shortest_row || length % row_multiple != 0)
            throw std::invalid_argument(instance.id + ": C-CMP-02 shapes [rows, L] need L >= " +
                                        std::to_string(shortest_row) +
                                        (row_multiple > 1 ? ", a multiple of " + std::to_string(row_multiple) : "") +
                                        " (" + why + ")");
        out.push_back({static_cast<std::size_t>(s[0]), length});
    }
    return out;
}

harness::CaseResult judge_batches(harness::ProbeContext& context, std::vector<Batch> batches) {
    const auto& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const std::string claim = context.claims().at("subnormals");
    tolerance::KindTally<std::pair<SubnormalSide, SubnormalOutcome>, Seen> cells;  // every element by (side, outcome)
    std::map<std::string, SubnormalCounts> by_name;  // the calls of one probe at one shape share a name
    for (auto& batch : batches) {
        if (batch.elements.empty()) continue;  // nothing this configuration can distinguish
        const auto outputs = context.run(invocation(instance, batch.inputs, batch.output_shape));
        SubnormalCounts& here = by_name[batch.name];
        for (const auto& e : batch.elements) {
            const std::uint32_t got = bits_at(outputs[0], e.index);
            const auto outcome = e.exact ? classify_exact(f.out, got, e.y_pres, e.y_flush)
                                         : classify_kind(f.out, got, e.y_pres, e.y_flush);
            here.add(e.side, outcome);
            cells.add({e.side, outcome}, [&] { return Seen{batch.name, e, got, batch.inputs_of(e.index)}; });
        }
    }
    spec::Json per_batch = spec::Json::object();
    for (const auto& [name, here] : by_name) {
        spec::Json record = spec::Json::object();
        for (const auto side : {SubnormalSide::input, SubnormalSide::output, SubnormalSide::both})
            for (const auto outcome : {SubnormalOutcome::pres, SubnormalOutcome::flush, SubnormalOutcome::neither})
                if (here.at(side, outcome) > 0)
                    record[std::string(to_string(side))][std::string(to_string(outcome))] = here.at(side, outcome);
        per_batch[name] = record;
    }

    SubnormalCounts counts;
    for (const auto& [cell, n] : cells.counts()) counts.n[static_cast<std::size_t>(cell.first)][static_cast<std::size_t>(cell.second)] = n;
    const SubnormalFinding finding = judge_subnormal_policy(counts, claim);
    const SubnormalOutcome claimed = claim == "flush" ? SubnormalOutcome::flush : SubnormalOutcome::pres;
    std::size_t distinguishing_total = 0, off_claim = 0;
    for (const auto side : {SubnormalSide::input, SubnormalSide::output, SubnormalSide::both}) {
        distinguishing_total += counts.probes(side);
        off_claim += counts.probes(side) - counts.at(side, claimed);
    }
    harness::Evidence evidence;
    evidence.figure_name = harness::figures::subnormal_mismatches.name;
    evidence.figure = static_cast<double>(off_claim);
    evidence.bound = 0;
    evidence.judged = {distinguishing_total, "distinguishing elements"};
    evidence.details = {{"bound", model_citation(*instance.contract)},
                        {"claim", claim},
                        {"distinguishing", distinguishing_total},
                        {"by_batch", per_batch}};
    if (distinguishing_total == 0) throw std::logic_error("C-CMP-02 probes distinguished no element");
    if (finding.signature.empty())
        return passed(instance,
            std::to_string(distinguishing_total) + " distinguishing elements all " + std::string(to_string(claimed)),
            std::move(evidence));

    const Seen& w = cells.shown({{finding.side, finding.outcome}}).second;
    evidence.worst = harness::WorstElement{static_cast<std::int64_t>(w.expectation.index),
                                           w.inputs,
                                           claim == "flush" ? w.expectation.y_flush : w.expectation.y_pres,
                                           ref::decode(f.out, w.got),
                                           hex(f.out, w.got),
                                           std::fabs(ref::decode(f.out, w.got) - w.expectation.y_pres),
                                           0};
    evidence.details["worst"] = {{"batch", w.batch},
                                 {"side", to_string(w.expectation.side)},
                                 {"outcome", to_string(finding.outcome)},
                                 {"y_pres", w.expectation.y_pres},
                                 {"y_flush", w.expectation.y_flush}};
    return failed(instance, finding.signature,
                  std::to_string(counts.at(finding.side, finding.outcome)) + " " +
                      std::string(to_string(finding.side)) + " elements gave " +
                      std::string(to_string(finding.outcome)) + " under subnormals: " + claim + " (e.g. " + w.batch +
                      ": y_pres " + hex(f.out, ref::encode(f.out, w.expectation.y_pres)) + ", y_flush " +
                      hex(f.out, ref::encode(f.out, w.expectation.y_flush)) + ", got " + hex(f.out, w.got) + ")",
                  std::move(evidence));
}

double smallest_function_probe_value(const harness::ProbeContext& context, const ConfigFormats& f) {
    const auto* cmp01 = context.catalog().find_class("C-CMP-01");
    if (!cmp01)
        throw std::invalid_argument("the catalog has no class C-CMP-01, whose table sizes C-CMP-02's function probes");
    const double entry = largest_ulp_table_entry(cmp01->tolerance.params, f.out_name);
    const double multiple = std::exp2(std::ceil(std::log2(kKindMarginFactor * entry)));
    return multiple * ref::info(f.out).min_subnormal;
}

bool is_subnormal(ref::Format f, double v) { return v != 0 && std::fabs(v) < ref::info(f).min_normal; }

bool inside_subnormal_range(ref::Format out, double y_pres, double smallest) {
    return is_subnormal(out, ref::round_to(out, y_pres)) && std::fabs(y_pres) >= smallest &&
           std::fabs(y_pres) <= ref::info(out).min_normal - smallest;
}

double flush_input(ref::Format in, double v) { return is_subnormal(in, v) ? std::copysign(0.0, v) : v; }

double flushed_result(ref::Format out, double v) {
    const double r = ref::round_to(out, v);
    return is_subnormal(out, r) ? std::copysign(0.0, r) : r;
}

double exact_result(ref::Format out, double v, const std::string& probe) {
    if (ref::round_to(out, v) != v)
        throw std::logic_error("C-CMP-02 probe construction: " + probe + " has an inexact result");
    return v;
}

SubnormalSide side_of(bool subnormal_input, bool subnormal_result) {
    if (subnormal_input && subnormal_result) return SubnormalSide::both;
    return subnormal_input ? SubnormalSide::input : SubnormalSide::output;
}

std::int64_t GridDraws::next(std::int64_t lo, std::int64_t hi) {
    return draw_integers(seed_, 0, kGridStream, index_++, 1, lo, hi)[0];
}

Grid grid_of(ref::Format f) {
    const auto& i = ref::info(f);
    return {i.min_subnormal, (std::int64_t{1} << (i.precision - 1)) - 1, i.min_normal};
}

}  // namespace kcs::suites::subnormal_batches
