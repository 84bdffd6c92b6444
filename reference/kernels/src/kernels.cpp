// Dispatch from an operator name to its kernel, and the two violations that
// act on every operator alike (stale_output, tile_overrun).
#include <algorithm>
#include <array>
#include <cstring>

#include "operator_kernels.hpp"

namespace kcs::kernels {

namespace detail {

Result unsupported(std::string message) { return {Status::unsupported, std::move(message)}; }
Result invalid(std::string message) { return {Status::invalid_argument, std::move(message)}; }

}  // namespace detail

namespace {

using detail::OperatorKernel;

const OperatorKernel* find_kernel(const std::string& name) {
    static const std::array<const OperatorKernel*, 11> all{
        &detail::kMatmul,    &detail::kReduceSum, &detail::kReduceMax,   &detail::kSoftmax,
        &detail::kLayernorm, &detail::kRmsnorm,   &detail::kAttention,   &detail::kUnary,
        &detail::kElementwise, &detail::kCast,    &detail::kGather};
    const auto it = std::find_if(all.begin(), all.end(), [&](const OperatorKernel* k) { return k->name == name; });
    return it == all.end() ? nullptr : *it;
}

Result check_call(const OpCall& call, const Settings& settings, const OperatorKernel*& kernel) {
    kernel = find_kernel(call.name);
    if (!kernel) return detail::unsupported("no kernel for operator '" + call.name + "'");
    for (const auto* list : {&call.inputs, &call.outputs})
        for (const Tensor& t : *list)
            if (!t.contiguous()) return detail::unsupported("only row-major contiguous tensors are supported");
    return kernel->check(call, settings);
}

}  // namespace

std::int64_t Tensor::elements() const {
    std::int64_t n = 1;
    for (const auto extent : shape) n *= extent;
    return n;
}

bool Tensor::contiguous() const {
    if (strides.empty()) return true;
    if (strides.size() != shape.size()) return false;
    std::int64_t expected = 1;
    for (std::size_t d = shape.size(); d-- > 0;) {
        if (shape[d] != 1 && strides[d] != expected) return false;
        expected *= shape[d];
    }
    return true;
}

bool OpCall::flag(const std::string& key, bool fallback) const {
    const auto it = attributes.find(key);
    if (it == attributes.end()) return fallback;
    if (const auto* b = std::get_if<bool>(&it->second)) return *b;
    if (const auto* i = std::get_if<std::int64_t>(&it->second)) return *i != 0;
    return fallback;
}

double OpCall::number(const std::string& key, double fallback) const {
    const auto it = attributes.find(key);
    if (it == attributes.end()) return fallback;
    if (const auto* d = std::get_if<double>(&it->second)) return *d;
    if (const auto* i = std::get_if<std::int64_t>(&it->second)) return static_cast<double>(*i);
    return fallback;
}

const std::vector<ViolationInfo>& violations() {
    static const std::vector<ViolationInfo> all{
        {Violation::f16_accumulate, "f16-accumulate", "C-PRC-01",
         "Reductions hold their running sum in f16 while f32 is declared, adding 64-term tiles formed "
         "in f32: half-precision accumulation in tensor-core kernels that advertise f32 accumulators."},
        {Violation::bf16_accumulate, "bf16-accumulate", "C-PRC-01",
         "Reductions hold their running sum in bf16 (64-term f32 tiles); a sum of ones stalls at 16384. "
         "Offered but not calibrated: it fails the basic functional test by 5-50x, so it is not subtle."},
        {Violation::naive_softmax, "naive-softmax", "C-PRC-02",
         "Softmax (and attention) exponentiate the logits without subtracting the row maximum, so "
         "exp overflows to inf for logits above 88.7 (f32): the textbook formula shipped as a kernel."},
        {Violation::one_pass_variance, "one-pass-variance", "C-PRC-02",
         "Layer norm computes the variance as E[x^2] - E[x]^2 in one pass, which cancels catastrophically "
         "for rows with a large mean and small spread and can go negative (NaN after rsqrt)."},
        {Violation::tf32_inputs, "tf32-inputs", "C-PRC-03",
         "Matmul and attention round f32 inputs to a 10-bit mantissa (TF32) before multiplying: the "
         "default of common frameworks on tensor-core GPUs and the Ascend silent precision coercion."},
        {Violation::f16_coercion, "f16-coercion", "C-PRC-03",
         "Matmul and attention convert f32 inputs to f16 before multiplying, losing range (65504) and precision."},
        {Violation::bf16_truncate, "bf16-truncate", "C-PRC-04",
         "Every bf16 store drops the low 16 bits of the f32 value instead of rounding to nearest even "
         "(and turns NaNs with low payload bits into inf): the cheap conversion of early bf16 code."},
        {Violation::lowprec_split_partials, "lowprec-split-partials", "C-ORD-01",
         "Split reductions store each partial sum in the output dtype before combining them, so the "
         "result depends on the split: split-K kernels with narrow workspaces."},
        {Violation::nondeterministic_order, "nondeterministic-order", "C-ORD-02",
         "Reductions combine their partial sums in an order that changes from call to call, as "
         "floating-point atomics do."},
        {Violation::split_k_atomics, "split-k-atomics", "C-ORD-02",
         "matmul and reduce_sum with at most 8 rows (batch times M, or R) over K of 1024 or more split K "
         "and combine the partials in an order that changes from call to call, as a split-K kernel with "
         "atomic accumulation does for few outputs; larger problems run the deterministic kernel."},
        {Violation::batch_dependent_split, "batch-dependent-split", "C-ORD-03",
         "Reductions choose a split-K factor from the number of rows in the batch, so a row's result "
         "changes with the batch size: the batch-variance of inference servers."},
        {Violation::rare_batch_rounding, "rare-batch-rounding", "C-ORD-03",
         "matmul over more than one row sums K in two halves for every third column: f32 outputs change "
         "in most of those elements, f16 and bf16 outputs in about 1 of 20000, where the two sums round "
         "differently: the batched kernel of a library whose batch of one takes another path."},
        {Violation::fast_exp, "fast-exp", "C-CMP-01",
         "exp by the Schraudolph bit trick with a polynomial correction: fast, allclose-accurate, but "
         "wrong near underflow and overflow (no subnormal results)."},
        {Violation::tail_bf16_exp, "tail-bf16-exp", "C-CMP-01",
         "exp rounded to bf16's 8 significand bits on the scalar tail of a call (the elements past its last "
         "whole vector of 8) and correctly rounded elsewhere: a library whose vector body and remainder loop "
         "use different approximations, which calls of a multiple of 8 elements never show."},
        {Violation::approx_tanh, "approx-tanh", "C-CMP-01",
         "tanh as 1 - 2/(exp(2x) + 1), which cancels for small |x|: a common fast-math rewrite."},
        {Violation::biased_log, "biased-log", "C-CMP-01",
         "log evaluated in f32 with a relative error of 2^-15 (128 to 256 ulp) everywhere, each f16 and bf16 "
         "output the correct rounding of that f32 value: a cheaper log whose narrow stores are sound."},
        {Violation::ftz_daz, "ftz-daz", "C-CMP-02",
         "Subnormal inputs are read as zero and subnormal results stored as zero while the claims say "
         "preserve: the effect of FTZ/DAZ modes and -cl-denorms-are-zero."},
        {Violation::large_tile_ftz, "large-tile-ftz", "C-CMP-02",
         "matmul flushes subnormal inputs and results when M, K or N is 32 or more (reduce_sum, reduce_max "
         "and softmax when the row count or length is) and keeps them below: a library whose kernel for "
         "large problems is built with FTZ/DAZ while its small-problem kernel is not."},
        {Violation::contracted_mul_add, "contracted-mul-add", "C-CMP-03",
         "mul_add (and the affine step of the norms) is evaluated with a fused multiply-add while the "
         "claims say fp_contract off: the compiler's default contraction."},
        {Violation::nan_dropping_max, "nan-dropping-max", "C-EXC-01",
         "Maximum (reduce_max, elementwise maximum) through C fmax, which returns the non-NaN operand: "
         "OpenCL fmax on CPU devices."},
        {Violation::vector_nan_dropping_max, "vector-nan-dropping-max", "C-EXC-01",
         "reduce_max through C fmax when the row count or length is 32 or more and NaN-aware below: a "
         "library whose vectorised kernel for large rows uses a SIMD maximum that returns the second "
         "operand when one is NaN (x86 maxps), while its scalar kernel for small ones does not."},
        {Violation::oob_zero_under_raise, "oob-zero-under-raise", "C-EXC-02",
         "Gather writes zero rows for out-of-range indices and reports success while the claims say "
         "raise: the AMD out-of-bounds silent acceptance."},
        {Violation::tile_overrun, "tile-overrun", "C-EXC-02",
         "Writes one element past the end of its first output, as a kernel whose last tile is not "
         "masked does."},
        {Violation::stale_output, "stale-output", "C-EXC-02",
         "Returns without writing its output, leaving whatever the buffer held: the memory reuse of "
         "the Sakana AI CUDA Engineer incident."},
    };
    return all;
}

const std::vector<ConformerInfo>& conformers() {
    static const std::vector<ConformerInfo> all{
        {Conformer::ftz, "ftz", "subnormals: flush",
         "Every load reads a subnormal as a zero of its sign and every store writes a subnormal result as zero: "
         "FTZ/DAZ modes, -cl-denorms-are-zero, the default of many GPU compilers, declared as such."},
        {Conformer::fma, "fma", "fp_contract: on",
         "mul_add, the affine step of layernorm, matmul's dot products and attention's weighted sum are evaluated "
         "with fused multiply-adds: what a compiler's default contraction gives, declared as such."},
        {Conformer::clamp, "clamp", "oob_policy: clamp",
         "gather reads row min(max(i, 0), rows - 1) for an out-of-range index i, as index clamping in "
         "embedding kernels does."},
        {Conformer::zero, "zero", "oob_policy: zero",
         "gather writes a row of +0 for an out-of-range index and reports success, declared as such."},
        {Conformer::masked_zero, "masked-zero", "masked_row: zero",
         "softmax and attention give 0 for every element of a row whose entries are all masked (-inf), as "
         "kernels that guard the empty denominator do."},
        {Conformer::unordered_reduce, "unordered-reduce", "deterministic: false, batch_invariant: false",
         "Reductions combine their partial sums in an order that changes from call to call, as floating-point "
         "atomics do, declared nondeterministic and batch-variant."},
    };
    return all;
}

std::optional<Conformer> parse_conformer(std::string_view name) {
    if (name == "none") return Conformer::none;
    for (const auto& c : conformers())
        if (c.name == name) return c.conformer;
    return std::nullopt;
}

std::optional<Violation> parse_violation(std::string_view name) {
    if (name == "none") return Violation::none;
    for (const auto& v : violations())
        if (v.name == name) return v.violation;
    return std::nullopt;
}

Result supports(const OpCall& call, const Settings& settings) {
    const OperatorKernel* kernel = nullptr;
    return check_call(call, settings, kernel);
}

Result run(const OpCall& call, const Settings& settings) {
    const OperatorKernel* kernel = nullptr;
    if (Result checked = check_call(call, settings, kernel); checked.status != Status::ok) return checked;
    if (settings.violation == Violation::stale_output) return {};
    Result result = kernel->compute(call, settings);
    if (settings.violation == Violation::tile_overrun && result.status == Status::ok && !call.outputs.empty()) {
        // One element past the end, with the bits of the last element: the
        // write an unmasked tail tile makes.
        const Tensor& out = call.outputs.front();
        const std::size_t size = size_of(out.dtype);
        char* end = static_cast<char*>(out.data) + out.elements() * static_cast<std::int64_t>(size);
        if (out.elements() > 0) std::memcpy(end, end - size, size);
        else std::memset(end, 0x5A, size);
    }
    return result;
}

}  // namespace kcs::kernels
