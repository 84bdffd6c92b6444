// JSON read strictly, for every document a verifier or a signer trusts
// nothing about (reports, envelopes, keys, shard reports): a member named
// twice in one object is refused (RFC 8259 leaves the meaning open, and
// two readers that keep different copies would see different documents),
// and so are documents over a size or nesting limit, so that no later
// walk over the document recurses without bound.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string_view>

#include "kcs/spec/catalog.hpp"

namespace kcs::spec {

// Why a document was refused, in words with the byte offset where known.
class JsonError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct JsonLimits {
    std::size_t max_bytes = std::size_t{512} << 20;  // a full-depth report is a few MiB
    int max_depth = 64;                               // a report nests about 12 deep
};

// Throws JsonError: not JSON, a duplicated member, over a limit.
Json parse_json_strict(std::string_view text, const JsonLimits& limits = {});

}  // namespace kcs::spec
