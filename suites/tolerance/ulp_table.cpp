#include "ulp_table.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "kcs/reference/bounds.hpp"

namespace kcs::suites {

double ulp_table_entry(const spec::Json& params, std::string_view function, std::string_view dtype) {
    const std::string f(function), d(dtype);
    if (!params.contains("table") || !params["table"].contains(f) || !params["table"][f].contains(d))
        throw std::invalid_argument("the ulp_table of the catalog has no entry for " + f + " in " + d);
    return params["table"][f][d].get<double>();
}

double largest_ulp_table_entry(const spec::Json& params, std::string_view dtype) {
    const std::string d(dtype);
    double largest = -1;
    if (params.contains("table")) {
        for (const auto& [function, by_dtype] : params["table"].items())
            if (by_dtype.contains(d)) largest = std::max(largest, by_dtype[d].get<double>());
    }
    if (largest < 0) throw std::invalid_argument("the ulp_table of the catalog has no entry for " + d);
    return largest;
}

double table_error(ref::Format out, std::uint32_t got_bits, double cr, bool flush_claimed) {
    const bool cr_subnormal = cr != 0 && std::fabs(cr) < ref::info(out).min_normal;
    const bool got_zero = ref::classify(out, got_bits) == ref::FloatClass::zero;
    if (flush_claimed && cr_subnormal && got_zero) return 0;
    return ref::ulp_error(out, got_bits, cr);
}

std::string_view to_string(UlpSubdomain subdomain) {
    switch (subdomain) {
        case UlpSubdomain::underflow:
            return "underflow";
        case UlpSubdomain::overflow_edge:
            return "overflow edge";
        case UlpSubdomain::small_argument:
            return "small arguments";
        case UlpSubdomain::core:
            return "core";
    }
    return "?";
}

UlpSubdomainRule ulp_subdomain_rule(ref::Format out, std::string_view function) {
    const auto& format = ref::info(out);
    // The top binade starts at 2^emax, emax = bias for these formats; the
    // small-argument sub-domain is C-CMP-01's |x| < 2^-5 (log: |x - 1|).
    return {format.min_normal, std::ldexp(1.0, format.exponent_bias), function == "log"};
}

UlpSubdomain ulp_subdomain(ref::Format out, std::string_view function, double x, double cr, bool f_is_zero) {
    return ulp_subdomain_rule(out, function)(x, cr, f_is_zero);
}

namespace {

std::uint64_t bits_of(double v) { return std::bit_cast<std::uint64_t>(v); }
double double_of(const spec::Json& bits) { return std::bit_cast<double>(bits.get<std::uint64_t>()); }

spec::Json save_worst(const UlpTally::Worst& w) {
    return {w.seen, bits_of(w.error), w.index, bits_of(w.x)};
}

UlpTally::Worst restore_worst(const spec::Json& j) {
    return {j.at(0).get<bool>(), double_of(j.at(1)), j.at(2).get<std::size_t>(), double_of(j.at(3))};
}

}  // namespace

spec::Json UlpTally::save() const {
    spec::Json subdomains = spec::Json::array(), binades = spec::Json::array();
    for (const Worst& w : by_subdomain_) subdomains.push_back(save_worst(w));
    for (std::size_t slot = 0; slot < core_max_.size(); ++slot)
        if (core_max_[slot] >= 0) binades.push_back({slot, bits_of(core_max_[slot])});
    return {{"bound", bits_of(bound_)}, {"failed", failed_}, {"worst", save_worst(worst_)},
            {"subdomains", std::move(subdomains)}, {"core_binades", std::move(binades)}};
}

void UlpTally::restore(const spec::Json& saved) {
    try {
        if (double_of(saved.at("bound")) != bound_) throw std::invalid_argument("a tally of another bound");
        failed_ = saved.at("failed").get<std::size_t>();
        worst_ = restore_worst(saved.at("worst"));
        for (std::size_t s = 0; s < kUlpSubdomains; ++s) by_subdomain_[s] = restore_worst(saved.at("subdomains").at(s));
        std::fill(core_max_.begin(), core_max_.end(), -1.0);
        for (const auto& entry : saved.at("core_binades")) core_max_.at(entry.at(0).get<std::size_t>()) = double_of(entry.at(1));
    } catch (const spec::Json::exception& e) {
        throw std::invalid_argument(std::string("a saved ulp tally of the wrong shape: ").append(e.what()));
    } catch (const std::out_of_range& e) {
        throw std::invalid_argument(std::string("a saved ulp tally of the wrong shape: ").append(e.what()));
    }
}

std::map<std::pair<int, int>, double> UlpTally::core_binades() const {
    std::map<std::pair<int, int>, double> out;
    for (std::size_t slot = 0; slot < core_max_.size(); ++slot) {
        if (core_max_[slot] < 0) continue;
        const bool negative = slot >= static_cast<std::size_t>(kBinades);
        const int binade = static_cast<int>(slot % kBinades) + kLowestBinade;
        out.emplace(std::pair<int, int>{negative ? -1 : 1, binade}, core_max_[slot]);
    }
    return out;
}

void UlpTally::merge(const UlpTally& other) {
    failed_ += other.failed_;
    const auto keep = [](Worst& mine, const Worst& theirs) {
        if (theirs.seen && (!mine.seen || theirs.error > mine.error)) mine = theirs;
    };
    keep(worst_, other.worst_);
    for (std::size_t s = 0; s < kUlpSubdomains; ++s) keep(by_subdomain_[s], other.by_subdomain_[s]);
    for (std::size_t slot = 0; slot < core_max_.size(); ++slot)
        core_max_[slot] = std::max(core_max_[slot], other.core_max_[slot]);
}

spec::Json subdomain_record(const UlpTally& tally) {
    spec::Json out = spec::Json::object();
    for (const auto s :
         {UlpSubdomain::underflow, UlpSubdomain::overflow_edge, UlpSubdomain::small_argument, UlpSubdomain::core}) {
        const auto& w = tally.worst(s);
        if (w.seen) out[std::string(to_string(s))] = {{"max_ulp_error", w.error}, {"index", w.index}, {"x", w.x}};
    }
    return out;
}

spec::Json core_binade_record(const UlpTally& tally) {
    spec::Json out = spec::Json::array();
    for (const auto& [key, error] : tally.core_binades())
        out.push_back({{"sign", key.first < 0 ? "-" : "+"}, {"binade", key.second}, {"max_ulp_error", error}});
    return out;
}

namespace {

// The largest core err per binade of |x|, both signs together.
std::map<int, double> core_by_magnitude(const UlpTally& tally) {
    std::map<int, double> out;
    for (const auto& [key, error] : tally.core_binades()) {
        auto [it, inserted] = out.try_emplace(key.second, error);
        if (!inserted) it->second = std::max(it->second, error);
    }
    return out;
}

// The failing run of binades of |x| that starts at the first failing one
// and ends before the first binade at or within the bound (or unseen),
// when a least-squares line through log(err) over it rises at least
// 1.5-fold per binade; 0 otherwise. A fit, not step by step: per-binade
// maxima of a sample are noisy.
std::size_t growth_binades(const std::map<int, double>& binades, double bound) {
    auto it = binades.begin();
    while (it != binades.end() && it->second <= bound) ++it;
    std::vector<std::pair<double, double>> run;  // (binade, log err)
    for (int expected = it == binades.end() ? 0 : it->first; it != binades.end() && it->first == expected &&
                                                             !(it->second <= bound) && std::isfinite(it->second);
         ++it, ++expected)
        run.emplace_back(it->first, std::log(it->second));
    if (run.size() < 2) return 0;
    double mx = 0, my = 0;
    for (const auto& [x, y] : run) mx += x, my += y;
    mx /= static_cast<double>(run.size());
    my /= static_cast<double>(run.size());
    double sxy = 0, sxx = 0;
    for (const auto& [x, y] : run) sxy += (x - mx) * (y - my), sxx += (x - mx) * (x - mx);
    return sxy / sxx >= std::log(kArgumentGrowthPerBinade) ? run.size() : 0;
}

}  // namespace

bool failures_only_at_subnormals(const UlpTally& tally, ref::Format in) {
    if (tally.failed() == 0) return false;
    const double bound = tally.bound();
    for (const auto s : {UlpSubdomain::overflow_edge, UlpSubdomain::small_argument})
        if (tally.worst(s).seen && !(tally.worst(s).error <= bound)) return false;
    const int lowest_normal = 1 - ref::info(in).exponent_bias;
    for (const auto& [binade, error] : core_by_magnitude(tally))
        if (binade >= lowest_normal && !(error <= bound)) return false;
    return true;
}

std::string approximation_signature(const UlpTally& tally, ref::Format in, spec::Json& figures) {
    if (tally.failed() == 0) return {};
    const double bound = tally.bound();
    const auto binades = core_by_magnitude(tally);
    const int lowest_normal = 1 - ref::info(in).exponent_bias;  // E(x) of the smallest normal argument
    std::size_t failing = 0, unconfined = 0, rank = 0;
    for (const auto& [binade, error] : binades) {
        const bool edge = binade < lowest_normal || rank < 2 || rank + 2 >= binades.size();
        ++rank;
        if (error <= bound) continue;
        ++failing;
        if (!edge) ++unconfined;
    }
    spec::Json edges = spec::Json::array();
    for (const auto s : {UlpSubdomain::underflow, UlpSubdomain::overflow_edge, UlpSubdomain::small_argument})
        if (tally.worst(s).seen && !(tally.worst(s).error <= bound)) edges.push_back(std::string(to_string(s)));
    const std::size_t growth = growth_binades(binades, bound);
    figures = {{"core_binades_seen", binades.size()},
               {"core_binades_failing", failing},
               {"core_binades_failing_away_from_the_edges", unconfined},
               {"edge_subdomains_failing", edges},
               {"growth_binades", growth}};
    if (growth >= 3) return "argument-growth";
    if (2 * failing > binades.size()) return "uniform-excess";
    if (unconfined == 0) return "subdomain-concentration";
    return "unmatched";
}

}  // namespace kcs::suites
