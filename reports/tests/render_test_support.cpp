#include "render_test_support.hpp"

#include <limits>
#include <stdexcept>

#include "kcs/harness/figures.hpp"
#include "report_test_support.hpp"

namespace kcs::reports::testing {

namespace {

using harness::Verdict;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

TestPlan matmul_and_softmax() {
    TestPlan t;
    t.request.catalog = &catalog();
    if (!harness::resolve_choice(t.request, {"core", "smoke", {"matmul", "softmax"}, {}, {}}).empty())
        throw std::runtime_error("core/smoke/matmul,softmax does not resolve");
    auto claims = harness::load_claims(std::string(KCS_SOURCE_DIR) + "/vendors/reference-cpu/claims.yaml", catalog());
    if (!claims.diagnostics.empty()) throw std::runtime_error("reference-cpu's claims do not load");
    t.request.claims = std::move(claims.claims);
    t.run.plan = harness::make_plan(t.request);
    t.run.results.resize(t.run.plan.size());
    return t;
}

// The first applicable instance of the class on the operator.
std::size_t first_of(const RunResults& run, const std::string& class_id, const std::string& op) {
    for (std::size_t i = 0; i < run.plan.size(); ++i)
        if (run.plan[i].contract->id == class_id && run.plan[i].op->id == op && run.plan[i].applicable) return i;
    throw std::runtime_error("no " + class_id + " instance of " + op + " in the plan");
}

// K = 64, 512, 4096 with these error / bound ratios; the figure is the largest.
void set_sweep(harness::CaseRecord& c, double at_64, double at_512, double at_4096) {
    auto& e = c.result.evidence;
    e.figure_name = harness::figures::dot_error.name;
    e.bound = 1;
    e.figure = std::max({at_64, at_512, at_4096});
    e.details["sweep"] = Json::array({{{"K", 64}, {"max_error_over_bound", number_json(at_64)}},
                                      {{"K", 512}, {"max_error_over_bound", number_json(at_512)}},
                                      {{"K", 4096}, {"max_error_over_bound", number_json(at_4096)}}});
}

void set_binades(harness::CaseRecord& c) {
    auto& e = c.result.evidence;
    e.figure_name = "max ulp error against cr";  // as earlier reports named it
    e.figure = 2;
    e.bound = 3;
    e.details["core_binades"] = Json::array({{{"sign", "-"}, {"binade", 4}, {"max_ulp_error", 1.0}},
                                             {{"sign", "-"}, {"binade", 5}, {"max_ulp_error", 0.0}},
                                             {{"sign", "-"}, {"binade", 6}, {"max_ulp_error", 2.0}}});
    e.details["subdomains"] = {{"core", {{"index", 3}, {"max_ulp_error", 2.0}, {"x", -85.9}}},
                               {"small arguments", {{"index", 0}, {"max_ulp_error", 0.0}, {"x", 0.0}}},
                               {"underflow", {{"index", 9}, {"max_ulp_error", 1.0}, {"x", -103.0}}}};
}

Json hash_group(char digit, int runs, int first_run) {
    return {{"sha256", std::string(64, digit)},
            {"runs", runs},
            {"first_run", first_run},
            {"first_condition", "same buffers"}};
}

void set_hashes(harness::CaseRecord& c, bool two) {
    auto& e = c.result.evidence;
    e.figure_name = harness::figures::distinct_hashes.name;
    e.bound = 1;
    e.figure = two ? 2 : 1;
    e.details["hashes"] =
        two ? Json::array({hash_group('a', 30, 0), hash_group('b', 10, 3)}) : Json::array({hash_group('a', 40, 0)});
}

void set_verdict(RunResults& run, std::size_t i, const std::vector<Verdict>& cases) {
    run.results[i] = result_with(run.plan[i], cases);
}

void add_failures(RunResults& run, bool hostile) {
    const std::size_t accumulator = first_of(run, "C-PRC-01", "matmul");
    set_verdict(run, accumulator, {Verdict::pass, Verdict::fail});
    set_sweep(run.results[accumulator]->cases[0], 0.05, 0.2, 0.6);
    auto& failing = run.results[accumulator]->cases[1];
    set_sweep(failing, 0.3, 3.5, kInfinity);
    failing.result.signature = kAwkwardSignature;
    failing.result.evidence.worst =
        harness::WorstElement{340, {"A[17,0:64]", "B[0:64,17]"}, 16.0077, 16.0, "0x41800000", 0.0077, 6.2e-05};
    failing.result.message = hostile ? kHostile : "K=512: error grows like a narrower accumulator's";

    const std::size_t determinism = first_of(run, "C-ORD-02", "matmul");
    set_verdict(run, determinism, {Verdict::fail, Verdict::pass});
    set_hashes(run.results[determinism]->cases[0], true);
    set_hashes(run.results[determinism]->cases[1], false);
    run.results[determinism]->cases[0].result.signature = "nondeterministic";

    set_verdict(run, first_of(run, "C-EXC-01", "matmul"), {Verdict::crash, Verdict::pass});
    set_verdict(run, first_of(run, "C-ORD-03", "softmax"), {Verdict::error, Verdict::error});
    set_verdict(run, first_of(run, "C-PRC-04", "matmul"), {Verdict::pass, Verdict::timeout});
    set_verdict(run, first_of(run, "C-PRC-03", "matmul"), {Verdict::unsupported, Verdict::unsupported});
}

}  // namespace

Json render_statement(const RenderChoice& choice) {
    TestPlan t = matmul_and_softmax();
    RunResults& run = t.run;
    pass_everything(run);

    for (std::size_t i = 0; i < run.plan.size(); ++i) {
        const std::string& class_id = run.plan[i].contract->id;
        for (auto& c : run.results[i]->cases) {
            if (class_id == "C-PRC-01") set_sweep(c, 0.05, 0.2, 0.6);
            if (class_id == "C-CMP-01") set_binades(c);
            if (class_id == "C-ORD-02") set_hashes(c, false);
        }
    }

    if (choice.failures) add_failures(run, choice.hostile);

    RunState state = RunState::finished;
    if (!choice.finished) {
        state = RunState::interrupted;
        // The last three applicable instances had not run.
        for (std::size_t i = run.plan.size(), reset = 0; i-- > 0 && reset < 3;)
            if (run.plan[i].applicable) run.results[i].reset(), ++reset;
    }
    const std::string adapter = choice.hostile ? std::string("reference-cpu ") + kHostile : "reference-cpu";
    const ReportTimes times{std::chrono::system_clock::time_point(std::chrono::seconds(1700000003)),
                            std::chrono::seconds(3), std::chrono::seconds(2)};
    return build_report(description_of(t, adapter), run, state, times);
}

}  // namespace kcs::reports::testing
