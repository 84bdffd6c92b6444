#include "store_judging.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "../exactness/exactness_common.hpp"
#include "kcs/harness/figures.hpp"
#include "kcs/suites/operator_io.hpp"

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

bool StoreTally::left_to_cmp02(std::uint32_t expected) {
    if (!flush_ || ref::classify(out_, expected) != ref::FloatClass::subnormal) return false;
    ++left_to_cmp02_;
    return true;
}

bool StoreTally::input_left_to_cmp02(ref::Format in_format, std::uint32_t in) {
    if (!flush_ || ref::classify(in_format, in) != ref::FloatClass::subnormal) return false;
    ++left_to_cmp02_;
    return true;
}

StoreRecord* StoreTally::judge(StoreRecord record, bool exact_value) {
    if (left_to_cmp02(record.expected)) return nullptr;
    record.kind = exact_value ? judge_exact_store(out_, record.value, record.got)
                              : judge_store_near(out_, record.value, record.width, record.expected, record.got);
    if (rounds_away_from_zero(out_, record.value, record.width, record.expected)) {
        ++rounds_away_;
        if (record.kind == StoreMismatch::toward_zero || record.kind == StoreMismatch::toward_at_tie ||
            record.kind == StoreMismatch::saturation)
            ++cut_toward_zero_;
    }
    if (record.kind == StoreMismatch::none) {
        stores_.pass();
        return nullptr;
    }
    if (exact_value) ++exact_mismatches_;
    const StoreMismatch kind = record.kind;
    return stores_.add(kind, [&] { return std::move(record); });
}

void StoreTally::merge(const StoreTally& other) {
    left_to_cmp02_ += other.left_to_cmp02_;
    stores_.merge(other.stores_);
    exact_mismatches_ += other.exact_mismatches_;
    rounds_away_ += other.rounds_away_;
    cut_toward_zero_ += other.cut_toward_zero_;
    for (const auto& [reason, count] : other.explained_) explained_[reason] += count;
}

namespace {

std::uint64_t bits_of(double v) { return std::bit_cast<std::uint64_t>(v); }
double double_of(const spec::Json& bits) { return std::bit_cast<double>(bits.get<std::uint64_t>()); }

spec::Json kind_json(StoreMismatch kind) { return static_cast<int>(kind); }
StoreMismatch mismatch_of(const spec::Json& j) {
    const int kind = j.get<int>();
    if (kind <= static_cast<int>(StoreMismatch::none) || kind > static_cast<int>(StoreMismatch::toward_at_tie))
        throw std::out_of_range("store mismatch kind " + std::to_string(kind));
    return static_cast<StoreMismatch>(kind);
}

spec::Json record_json(const StoreRecord& r) {
    return {{"kind", kind_json(r.kind)}, {"index", r.index}, {"probe", r.probe},
            {"value", bits_of(r.value)}, {"expected", r.expected}, {"got", r.got},
            {"width", bits_of(r.width)}, {"inputs", r.inputs}};
}
StoreRecord record_of(const spec::Json& r) {
    StoreRecord record;
    record.kind = mismatch_of(r.at("kind"));
    record.index = r.at("index").get<std::size_t>();
    record.probe = r.at("probe").get<std::string>();
    record.value = double_of(r.at("value"));
    record.expected = r.at("expected").get<std::uint32_t>();
    record.got = r.at("got").get<std::uint32_t>();
    record.width = double_of(r.at("width"));
    record.inputs = r.at("inputs").get<std::vector<std::string>>();
    return record;
}

}  // namespace

spec::Json StoreTally::save() const {
    return {{"out", ref::to_string(out_)},
            {"left_to_cmp02", left_to_cmp02_},
            {"exact_mismatches", exact_mismatches_},
            {"rounds_away", rounds_away_},
            {"cut_toward_zero", cut_toward_zero_},
            {"explained", explained_},
            {"stores", stores_.save(kind_json, record_json)}};
}

void StoreTally::restore(const spec::Json& saved) {
    try {
        if (saved.at("out").get<std::string>() != ref::to_string(out_))
            throw std::invalid_argument("a saved store tally of output dtype " + saved.at("out").get<std::string>() +
                                        ", not " + std::string(ref::to_string(out_)));
        left_to_cmp02_ = saved.at("left_to_cmp02").get<std::size_t>();
        exact_mismatches_ = saved.at("exact_mismatches").get<std::size_t>();
        rounds_away_ = saved.at("rounds_away").get<std::size_t>();
        cut_toward_zero_ = saved.at("cut_toward_zero").get<std::size_t>();
        explained_ = saved.at("explained").get<std::map<std::string, std::size_t>>();
        stores_ = decltype(stores_)::restore(saved.at("stores"), mismatch_of, record_of);
    } catch (const spec::Json::exception& e) {
        throw std::invalid_argument(std::string("a saved store tally of the wrong shape: ").append(e.what()));
    } catch (const std::out_of_range& e) {
        throw std::invalid_argument(std::string("a saved store tally of the wrong shape: ").append(e.what()));
    }
}

harness::CaseResult StoreTally::verdict(const harness::Instance& instance, spec::Json details) const {
    harness::Evidence e;
    e.figure_name = harness::figures::misrounded_stores.name;
    e.figure = static_cast<double>(stores_.classified());
    e.bound = 0;
    e.judged = {stores_.elements(), "stores"};
    details["bound"] = model_citation(*instance.contract);
    details["checked"] = stores_.elements();
    if (flush_) details["subnormals_left_to_C-CMP-02"] = left_to_cmp02_;
    details["mismatches_by_kind"] = stores_.counts_json([](StoreMismatch kind) { return to_string(kind); });
    details["mismatches_of_exact_values"] = exact_mismatches_;
    if (!explained_.empty()) details["explained_upstream"] = explained_;
    e.details = std::move(details);
    if (stores_.classified() == 0) {
        std::size_t upstream = 0;
        for (const auto& [reason, count] : explained_) upstream += count;
        return passed(instance, std::to_string(stores_.elements()) + " stores equal RN_out bit for bit" +
                          (upstream ? " (" + std::to_string(upstream) +
                                          " of them RN_out of the kernel's own value before the store, which "
                                          "differs from y*: another class judges that value)"
                                    : std::string()),
                      std::move(e));
    }
    spec::Json figures;
    const std::string signature = rounding_signature(this->figures(), figures);
    e.details["signature_figures"] = std::move(figures);
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
    harness::CaseResult result =
        failed(instance, signature,
               std::to_string(stores_.classified()) + " of " + std::to_string(stores_.elements()) + " stores differ from RN_out (" +
                   std::string(to_string(w.kind)) + ", e.g. " + w.probe + ": expected " + hex(out_, w.expected) +
                   ", got " + hex(out_, w.got) + ")",
               std::move(e));
    // Every mismatch is check (b)'s: each took the value before the store from y* and a bound.
    if (exact_mismatches_ == 0) result.assumes = kValueBeforeStoreClasses;
    return result;
}

const StoreRecord& StoreTally::worst_for(const std::string& signature) const {
    const StoreMismatch preferred = signature == "truncation"            ? StoreMismatch::toward_zero
                                    : signature == "ties-away"           ? StoreMismatch::away_at_tie
                                    : signature == "overflow-saturation" ? StoreMismatch::saturation
                                    : signature == "nan-to-inf"          ? StoreMismatch::nan_to_inf
                                                                         : StoreMismatch::other;
    return stores_.shown({preferred}).second;
}

const spec::ContractClass& accumulator_side_class(const harness::ProbeContext& context, const std::string& id) {
    const auto* c = context.catalog().find_class(id);
    if (!c) throw std::invalid_argument("the catalog has no class " + id + ", whose bound C-PRC-04 check (b) uses");
    return *c;
}

harness::CaseResult judge_sampled_stores(harness::ProbeContext& context, const SampledStoreJudge& judge) {
    const exactness::ConfigFormats f = exactness::formats_of(context.instance());
    StoreTally tally(f.out, flushes_subnormals(context.claims()));
    spec::Json details = spec::Json::object();
    judge(f, tally, details);
    return tally.verdict(context.instance(), std::move(details));
}

}  // namespace kcs::suites
