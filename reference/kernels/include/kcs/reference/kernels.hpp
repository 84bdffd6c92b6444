// The reference CPU kernels of every v1 operator, and the calibration
// violations layered on them.
//
// The conforming kernels are written as a careful vendor would write them:
// f32 arithmetic with an f32 accumulator, a fixed reduction order (so
// deterministic and batch-invariant), round-to-nearest-even stores, IEEE
// semantics (no fast-math, no contraction), NaN-propagating maximum,
// subnormals preserved, RAISE for out-of-range gather indices. They are NOT
// the oracles (reference/oracles): they compute in the operator's dtypes
// and are judged like any candidate.
//
// A Violation switches on one known way of breaking one contract class
// (spec/v1/catalog.yaml, implementations of kind violating); the adapter
// vendors/calibration exposes them through its violation=NAME option.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <kcs/dtypes.hpp>

namespace kcs::kernels {

using kcs::Dtype;  // kcs/dtypes.hpp: the one dtype vocabulary
using kcs::name_of;
using kcs::size_of;

// One tensor in host memory. Strides are in elements; the harness passes
// row-major contiguous tensors, and kernels may decline anything else.
struct Tensor {
    void* data = nullptr;
    Dtype dtype = Dtype::f32;
    std::vector<std::int64_t> shape;
    std::vector<std::int64_t> strides;

    std::int64_t elements() const;  // product of the shape (1 for rank 0)
    bool contiguous() const;
};

using Attribute = std::variant<bool, std::int64_t, double, std::string>;

// One operator invocation, as the adapter ABI's kcs_op describes it.
struct OpCall {
    std::string name;            // catalog operator id: matmul, softmax, unary, ...
    std::string function;        // family member: exp, mul_add, ...; empty otherwise
    std::optional<Dtype> accumulate;
    std::map<std::string, Attribute> attributes;
    std::vector<Tensor> inputs;  // inputs are only read
    std::vector<Tensor> outputs;

    // Attribute lookups with the operator's default when absent.
    bool flag(const std::string& name, bool fallback) const;
    double number(const std::string& name, double fallback) const;
};

enum class Violation {
    none,
    f16_accumulate,          // C-PRC-01: accumulates in f16 while declaring f32
    bf16_accumulate,         // C-PRC-01: accumulates in bf16
    naive_softmax,           // C-PRC-02: exp without subtracting the row maximum
    one_pass_variance,       // C-PRC-02: variance as E[x^2] - E[x]^2
    tf32_inputs,             // C-PRC-03: f32 inputs rounded to a 10-bit mantissa
    f16_coercion,            // C-PRC-03: f32 inputs converted to f16
    bf16_truncate,           // C-PRC-04: f32 -> bf16 by dropping the low 16 bits
    lowprec_split_partials,  // C-ORD-01: split-K partials stored in the output dtype
    nondeterministic_order,  // C-ORD-02: reduction order changes from call to call
    split_k_atomics,         // C-ORD-02: nondeterministic_order for at most 8 rows over K >= 1024
    batch_dependent_split,   // C-ORD-03: split-K chosen from the number of rows
    rare_batch_rounding,     // C-ORD-03: batched matmul splits K for a third of its columns
    fast_exp,                // C-CMP-01: bit-trick exponential
    tail_bf16_exp,           // C-CMP-01: exp rounded to bf16 on the n mod 8 elements past a call's last vector of 8
    approx_tanh,             // C-CMP-01: tanh as 1 - 2/(exp(2x) + 1)
    biased_log,              // C-CMP-01: log off by 2^-15 relative in f32, stores rounded correctly
    ftz_daz,                 // C-CMP-02: subnormal inputs and results flushed to zero
    large_tile_ftz,          // C-CMP-02: ftz_daz for M, K or N (rows or row length) >= 32
    contracted_mul_add,      // C-CMP-03: mul_add through a fused multiply-add
    nan_dropping_max,        // C-EXC-01: maximum through fmax
    vector_nan_dropping_max, // C-EXC-01: nan_dropping_max for reduce_max rows (count or length) >= 32
    oob_zero_under_raise,    // C-EXC-02: zero rows for bad indices while claiming raise
    tile_overrun,            // C-EXC-02: writes one element past the output
    stale_output,            // C-EXC-02: returns without writing the output
};

struct ViolationInfo {
    Violation violation;
    std::string_view name;         // the catalog implementation id, e.g. "f16-accumulate"
    std::string_view class_id;     // e.g. "C-PRC-01"
    std::string_view description;  // what it does and which real bug it mirrors
};

const std::vector<ViolationInfo>& violations();  // every violation but none
std::optional<Violation> parse_violation(std::string_view name);

// A behaviour that a claim value allows (spec/SPEC.md section 8), written
// the way vendors' kernels have it: the claim conformers of calibration.
// Each conforms to every class under the claims that allow it
// (vendors/calibration/conformers/NAME.yaml); several share the mechanism
// of a violation, which breaks the claims reference-cpu makes instead.
enum class Conformer {
    none,
    ftz,               // subnormals: flush. Every load and store flushes subnormals to zero (ftz_daz's mechanism)
    fma,               // fp_contract: on. mul_add, the layernorm affine step and the dot products fuse a*b+c
    clamp,             // oob_policy: clamp. gather reads the nearest valid row for an out-of-range index
    zero,              // oob_policy: zero. gather writes a row of +0 for it
    masked_zero,       // masked_row: zero. softmax and attention give 0 for a row whose entries are all -inf
    unordered_reduce,  // deterministic: false, batch_invariant: false. nondeterministic_order's reduction order
};

struct ConformerInfo {
    Conformer conformer;
    std::string_view name;         // e.g. "ftz"
    std::string_view claims;       // the claims it conforms under, e.g. "subnormals: flush"
    std::string_view description;  // what it does and which real kernels behave so
};

const std::vector<ConformerInfo>& conformers();  // every conformer but none
std::optional<Conformer> parse_conformer(std::string_view name);

enum class Status { ok, unsupported, out_of_range, invalid_argument };

struct Result {
    Status status = Status::ok;
    std::string message;  // why, when not ok
};

// How the kernels run: the violation to apply and the worker threads to use
// (results never depend on the thread count). `calls` counts the calls
// made through one adapter instance; only nondeterministic_order reads it.
struct Settings {
    Violation violation = Violation::none;
    int threads = 1;
    std::uint64_t calls = 0;
    Conformer conformer = Conformer::none;  // at most one of violation and conformer is set
};

// Whether run() computes this call (decided from names, dtypes, ranks and
// attributes only; data pointers are not touched).
Result supports(const OpCall& call, const Settings& settings);

// Runs one operator: checks the call (invalid_argument with a message when
// shapes or dtypes do not fit the operator), then computes every output.
Result run(const OpCall& call, const Settings& settings);

}  // namespace kcs::kernels
