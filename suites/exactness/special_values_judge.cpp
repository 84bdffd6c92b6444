#include "special_values_judge.hpp"

#include <map>
#include <vector>

#include "kcs/harness/figures.hpp"
#include "../tolerance/kind_tally.hpp"
#include "exactness_common.hpp"

namespace kcs::suites::exactness {

namespace {

struct Miss {
    SpecialElement element;
    std::uint32_t got;
    std::vector<std::string> inputs;
};

}  // namespace

harness::CaseResult judge_special_batches(const harness::ProbeContext& context,
                                          const std::vector<SpecialBatch>& batches) {
    const auto& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    tolerance::KindTally<SpecialMismatch, Miss> misses;
    std::map<std::string, std::size_t> by_probe;
    for (const auto& batch : batches) {
        for (const auto& e : batch.elements) {
            const std::uint32_t got = bits_at(batch.output, e.index);
            SpecialMismatch m = judge_special(e.expected, f.out, got);
            if (m == SpecialMismatch::none && e.copy_of && got != *e.copy_of) m = SpecialMismatch::not_a_copy;
            if (m == SpecialMismatch::none) {
                misses.pass();
                continue;
            }
            ++by_probe[e.probe];
            misses.add(m, [&] { return Miss{e, got, batch.inputs_of(e.index)}; });
        }
    }
    const std::size_t elements = misses.elements();
    harness::Evidence evidence;
    evidence.figure_name = harness::figures::wrong_class_elements.name;
    evidence.figure = static_cast<double>(misses.classified());
    evidence.bound = 0;
    evidence.judged = {elements, "elements"};
    evidence.details = {{"bound", model_citation(*instance.contract)},
                        {"elements", elements},
                        {"masked_row", context.claims().at("masked_row")},
                        {"mismatches_by_kind", misses.counts_json([](SpecialMismatch m) { return to_string(m); })},
                        {"mismatches_by_probe", by_probe}};
    if (misses.classified() == 0)
        return passed(instance, "all " + std::to_string(elements) + " elements of the expected IEEE class",
                      std::move(evidence));
    const std::string signature = special_signature(misses.kinds());
    // The first element of the kind the signature names, if it names one.
    std::vector<SpecialMismatch> defining;
    for (const auto& [kind, n] : misses.counts())
        if (to_string(kind) == signature) defining.push_back(kind);
    const Miss& w = misses.shown(defining).second;
    const double got_value = ref::decode(f.out, w.got);
    evidence.worst = harness::WorstElement{
        static_cast<std::int64_t>(w.element.index), w.inputs, w.element.y_star, got_value, hex(f.out, w.got), 0, 0};
    evidence.details["worst"] = {{"probe", w.element.probe}, {"expected", to_string(w.element.expected)}};
    // In a copy the element's own bits are what was due.
    const std::string expected = w.element.copy_of ? hex(f.out, *w.element.copy_of) + " (" +
                                                         std::string(to_string(w.element.expected)) + ", copied)"
                                                   : std::string(to_string(w.element.expected));
    const std::string what = signature == "not-a-copy" ? " elements of the right class but not copies of their bits"
                                                       : " elements of the wrong class";
    return failed(instance, signature,
                  std::to_string(misses.classified()) + what + "; e.g. " + w.element.probe + ": expected " + expected + ", got " +
                      hex(f.out, w.got),
                  std::move(evidence));
}

}  // namespace kcs::suites::exactness
