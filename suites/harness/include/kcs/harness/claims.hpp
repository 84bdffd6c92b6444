// A vendor's claims file (spec/SPEC.md section 8): claim id -> value, every
// id and value one the catalog defines, absent claims at their default.
#pragma once

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kcs/spec/catalog.hpp"

namespace kcs::harness {

struct Claims {
    std::map<std::string, std::string> values;  // every catalog claim, defaults filled in
    std::string digest;                         // "sha256:HEX" of the file's bytes; empty without a file
    std::filesystem::path file;                 // empty when every claim is the default
    std::set<std::string> declared;             // the ids the file states; the others are defaults
    // Claims the run does not need, with why: they state the behaviour of
    // operators the adapter declines as a whole (scope_claims). No profile
    // judges their values.
    std::map<std::string, std::string> not_needed;

    const std::string& at(const std::string& id) const { return values.at(id); }
    bool is_true(const std::string& id) const;  // false for an id the catalog lacks
};

// Reads and checks a claims file against the catalog. Every problem comes
// back as a diagnostic with file:line:column (unknown claim with a
// did-you-mean hint, value not among the catalog's values, not a mapping,
// YAML syntax, unreadable file); `claims` is meaningful only when there is
// none. The CLI exits 2 on any.
struct ClaimsResult {
    Claims claims;
    spec::Diagnostics diagnostics;
};
ClaimsResult load_claims(const std::filesystem::path& file, const spec::Catalog& catalog);

// Every claim at its catalog default (no file).
Claims default_claims(const spec::Catalog& catalog);

// A claim value in force (declared or default) that a profile does not
// accept: that profile is NON-CONFORMANT whatever the instances do
// (spec/SPEC.md section 5), though its plan still lists them.
struct RejectedClaim {
    std::string id;
    std::string value;
    std::vector<std::string> accepted;  // the profile's values for this claim
};
// Ordered by claim id; empty when the profile accepts every value. A claim
// the run does not need (Claims::not_needed) is never rejected.
std::vector<RejectedClaim> claims_not_accepted(const spec::Profile& profile, const Claims& claims);

// The claims an instance of `profile` is judged by. A value the profile
// refuses is replaced by the one value it accepts, where it accepts exactly
// one; for strict that is subnormals: preserve and fp_contract: off. The
// reason is spec/SPEC.md section 4: a flush or a contraction is allowed
// only where the profile accepts the claim. A refused value among several
// accepted ones (oob_policy: undefined under strict) stays: no single value
// speaks for the profile, and the refusal already makes the profile
// NON-CONFORMANT. The plan's applicability and the report keep the
// declared values (claims_not_accepted names the refused ones).
Claims judged_under(const spec::Profile& profile, const Claims& claims);

// Marks as not needed every claim whose catalog entry names operators
// (spec::Claim::operators) all of which the adapter declines as a whole
// (`declined_operators`, found by asking its supports()): SPEC.md section 8.
void scope_claims(Claims& claims, const spec::Catalog& catalog, const std::vector<std::string>& declined_operators);

}  // namespace kcs::harness
