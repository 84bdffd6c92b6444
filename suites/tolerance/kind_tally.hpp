// The one tally of the models that classify each element instead of
// bounding its error (ieee_special, subnormal_policy, bitwise_rne and
// C-CMP-03's contraction): the model names an element's kind (a mismatch
// kind, an outcome); this counts the elements judged and those of each
// kind, and keeps the first element of each kind as its witness. The
// model then names the signature from the kinds seen, and the witness
// shown is the first of the kind that defines it (SPEC.md section 3: the
// case figure is a count, judged against a bound of 0).
//
// The bound models' loop is element_judgement.hpp's; between them they
// are where every element of every probe is decided.
#pragma once

#include <cstddef>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kcs/spec/catalog.hpp"  // spec::Json

namespace kcs::suites::tolerance {

template <class Kind, class Witness>
class KindTally {
public:
    // Elements that show nothing (equal to what is due), counted without a kind.
    void pass(std::size_t n = 1) { elements_ += n; }

    // One element of `kind`. `make_witness()` is called only for the first
    // of its kind, whose witness is kept; returns it then, else null.
    template <class MakeWitness>
    Witness* add(const Kind& kind, MakeWitness&& make_witness) {
        ++elements_;
        ++classified_;
        ++counts_[kind];
        if (witnesses_.contains(kind)) return nullptr;
        return &witnesses_.emplace(kind, make_witness()).first->second;
    }

    std::size_t elements() const { return elements_; }
    std::size_t classified() const { return classified_; }  // elements of some kind
    std::size_t count(const Kind& kind) const {
        const auto it = counts_.find(kind);
        return it == counts_.end() ? 0 : it->second;
    }
    const std::map<Kind, std::size_t>& counts() const { return counts_; }
    std::set<Kind> kinds() const {
        std::set<Kind> out;
        for (const auto& entry : counts_) out.insert(entry.first);
        return out;
    }
    const Witness* first(const Kind& kind) const {
        const auto it = witnesses_.find(kind);
        return it == witnesses_.end() ? nullptr : &it->second;
    }
    const std::map<Kind, Witness>& witnesses() const { return witnesses_; }

    // The kind and witness to show: the first of the first kind in
    // `preferred` that was seen, else that of the least kind seen. Throws
    // std::logic_error when nothing was classified.
    const std::pair<const Kind, Witness>& shown(const std::vector<Kind>& preferred) const {
        for (const Kind& kind : preferred)
            if (const auto it = witnesses_.find(kind); it != witnesses_.end()) return *it;
        if (witnesses_.empty()) throw std::logic_error("no element of any kind to show");
        return *witnesses_.begin();
    }

    // The counts as {name(kind): count}, for the evidence.
    template <class Name>
    spec::Json counts_json(Name&& name) const {
        spec::Json out = spec::Json::object();
        for (const auto& [kind, n] : counts_) out[std::string(name(kind))] = n;
        return out;
    }

    // Folds in a tally of later elements (a sweep's next slice): counts
    // add, and the witness already held for a kind stays.
    void merge(const KindTally& later) {
        elements_ += later.elements_;
        classified_ += later.classified_;
        for (const auto& [kind, n] : later.counts_) counts_[kind] += n;
        for (const auto& [kind, witness] : later.witnesses_) witnesses_.try_emplace(kind, witness);
    }

    // A checkpoint of the whole tally, and its restoring: the kinds and
    // witnesses as `kind_json` / `witness_json` write them and
    // `kind_of` / `witness_of` read them back.
    template <class KindJson, class WitnessJson>
    spec::Json save(KindJson&& kind_json, WitnessJson&& witness_json) const {
        spec::Json counts = spec::Json::array(), witnesses = spec::Json::array();
        for (const auto& [kind, n] : counts_) counts.push_back({{"kind", kind_json(kind)}, {"count", n}});
        for (const auto& [kind, w] : witnesses_)
            witnesses.push_back({{"kind", kind_json(kind)}, {"witness", witness_json(w)}});
        return {{"elements", elements_}, {"counts", std::move(counts)}, {"witnesses", std::move(witnesses)}};
    }
    template <class KindOf, class WitnessOf>
    static KindTally restore(const spec::Json& saved, KindOf&& kind_of, WitnessOf&& witness_of) {
        KindTally t;
        t.elements_ = saved.at("elements").template get<std::size_t>();
        for (const auto& c : saved.at("counts")) {
            const std::size_t n = c.at("count").template get<std::size_t>();
            t.counts_[kind_of(c.at("kind"))] += n;
            t.classified_ += n;
        }
        for (const auto& w : saved.at("witnesses")) t.witnesses_.emplace(kind_of(w.at("kind")), witness_of(w.at("witness")));
        if (t.classified_ > t.elements_) throw std::invalid_argument("a saved tally with more kinds than elements");
        return t;
    }

private:
    std::size_t elements_ = 0, classified_ = 0;
    std::map<Kind, std::size_t> counts_;
    std::map<Kind, Witness> witnesses_;
};

}  // namespace kcs::suites::tolerance
