#include "store_judging.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "exactness_common.hpp"

namespace kcs::suites {

using namespace exactness;

namespace {

bool normal_value_of(ref::Format format, double v) {
    return ref::round_to(format, v) == v && std::fabs(v) >= ref::info(format).min_normal &&
           std::fabs(v) <= ref::info(format).max_finite;
}

std::string hexfloat(double v) {
    char text[40];
    std::snprintf(text, sizeof text, "%a", v);
    return text;
}

}  // namespace

std::vector<TieSum> tie_sums_of(ref::Format target) {
    const auto& g = ref::info(target);
    const int p = g.precision;
    const double half = std::ldexp(1.0, -p);                       // half an ulp of 1
    const double odd = 1 + std::ldexp(1.0, 1 - p);                 // 1 + 1 ulp: odd last bit
    const double above = half + std::ldexp(1.0, 1 - 2 * p);        // the next G value above 2^-p
    const double below = half - std::ldexp(1.0, -2 * p);           // the G value below 2^-p
    const double top_half = std::ldexp(1.0, g.exponent_bias - p);  // half an ulp of max_G
    const std::string t(ref::to_string(target));
    std::vector<TieSum> ties{
        {t + " tie above an even value", {1, half}},   {t + " tie above an odd value", {odd, half}},
        {t + " just above the even tie", {1, above}},  {t + " just below the even tie", {1, below}},
        {t + " just above the odd tie", {odd, above}}, {t + " just below the odd tie", {odd, below}},
    };
    // The same ties p + 1 binades higher, among integers (spacing 4, ties at odd multiples of 2).
    const int lift = p + 1;
    const std::size_t base = ties.size();
    for (std::size_t i = 0; i < base; ++i) {
        TieSum lifted{ties[i].name + " x 2^" + std::to_string(lift), ties[i].addends};
        for (double& a : lifted.addends) a = std::ldexp(a, lift);
        ties.push_back(std::move(lifted));
    }
    ties.push_back({t + " overflow threshold (rounds to inf)", {g.max_finite, top_half}});
    ties.push_back({t + " below the overflow threshold", {g.max_finite, top_half / 2}});
    ties.push_back({t + " above the overflow threshold", {g.max_finite, top_half * 1.5}});
    return ties;
}

std::vector<TieSum> tie_sums(ref::Format in) {
    std::vector<TieSum> out;
    for (const ref::Format target : {ref::Format::f16, ref::Format::bf16}) {
        for (auto& s : tie_sums_of(target)) {
            if (!std::all_of(s.addends.begin(), s.addends.end(), [&](double a) { return normal_value_of(in, a); }))
                continue;
            TieSum negative{"-(" + s.name + ")", s.addends};
            for (double& a : negative.addends) a = -a;
            out.push_back(std::move(s));
            out.push_back(std::move(negative));
        }
    }
    return out;
}

StoreRecord store(std::size_t index, std::string probe, double value, ref::Format out, std::uint32_t got,
                  double width) {
    StoreRecord r;
    r.index = index;
    r.probe = std::move(probe);
    r.value = value;
    r.expected = rne_bits(out, value);
    r.got = got;
    r.width = width;
    return r;
}

StoreRecord* StoreTally::judge(StoreRecord record, bool exact_value) {
    record.kind = exact_value ? judge_exact_store(out_, record.value, record.got)
                              : judge_store_near(out_, record.expected, record.got);
    ++checked_;
    if (record.kind == StoreMismatch::none) return nullptr;
    ++mismatches_;
    ++by_kind_[std::string(to_string(record.kind))];
    kinds_.insert(record.kind);
    if (first_.contains(record.kind)) return nullptr;
    return &(first_[record.kind] = std::move(record));
}

void StoreTally::merge(const StoreTally& other) {
    checked_ += other.checked_;
    mismatches_ += other.mismatches_;
    for (const auto& [kind, count] : other.by_kind_) by_kind_[kind] += count;
    kinds_.insert(other.kinds_.begin(), other.kinds_.end());
    for (const auto& [kind, record] : other.first_) first_.try_emplace(kind, record);
}

harness::CaseResult StoreTally::verdict(const harness::Instance& instance, spec::Json details) const {
    harness::Evidence e;
    e.figure_name = "stores differing from RN_out";
    e.figure = static_cast<double>(mismatches_);
    e.bound = 0;
    details["bound"] = cite(*instance.contract);
    details["checked"] = checked_;
    details["mismatches_by_kind"] = by_kind_;
    e.details = std::move(details);
    if (mismatches_ == 0)
        return passed(std::to_string(checked_) + " stores equal RN_out bit for bit", std::move(e));
    const std::string signature = rounding_signature(kinds_);
    const StoreRecord& w = worst_for(signature);
    e.worst = harness::WorstElement{static_cast<std::int64_t>(w.index),
                                    w.inputs,
                                    w.value,
                                    ref::decode(out_, w.got),
                                    hex(out_, w.got),
                                    std::fabs(ref::decode(out_, w.got) - ref::decode(out_, w.expected)),
                                    0};
    e.details["worst"] = {{"probe", w.probe},
                          {"kind", to_string(w.kind)},
                          {"expected_bits", hex(out_, w.expected)},
                          {"got_bits", hex(out_, w.got)},
                          {"value_hex", hexfloat(w.value)},
                          {"clearance_width", w.width}};
    return failed(instance, signature,
                  std::to_string(mismatches_) + " of " + std::to_string(checked_) + " stores differ from RN_out (" +
                      std::string(to_string(w.kind)) + ", e.g. " + w.probe + ": expected " + hex(out_, w.expected) +
                      ", got " + hex(out_, w.got) + ")",
                  std::move(e));
}

const StoreRecord& StoreTally::worst_for(const std::string& signature) const {
    const StoreMismatch preferred = signature == "truncation"            ? StoreMismatch::toward_zero
                                    : signature == "ties-away"           ? StoreMismatch::away_at_tie
                                    : signature == "overflow-saturation" ? StoreMismatch::saturation
                                    : signature == "nan-to-inf"          ? StoreMismatch::nan_to_inf
                                                                         : StoreMismatch::other;
    const auto it = first_.find(preferred);
    return it != first_.end() ? it->second : first_.begin()->second;
}

bool narrowing_store(ref::Format out, ref::Format acc) { return ref::info(out).precision < ref::info(acc).precision; }

const spec::ContractClass& accumulator_side_class(const harness::ProbeContext& context, const std::string& id) {
    const auto* c = context.catalog().find_class(id);
    if (!c) throw std::invalid_argument("the catalog has no class " + id + ", whose bound C-PRC-04 check (b) uses");
    return *c;
}

harness::CaseResult judge_sampled_stores(harness::ProbeContext& context, const SampledStoreJudge& judge) {
    const exactness::ConfigFormats f = exactness::formats_of(context.instance());
    StoreTally tally(f.out);
    spec::Json details = spec::Json::object();
    if (narrowing_store(f.out, f.acc)) judge(f, tally, details);
    else details["note"] = "output dtype " + f.out_name + " is the accumulator's: no narrowing store to judge";
    return tally.verdict(context.instance(), std::move(details));
}

}  // namespace kcs::suites
