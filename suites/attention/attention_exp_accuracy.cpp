// C-CMP-01 Approximation accuracy (spec/v1/classes/C-CMP-01.yaml) for the
// exponential inside attention. The protocol: D = 64, whose default scale
// 1/sqrt(64) = 1/8 is exact; T = 64; K and V identity matrices; Q rows 8
// times the softmax probe rows (exp_probe_rows.hpp). Every score is then
// (1/8) * (8 x[s, t]) * 1 plus exact zeros, the logit itself, and
// O[s, d] = sum_t P[s, t] V[t, d] = P[s, d] with exact sums of zeros: each
// output is exp of its logit, judged exactly as softmax's.
#include "attention_probes.hpp"
#include "../exactness/exactness_common.hpp"
#include "../exactness/exp_probe_rows.hpp"
#include "kcs/suites/operator_io.hpp"

namespace kcs::suites {

namespace {

using namespace exactness;

constexpr std::int64_t kSize = kExpProbeRowLength;  // D = T = 64
constexpr double kQueryFactor = 8;                  // 1 / the default scale 1/sqrt(64)

harness::HostTensor identity(const std::string& dtype) {
    harness::HostTensor eye = from_values(dtype, {kSize, kSize}, std::vector<double>(kSize * kSize, 0.0));
    for (std::int64_t i = 0; i < kSize; ++i) eye.set_value(static_cast<std::size_t>(i * kSize + i), 1.0);
    return eye;
}

}  // namespace

harness::CaseResult attention_exp_accuracy(harness::ProbeContext& context) {
    const harness::Instance& instance = context.instance();
    const ConfigFormats f = formats_of(instance);
    const std::int64_t rows = exp_probe_rows(context.integer("samples"));
    const harness::HostTensor x = exp_probe_logits(f, context.seed(), rows);
    // 8x is exact: the logits lie in [-104, -20.8], far from overflow and underflow in every input dtype.
    harness::HostTensor q = x;
    for (std::size_t i = 0; i < q.elements(); ++i) q.set_value(i, kQueryFactor * x.value(i));
    std::vector<harness::HostTensor> inputs{q, identity(instance.config.inputs.at(1)),
                                            identity(instance.config.inputs.at(2))};
    const auto outputs = context.run(invocation(instance, std::move(inputs), {rows, kSize}));
    return judge_exp_probabilities(context, x, outputs[0], "Q", q);
}

}  // namespace kcs::suites
