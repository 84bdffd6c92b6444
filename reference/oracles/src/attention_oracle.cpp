#include "kcs/reference/attention_oracle.hpp"

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "format_values.hpp"
#include "kcs/reference/compensated_sum.hpp"
#include "shifted_exp.hpp"

namespace kcs::ref {
namespace {

constexpr std::string_view kOp = "attention oracle";
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// scale * dot as a double-double: exact but for the dot product's own
// error and one rounding of the low part. Non-finite dot products (inf or
// NaN inputs) follow f64 arithmetic.
DoubleDouble scaled_score(const CompensatedDot& dot, double scale) {
    const double value = dot.value();
    if (!std::isfinite(value)) return {scale * value, 0.0};
    const DoubleDouble pair = dot.pair();
    const DoubleDouble product = two_product(scale, pair.hi);
    if (!std::isfinite(product.hi)) return {product.hi, 0.0};
    return two_sum(product.hi, product.lo + scale * pair.lo);
}

// The scores of one query row against its visible keys, with their
// magnitudes scale * sum_d |q_d k_td|.
void score_row(std::span<const double> query, std::span<const double> keys, std::size_t visible,
               std::size_t head_dim, double scale, std::vector<DoubleDouble>& scores,
               std::vector<double>& magnitudes) {
    for (std::size_t t = 0; t < visible; ++t) {
        CompensatedDot dot;
        for (std::size_t d = 0; d < head_dim; ++d) dot.add_product(query[d], keys[t * head_dim + d]);
        scores[t] = scaled_score(dot, scale);
        magnitudes[t] = scale * dot.magnitude();
    }
}

// The largest score (double-doubles compared high part first); NaN if any is.
DoubleDouble largest_score(std::span<const DoubleDouble> scores) {
    DoubleDouble largest{-HUGE_VAL, 0.0};
    for (const DoubleDouble& s : scores) {
        if (std::isnan(s.hi)) return {kNaN, 0.0};
        if (s.hi > largest.hi || (s.hi == largest.hi && s.lo > largest.lo)) largest = s;
    }
    return largest;
}

}  // namespace

double default_attention_scale(std::size_t head_dim, Format format) {
    if (head_dim == 0) throw std::invalid_argument("attention scale: head dimension D is 0");
    mpfr_t d, scale;
    mpfr_init2(d, 64);
    mpfr_init2(scale, info(format).precision);
    mpfr_set_ui(d, static_cast<unsigned long>(head_dim), MPFR_RNDN);  // exact in 64 bits
    mpfr_rec_sqrt(scale, d, MPFR_RNDN);  // one rounding to the format's precision
    const double value = mpfr_get_d(scale, MPFR_RNDN);  // exact: at most 24 bits
    mpfr_clear(d);
    mpfr_clear(scale);
    if (value < info(format).min_normal) {
        // MPFR rounded to a normal significand; a subnormal result would differ.
        throw std::invalid_argument("attention scale: 1/sqrt(" + std::to_string(head_dim) +
                                    ") is below the normal range of " +
                                    std::string(info(format).name));
    }
    return value;
}

AttentionResult attention_oracle(std::span<const double> q, std::span<const double> k,
                                 std::span<const double> v, const AttentionShape& shape,
                                 const AttentionOptions& options) {
    const std::size_t queries = shape.queries, keys = shape.keys, head_dim = shape.head_dim;
    if (keys == 0 || head_dim == 0) {
        throw std::invalid_argument(std::string(kOp) + ": keys T = " + std::to_string(keys) +
                                    " and head dimension D = " + std::to_string(head_dim) +
                                    " must both be >= 1");
    }
    const std::size_t outputs = element_count(kOp, queries, head_dim);
    require_size(kOp, "Q", q.size(), outputs);
    require_size(kOp, "K", k.size(), element_count(kOp, keys, head_dim));
    require_size(kOp, "V", v.size(), element_count(kOp, keys, head_dim));

    AttentionResult result;
    result.scale = options.scale ? detail::round_to_format(options.accumulate, *options.scale)
                                 : default_attention_scale(head_dim, options.accumulate);
    result.value.resize(outputs);
    result.weighted_abs_value.resize(outputs);
    result.gap_weighted_abs_value.resize(outputs);
    result.abs_value_sum.resize(outputs);
    result.score_max.resize(queries);
    result.denominator.resize(queries);
    result.score_magnitude.resize(queries);

    std::vector<DoubleDouble> scores(keys);
    std::vector<double> magnitudes(keys), weights(keys);
    std::vector<CompensatedDot> weighted_values(head_dim);
    for (std::size_t s = 0; s < queries; ++s) {
        const std::size_t visible = options.causal ? std::min(keys, s + 1) : keys;
        const auto visible_scores = std::span(scores).first(visible);
        score_row(q.subspan(s * head_dim, head_dim), k, visible, head_dim, result.scale, scores,
                  magnitudes);
        const DoubleDouble largest = largest_score(visible_scores);
        const double m = largest.hi;
        double score_magnitude = 0.0;
        for (std::size_t t = 0; t < visible; ++t) {
            if (scores[t].hi != -HUGE_VAL) score_magnitude = std::max(score_magnitude, magnitudes[t]);
        }
        result.score_max[s] = m;
        result.score_magnitude[s] = score_magnitude;

        const std::size_t out = s * head_dim;
        if (!std::isfinite(m)) {  // NaN, +inf (inf - inf) or every score -inf
            const bool zero_row = m == -HUGE_VAL && options.masked_row == MaskedRow::zero;
            const double fill = zero_row ? 0.0 : kNaN;
            for (auto* array : {&result.value, &result.weighted_abs_value,
                                &result.gap_weighted_abs_value, &result.abs_value_sum}) {
                std::fill_n(array->begin() + static_cast<std::ptrdiff_t>(out), head_dim, fill);
            }
            result.denominator[s] = kNaN;
            continue;
        }

        CompensatedSum denominator;
        for (std::size_t t = 0; t < visible; ++t) {
            const bool masked = scores[t].hi == -HUGE_VAL;
            weights[t] = masked ? 0.0 : detail::exp_of_sum(detail::subtract(scores[t], largest));
            denominator.add(weights[t]);
        }
        const double total = denominator.value();
        result.denominator[s] = total;

        std::fill(weighted_values.begin(), weighted_values.end(), CompensatedDot{});
        for (std::size_t d = 0; d < head_dim; ++d) {
            result.weighted_abs_value[out + d] = 0.0;
            result.gap_weighted_abs_value[out + d] = 0.0;
            result.abs_value_sum[out + d] = 0.0;
        }
        for (std::size_t t = 0; t < visible; ++t) {
            if (scores[t].hi == -HUGE_VAL) continue;  // masked: no contribution
            const double gap = m - scores[t].hi;
            const auto value_row = v.subspan(t * head_dim, head_dim);
            for (std::size_t d = 0; d < head_dim; ++d) {
                const double magnitude = std::fabs(value_row[d]);
                weighted_values[d].add_product(weights[t], value_row[d]);
                result.weighted_abs_value[out + d] += weights[t] * magnitude;
                result.gap_weighted_abs_value[out + d] += weights[t] * gap * magnitude;
                result.abs_value_sum[out + d] += magnitude;
            }
        }
        for (std::size_t d = 0; d < head_dim; ++d) {
            result.value[out + d] = weighted_values[d].value() / total;
            result.weighted_abs_value[out + d] /= total;
            result.gap_weighted_abs_value[out + d] /= total;
        }
    }
    return result;
}

}  // namespace kcs::ref
