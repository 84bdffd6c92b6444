// C-CMP-02 Subnormal handling (spec/v1/classes/C-CMP-02.yaml) for layernorm
// and rmsnorm, function probes (the norms approximate rsqrt): y_flush is
// exact (zero, beta = 0) and y_pres is judged by kind (finite, nonzero, of
// its sign), with |y_pres| at least the class's smallest function-probe
// value.
// Both run at every shape [rows, L] of the `shapes` parameter (L a multiple
// of 4, for the rows below to have mean 0).
//   Input side: rows of subnormals +a, -a, +a, ... (a from the grid's upper
//   half, stream 2^16, one per row) with gamma 1 and beta 0. The mean is 0
//   exactly in any order (every partial sum is a multiple of a within the
//   grid, and flushed partials are zeros), so y_pres = +-a * rstd, a normal
//   number of x's sign; read as zeros the row gives y_flush = beta = 0.
//   Output side: normal rows 3, -1, -1, -1, ... (mean 0, var* 3, so z and
//   x * rrms are sqrt(3) and -1/sqrt(3)) with gamma the smallest normal of
//   the input dtype: the -1/sqrt(3) entries give subnormal results where the
//   output dtype's subnormal range holds them (not for f16 inputs with an
//   f32 output, whose results stay normal), which flushing makes zero.
#include <cmath>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kcs/reference/layernorm_oracle.hpp"
#include "kcs/reference/philox.hpp"
#include "kcs/reference/rmsnorm_oracle.hpp"
#include "kcs/suites/operator_io.hpp"
#include "norm_probes.hpp"
#include "../precision/reduction_problems.hpp"
#include "../exactness/subnormal_batches.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;
using namespace subnormal_batches;
using harness::HostTensor;

constexpr std::uint32_t kGridStream = ref::auxiliary_stream(0);  // stream 2^16

bool is_layernorm(const harness::Instance& instance) {
    return precision::reducing_operator(instance) == precision::ReducingOperator::layernorm;
}

// y_pres of every element: the norm's oracle on the inputs as they are.
std::vector<double> y_pres_of(const harness::Instance& instance, const std::vector<HostTensor>& inputs,
                              const RowDims& d) {
    const ref::RowShape shape{d.rows, d.length};
    const double eps = precision::default_eps(instance);
    if (is_layernorm(instance))
        return ref::layernorm_oracle(values(inputs[0]), values(inputs[1]), values(inputs[2]), shape, eps).value;
    return ref::rmsnorm_oracle(values(inputs[0]), values(inputs[1]), shape, eps).value;
}

// x with gamma = `gamma` and beta = 0 (layernorm) as the call's inputs.
std::vector<HostTensor> operands(const harness::Instance& instance, HostTensor x, double gamma, std::size_t n) {
    const std::vector<std::int64_t> row{static_cast<std::int64_t>(n)};
    std::vector<HostTensor> inputs{std::move(x),
                                   from_values(instance.config.inputs.at(1), row, std::vector<double>(n, gamma))};
    if (is_layernorm(instance))
        inputs.push_back(from_values(instance.config.inputs.at(2), row, std::vector<double>(n, 0.0)));
    return inputs;
}

std::function<std::vector<std::string>(std::size_t)> row_evidence(const std::vector<HostTensor>& inputs,
                                                                  std::size_t n) {
    const HostTensor x = inputs[0], gamma = inputs[1];
    return [x, gamma, n](std::size_t i) {
        auto out = depends_on_range("x", x, i / n * n, n);
        out.push_back("gamma[" + std::to_string(i % n) + "]=" + hex_bits(gamma, i % n));
        return out;
    };
}

std::vector<std::int64_t> dims_of(const RowDims& d) {
    return {static_cast<std::int64_t>(d.rows), static_cast<std::int64_t>(d.length)};
}

Batch input_side(const harness::ProbeContext& context, const ConfigFormats& f, const RowDims& d) {
    const harness::Instance& instance = context.instance();
    const auto& in = ref::info(f.in);
    const std::int64_t largest_k = (std::int64_t{1} << (in.precision - 1)) - 1;
    const auto multiples = draw_integers(context.seed(), 0, kGridStream, 0, d.rows, (largest_k + 1) / 2, largest_k);
    std::vector<double> x;
    for (const std::int64_t k : multiples)
        for (std::size_t j = 0; j < d.length; ++j)
            x.push_back((j % 2 ? -1.0 : 1.0) * static_cast<double>(k) * in.min_subnormal);
    Batch b{"rows of subnormals +a, -a, ... with gamma 1, beta 0 " + d.text(),
            operands(instance, from_values(f.in_name, dims_of(d), x), 1.0, d.length), dims_of(d), {}, {}};
    const double smallest = smallest_function_probe_value(context, f);
    const auto y = y_pres_of(instance, b.inputs, d);
    for (std::size_t i = 0; i < y.size(); ++i) {
        if (!(std::fabs(y[i]) >= smallest) || !is_subnormal(f.in, x[i]))
            throw std::logic_error("C-CMP-02 norm probe: an input-side element left its window");
        const SubnormalSide side = is_subnormal(f.out, ref::round_to(f.out, y[i])) ? SubnormalSide::both
                                                                                   : SubnormalSide::input;
        b.elements.push_back({i, side, y[i], 0.0, false});
    }
    b.inputs_of = row_evidence(b.inputs, d.length);
    return b;
}

Batch output_side(const harness::ProbeContext& context, const ConfigFormats& f, const RowDims& d) {
    const harness::Instance& instance = context.instance();
    std::vector<double> x;
    for (std::size_t r = 0; r < d.rows; ++r)
        for (std::size_t j = 0; j < d.length; ++j) x.push_back(j % 4 == 0 ? 3.0 : -1.0);
    const double gamma = ref::info(float_format(instance.config.inputs.at(1))).min_normal;
    Batch b{"rows 3, -1, -1, -1, ... with gamma the smallest normal " + d.text(),
            operands(instance, from_values(f.in_name, dims_of(d), x), gamma, d.length), dims_of(d), {}, {}};
    const double smallest = smallest_function_probe_value(context, f);
    const auto y = y_pres_of(instance, b.inputs, d);
    for (std::size_t i = 0; i < y.size(); ++i)
        if (inside_subnormal_range(f.out, y[i], smallest))
            b.elements.push_back({i, SubnormalSide::output, y[i], 0.0, false});
    b.inputs_of = row_evidence(b.inputs, d.length);
    return b;  // no elements where the output's range holds the results as normals
}

}  // namespace

harness::CaseResult norm_subnormal_handling(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    if (!precision::is_norm(precision::reducing_operator(instance)))
        throw std::invalid_argument(instance.id + ": this C-CMP-02 probe measures layernorm and rmsnorm only");
    const ConfigFormats f = formats_of(instance);
    std::vector<Batch> batches;
    for (const RowDims& d : row_dims(instance, 4, "rows of mean 0: +a, -a, ... and 3, -1, -1, -1, ...", 4)) {
        batches.push_back(input_side(context, f, d));
        batches.push_back(output_side(context, f, d));
    }
    return judge_batches(context, std::move(batches));
}

}  // namespace kcs::suites
