// The harness's side of the adapter ABI's data: an operator invocation and
// the buffers it names, as owning C++ values. They cross to the worker as
// bytes (PROTOCOL.md) and become a kcs_op there.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <kcs/adapter.h>

namespace kcs::host {

// A device buffer of one worker. Buffers die with the worker that allocated
// them, so a handle remembers that worker's generation; IsolatedAdapter
// refuses handles of another generation instead of passing them on.
struct BufferHandle {
    kcs_buffer id = 0;  // the adapter's handle; 0 is never valid
    std::uint64_t generation = 0;

    friend bool operator==(const BufferHandle&, const BufferHandle&) = default;
};

struct Tensor {
    BufferHandle buffer;  // may be {} in supports()
    std::uint64_t offset = 0;  // in bytes
    kcs_dtype dtype = 0;
    std::vector<std::int64_t> shape;    // at most KCS_MAX_RANK entries; empty: a scalar
    std::vector<std::int64_t> strides;  // in elements; empty: row-major contiguous
};

// bool -> KCS_ATTR_BOOL, int64 -> KCS_ATTR_INT, double -> KCS_ATTR_FLOAT,
// string -> KCS_ATTR_STRING.
using AttributeValue = std::variant<bool, std::int64_t, double, std::string>;

struct Attribute {
    std::string name;
    AttributeValue value;
};

struct Operation {
    std::string name;                     // the catalog's operator id
    std::optional<std::string> function;  // the member of a family; none: NULL
    kcs_dtype accumulate = 0;
    std::vector<Attribute> attributes;
    std::vector<Tensor> inputs;
    std::vector<Tensor> outputs;
};

// What info() reports, as owned strings.
struct AdapterInfo {
    std::string adapter_name;
    std::string adapter_version;
    std::string vendor;
    std::string device;
    std::string driver_version;
    std::string notes;
};

}  // namespace kcs::host
