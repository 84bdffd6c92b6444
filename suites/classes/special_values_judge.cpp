#include "special_values_judge.hpp"

#include <algorithm>
#include <map>
#include <set>

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
    std::map<SpecialMismatch, Miss> first;
    std::map<std::string, std::size_t> by_kind, by_probe;
    std::set<SpecialMismatch> kinds;
    std::size_t misses = 0, elements = 0;
    for (const auto& batch : batches) {
        for (const auto& e : batch.elements) {
            ++elements;
            const std::uint32_t got = bits_at(batch.output, e.index);
            SpecialMismatch m = judge_special(e.expected, f.out, got);
            if (m == SpecialMismatch::none && e.copy_of && got != *e.copy_of) m = SpecialMismatch::not_a_copy;
            if (m == SpecialMismatch::none) continue;
            ++misses;
            kinds.insert(m);
            ++by_kind[std::string(to_string(m))];
            ++by_probe[e.probe];
            if (!first.contains(m)) first.emplace(m, Miss{e, got, batch.inputs_of(e.index)});
        }
    }
    harness::Evidence evidence;
    evidence.figure_name = "elements of the wrong IEEE class (or, in a copy, other bits)";
    evidence.figure = static_cast<double>(misses);
    evidence.bound = 0;
    evidence.judged = {elements, "elements"};
    evidence.details = {{"bound", model_citation(*instance.contract)},
                        {"elements", elements},
                        {"masked_row", context.claims().at("masked_row")},
                        {"mismatches_by_kind", by_kind},
                        {"mismatches_by_probe", by_probe}};
    if (misses == 0)
        return passed("all " + std::to_string(elements) + " elements of the expected IEEE class",
                      std::move(evidence));
    const std::string signature = special_signature(kinds);
    const auto shown = std::find_if(first.begin(), first.end(), [&](const auto& entry) {
        return std::string(to_string(entry.first)) == signature;
    });
    const Miss& w = shown != first.end() ? shown->second : first.begin()->second;
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
                  std::to_string(misses) + what + "; e.g. " + w.element.probe + ": expected " + expected + ", got " +
                      hex(f.out, w.got),
                  std::move(evidence));
}

}  // namespace kcs::suites::exactness
