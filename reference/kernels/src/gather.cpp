// gather: out[n, :] = table[index[n], :] (spec/v1/operators/gather.yaml),
// under the raise policy that reference-cpu claims, and the violation
// oob_zero_under_raise (C-EXC-02).
//
// A gather is a copy: rows move as bytes, so NaN payloads, subnormals and
// signed zeros arrive bit for bit (never through load/store, which would
// quiet a signalling NaN). For the same reason ftz_daz does not touch it.
#include <cstring>
#include <optional>
#include <string>

#include "element_access.hpp"
#include "operator_kernels.hpp"
#include "parallel.hpp"

namespace kcs::kernels::detail {

namespace {

Result check(const OpCall& call, const Settings&) {
    if (!call.function.empty()) return unsupported("gather has no functions; got '" + call.function + "'");
    if (!call.attributes.empty())
        return unsupported("gather takes no attributes; got '" + call.attributes.begin()->first + "'");
    if (call.inputs.size() != 2 || call.outputs.size() != 1)
        return invalid("gather takes two inputs (table, index) and one output (out)");
    const Tensor& table = call.inputs[0];
    const Tensor& index = call.inputs[1];
    const Tensor& out = call.outputs[0];
    if (!is_float(table.dtype) || (index.dtype != Dtype::i32 && index.dtype != Dtype::i64) ||
        out.dtype != table.dtype)
        return unsupported("gather reads an f32, f16 or bf16 table with i32 or i64 indices into the table's "
                           "dtype; got table " + std::string(name_of(table.dtype)) + ", index " +
                           std::string(name_of(index.dtype)) + ", out " + std::string(name_of(out.dtype)));
    if (table.shape.size() != 2) return invalid("gather: the table must have rank 2 ([R, C])");
    // out is [N, C] with N the number of indices (index may have any shape).
    const std::int64_t columns = table.shape[1];
    if (out.shape.empty() || out.shape.back() != columns || out.elements() != index.elements() * columns)
        return invalid("gather: out must be [N, C] for N indices and a table of C columns");
    return ok();
}

// The first index outside [0, rows) in position order, if any.
std::optional<std::int64_t> first_out_of_range(const Tensor& index, std::int64_t rows) {
    for (std::int64_t n = 0; n < index.elements(); ++n) {
        const std::int64_t row = load_index(index, n);
        if (row < 0 || row >= rows) return n;
    }
    return std::nullopt;
}

Result compute(const OpCall& call, const Settings& settings) {
    const Tensor& table = call.inputs[0];
    const Tensor& index = call.inputs[1];
    const Tensor& out = call.outputs[0];
    const std::int64_t rows = table.shape[0];
    const std::size_t row_bytes = static_cast<std::size_t>(table.shape[1]) * size_of(table.dtype);
    const bool zero_rows =
        settings.violation == Violation::oob_zero_under_raise || settings.conformer == Conformer::zero;
    const bool clamp_rows = settings.conformer == Conformer::clamp;

    // Raise: check every index before writing anything.
    if (!zero_rows && !clamp_rows) {
        if (const auto n = first_out_of_range(index, rows)) {
            return {Status::out_of_range, "gather: index[" + std::to_string(*n) + "] = " +
                                              std::to_string(load_index(index, *n)) + " is outside [0, " +
                                              std::to_string(rows) + ") (the policy is raise)"};
        }
    }
    if (row_bytes == 0) return ok();  // C = 0: nothing to copy (and the buffers may be empty)
    const auto* source = static_cast<const char*>(table.data);
    auto* target = static_cast<char*>(out.data);
    for_each_row(index.elements(), settings.threads, [&](std::int64_t n) {
        std::int64_t row = load_index(index, n);
        char* destination = target + static_cast<std::size_t>(n) * row_bytes;
        if (clamp_rows) row = std::min(std::max<std::int64_t>(row, 0), rows - 1);
        if (row < 0 || row >= rows) {
            std::memset(destination, 0, row_bytes);  // only a zero policy gets here: a row of +0
            return;
        }
        // A copy moves bits, whatever a kernel's float mode: only the ftz_daz
        // violation routes it through flushing float registers.
        if (settings.violation == Violation::ftz_daz) {
            // Through float registers with flush-to-zero and denormals-are-zero:
            // a subnormal comes out as a zero of its sign.
            const std::int64_t columns = table.shape[1];
            for (std::int64_t c = 0; c < columns; ++c)
                store(out, n * columns + c, load(table, row * columns + c, settings), settings);
            return;
        }
        std::memcpy(destination, source + static_cast<std::size_t>(row) * row_bytes, row_bytes);
    });
    return ok();
}

}  // namespace

const OperatorKernel kGather{"gather", check, compute};

}  // namespace kcs::kernels::detail
