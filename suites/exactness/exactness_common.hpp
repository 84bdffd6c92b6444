// What the exactness probes (C-PRC-04, C-CMP-01, C-CMP-02, C-EXC-01) share:
// the formats of an instance's configuration, verdicts with cited bounds,
// evidence about input elements, auxiliary draws from the catalog generator
// and the exactness test of constructed sums.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "../tolerance/model_citation.hpp"
#include "kcs/harness/case_verdict.hpp"
#include "kcs/harness/probe.hpp"
#include "kcs/reference/formats.hpp"

namespace kcs::suites::exactness {

// The dtypes of an instance's configuration as formats. `acc` is the
// declared accumulator, or the output dtype where none is declared
// (reduce_max, which performs no arithmetic).
struct ConfigFormats {
    ref::Format in;
    ref::Format out;
    ref::Format acc;
    std::string in_name;
    std::string out_name;
};
ConfigFormats formats_of(const harness::Instance& instance);

// The one verdict and citation helpers (harness/case_verdict.hpp, tolerance/model_citation.hpp).
using harness::failed;
using harness::passed;
using tolerance::model_citation;

// An element's encoding (low 16 bits for f16 and bf16) and as "0x3f800000".
std::uint32_t bits_at(const harness::HostTensor& tensor, std::size_t index);
std::string hex(ref::Format format, std::uint32_t bits);

// The evidence entries for input elements of `tensor` (named `name`) that an
// output depends on: "x[5]=0x3c00" each, or their indices alone ("x[5]")
// where there are more than 64 of them (spec/SPEC.md section 9).
std::vector<std::string> depends_on(const std::string& name, const harness::HostTensor& tensor,
                                    std::span<const std::size_t> indices);
std::vector<std::string> depends_on_range(const std::string& name, const harness::HostTensor& tensor, std::size_t first,
                                          std::size_t count);

// Integers in [lo, hi] from the catalog generator (spec/SPEC.md section 4):
// element first_index + j of input tensor `tensor` in stream `stream`.
std::vector<std::int64_t> draw_integers(std::uint64_t seed, std::uint32_t tensor, std::uint32_t stream,
                                        std::uint64_t first_index, std::size_t count, std::int64_t lo, std::int64_t hi);

// The instance's `shapes` parameter (a probe's sweep across the sizes at
// which libraries switch kernels): at least one shape, every shape `rank`
// extents, each >= 1, else std::invalid_argument naming the instance and
// `layout` ("[M, K, N]").
std::vector<std::vector<std::int64_t>> probe_shapes(const harness::Instance& instance, std::size_t rank,
                                                    const std::string& layout);

// A shape as evidence names it: "[33x33x33]".
std::string shape_text(std::span<const std::int64_t> shape);

// A tensor of catalog dtype `dtype` holding the encodings `bits`.
harness::HostTensor tensor_of_bits(const std::string& dtype, std::vector<std::int64_t> shape,
                                   const std::vector<std::uint32_t>& bits);

// The exponent L of the lowest set bit of a finite nonzero v: v is an odd multiple of 2^L.
int lowest_set_bit(double v);

// The largest magnitude any partial sum of `terms` can reach, in any order
// and grouping: the sum of the positive terms or of the negative ones.
double largest_partial_sum(std::span<const double> terms);

// Whether every partial sum of `terms`, in any order and grouping, is
// exact in f32: all terms are multiples of one power of two 2^L (at least
// f32's smallest subnormal) and no partial sum reaches 2^(L + 24) or
// exceeds f32's largest finite, so every partial sum is a multiple of 2^L
// with at most 24 significant bits. Terms must be finite.
bool exact_in_f32_any_order(std::span<const double> terms);

// The largest (most positive) value of `format` at or below x, and the
// smallest at or above it (x finite and within the format's finite range).
double value_at_or_below(ref::Format format, double x);
double value_at_or_above(ref::Format format, double x);

}  // namespace kcs::suites::exactness
