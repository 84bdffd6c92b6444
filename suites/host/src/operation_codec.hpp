// An Operation on the wire (PROTOCOL.md, "op"), and back as a kcs_op.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <kcs/adapter.h>

#include "kcs/host/operation.hpp"
#include "payload_codec.hpp"

namespace kcs::host {

// Appends op. Throws std::invalid_argument for what a kcs_op cannot hold:
// a rank above KCS_MAX_RANK, strides that do not match the shape.
void encode_operation(const Operation& op, PayloadWriter& out);

// A kcs_op decoded from a request, together with the storage its pointers
// point into; hence neither copyable nor movable.
class DecodedOperation {
public:
    // Throws ProtocolError for a malformed op.
    explicit DecodedOperation(PayloadReader& in);
    DecodedOperation(const DecodedOperation&) = delete;
    DecodedOperation& operator=(const DecodedOperation&) = delete;

    const kcs_op& op() const noexcept { return op_; }

private:
    std::string name_;
    std::optional<std::string> function_;
    std::vector<std::string> attribute_names_;
    std::vector<std::string> attribute_strings_;
    std::vector<kcs_attribute> attributes_;
    std::vector<kcs_tensor> inputs_;
    std::vector<kcs_tensor> outputs_;
    kcs_op op_{};
};

}  // namespace kcs::host
