#include "stability_bound.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "kcs/reference/bounds.hpp"
#include "element_judgement.hpp"
#include "model_citation.hpp"

namespace kcs::suites::tolerance {

namespace {

// Bit b of the fixed-point accumulator weighs 2^(b + kLowestExponent); the
// range covers every finite double's significand bits.
constexpr int kLowestExponent = -1100;
constexpr int kBuckets = 2200;
constexpr int kSignificandBits = 24;  // f32, f16 and bf16 values have at most 24

// count[b] 2^(b + kLowestExponent) summed: carries make every bucket 0 or 1
// but the top one, which keeps the signed remainder (negative for a
// negative sum). Returns false, and no value, for a negative sum.
bool carried_value(std::vector<std::int64_t> count, double& value) {
    for (std::size_t b = 0; b + 1 < count.size(); ++b) {
        count[b + 1] += count[b] >> 1;  // floor division: a negative sum carries into the top bucket
        count[b] &= 1;
    }
    if (count.back() < 0) return false;
    value = 0;  // from the top down: the partial sums stay exact until 53 bits are spanned
    for (std::size_t b = count.size(); b-- > 0;)
        if (count[b] != 0) value += std::ldexp(static_cast<double>(count[b]), static_cast<int>(b) + kLowestExponent);
    return true;
}

}  // namespace

double exact_sum_minus_one(std::span<const double> values) {
    // Each value is m * 2^e with an integer |m| < 2^24; the counts of each
    // exponent add exactly in 64 bits (2^39 terms before overflow), then
    // carries make a binary number of S - 1, converted to f64 within a few
    // units of 2^-53 relative (far below any bound it is compared with).
    std::vector<std::int64_t> count(kBuckets, 0);
    auto add = [&](double value) {
        if (value == 0) return;
        int exponent = 0;
        const double fraction = std::frexp(value, &exponent);  // value = fraction * 2^exponent
        const double mantissa = std::ldexp(fraction, kSignificandBits);
        if (!std::isfinite(value) || mantissa != std::trunc(mantissa))
            throw std::invalid_argument(
                "exact_sum_minus_one: a value is not finite or has more than 24 significant bits");
        count.at(static_cast<std::size_t>(exponent - kSignificandBits - kLowestExponent)) +=
            static_cast<std::int64_t>(mantissa);
    };
    for (const double v : values) add(v);
    add(-1.0);
    // A negative sum is carried as its negation, whose bits are finite.
    double value = 0;
    if (carried_value(count, value)) return value;
    for (auto& c : count) c = -c;
    carried_value(count, value);
    return -value;
}

StabilityBound StabilityBound::from_catalog(const spec::ContractClass& contract) {
    model_params(contract, "stability_bound");
    return StabilityBound{number_param(contract, "c"), number_param(contract, "sum_c")};
}

double StabilityBound::element_bound(std::int64_t L, double u_acc, double u_out, double magnitude, double exact) const {
    return c * ref::gamma(L, u_acc) * magnitude + u_out * std::fabs(exact);
}

double StabilityBound::row_sum_bound(std::int64_t L, double u_acc, double u_out) const {
    return sum_c * (ref::gamma(L, u_acc) + u_out);
}

StabilityBoundResult StabilityBound::check(std::span<const double> got, std::span<const double> exact,
                                           std::span<const double> magnitude, std::int64_t L, double u_acc,
                                           double u_out, RowSums row_sums) const {
    if (got.size() != exact.size() || got.size() != magnitude.size())
        throw std::invalid_argument("stability_bound: got, exact and magnitude differ in length");
    if (L <= 0 || got.size() % static_cast<std::size_t>(L) != 0)
        throw std::invalid_argument("stability_bound: the outputs are not whole rows of length L");

    ElementJudgement j;
    for (std::size_t i = 0; i < got.size(); ++i)
        if (std::isfinite(exact[i]))  // the model promises nothing where y* is not finite
            j.judge(i, got[i], exact[i], element_bound(L, u_acc, u_out, magnitude[i], exact[i]));
    StabilityBoundResult r;
    r.elements = j.judged;
    r.nonfinite_where_finite = j.nonfinite;
    r.first_nonfinite = j.first_nonfinite.value_or(0);
    r.nan_where_finite = j.nan;
    r.elements_over_bound = j.over_bound;
    r.worst_ratio = j.worst_ratio;
    r.worst_element = j.worst.value_or(0);
    r.worst_error = j.worst_error;
    r.worst_bound = j.worst_bound;
    if (row_sums == RowSums::skip) return r;

    r.rows_checked = true;
    r.row_sum_bound = row_sum_bound(L, u_acc, u_out);
    const std::size_t length = static_cast<std::size_t>(L);
    for (std::size_t row = 0; row * length < got.size(); ++row) {
        const auto outputs = got.subspan(row * length, length);
        bool finite = true;
        for (const double y : outputs) finite = finite && std::isfinite(y);
        if (!finite) continue;
        const double deviation = std::fabs(exact_sum_minus_one(outputs));
        if (!(deviation <= r.row_sum_bound)) ++r.rows_over_sum_bound;
        if (deviation > r.worst_row_deviation) {
            r.worst_row_deviation = deviation;
            r.worst_row = row;
        }
    }
    return r;
}

}  // namespace kcs::suites::tolerance
