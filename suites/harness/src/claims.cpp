// Reading a vendor's claims file: the catalog loader's strict YAML reader
// (size, UTF-8, syntax, duplicate keys, locations), then every id and value
// checked against the catalog's claims.
#include "kcs/harness/claims.hpp"

#include <algorithm>
#include <fstream>
#include <optional>

#include "kcs/spec/sha256.hpp"
#include "yaml_reader.hpp"

namespace kcs::harness {

namespace {

namespace reader = spec::detail;

const char* const kShapeHint =
    "a claims file is one YAML mapping of claim id to value, e.g. 'oob_policy: raise' (spec/SPEC.md section 8)";

// The file's bytes, read once: the digest and the values come from the same
// bytes, so a report never pairs a digest with values of another version.
std::optional<std::string> read_bytes(const std::filesystem::path& file, const std::string& name,
                                      spec::Diagnostics& diags) {
    const spec::SourceLocation whole{name, 0, 0};
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) {
        diags.input(whole, "is a folder, not a claims file", "name the claims file itself");
        return std::nullopt;
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        diags.input(whole, "cannot open the claims file", "check that it exists and is readable");
        return std::nullopt;
    }
    // One byte past the limit tells an oversized file without reading it all.
    std::string bytes(reader::kMaxFileBytes + 1, '\0');
    in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (in.bad()) {
        diags.input(whole, "cannot read the claims file", "check that it is a readable file");
        return std::nullopt;
    }
    bytes.resize(static_cast<std::size_t>(in.gcount()));
    if (bytes.size() > reader::kMaxFileBytes) {
        diags.input(whole, "file is over the " + std::to_string(reader::kMaxFileBytes) + "-byte limit",
                    "a claims file holds one line per claim");
        return std::nullopt;
    }
    return bytes;
}

// Booleans are read as the strings "true" and "false" (SPEC.md section 8):
// YAML 1.2's plain True/TRUE/False/FALSE become them. YAML 1.1's yes/no/on/off
// are not booleans here: "on" and "off" are values of fp_contract. A quoted
// value is taken exactly as written.
std::string claim_text(const YAML::Node& node, const std::string& text) {
    const bool plain = node.Tag() == "?";
    if (plain && (text == "True" || text == "TRUE")) return "true";
    if (plain && (text == "False" || text == "FALSE")) return "false";
    return text;
}

std::vector<std::string> claim_ids(const spec::Catalog& catalog) {
    std::vector<std::string> ids;
    for (const auto& c : catalog.claims) ids.push_back(c.id);
    return ids;
}

// The value of one claim, or nullopt after reporting why it is not one of
// the claim's values.
std::optional<std::string> claim_value(reader::Document& doc, const spec::Claim& claim, const YAML::Node& key,
                                       const YAML::Node& node) {
    if (node.IsNull()) {  // yaml-cpp places an absent value on the next line: report at the key
        doc.finding(key, "claim " + claim.id + " has no value", "write " + reader::one_of_list(claim.values));
        return std::nullopt;
    }
    const auto text = reader::as_text(doc, node, "claim " + claim.id);
    if (!text) return std::nullopt;
    std::string value = claim_text(node, *text);
    if (std::find(claim.values.begin(), claim.values.end(), value) == claim.values.end()) {
        doc.finding(node, "claim " + claim.id + ": '" + value + "' is not " + reader::one_of_list(claim.values),
                    reader::did_you_mean(value, claim.values));
        return std::nullopt;
    }
    return value;
}

void read_values(reader::Document& doc, const spec::Catalog& catalog, Claims& claims) {
    // Fields reports a repeated claim; only its first statement is read.
    const reader::Fields fields(doc, doc.root(), "claims file");
    const auto known = claim_ids(catalog);
    std::vector<std::string> seen;
    for (const auto& entry : doc.root()) {
        const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : std::string{};
        const spec::Claim* claim = catalog.find_claim(key);
        if (!claim) {
            std::string hint = reader::did_you_mean(key, known);
            if (hint.empty()) hint = "the catalog's claims are " + reader::one_of_list(known).substr(7);
            doc.finding(entry.first, "unknown claim '" + key + "'", hint);
            continue;
        }
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        seen.push_back(key);
        if (const auto value = claim_value(doc, *claim, entry.first, entry.second)) {
            claims.values[claim->id] = *value;
            claims.declared.insert(claim->id);
        }
    }
}

}  // namespace

bool Claims::is_true(const std::string& id) const {
    const auto it = values.find(id);
    return it != values.end() && it->second == "true";
}

Claims default_claims(const spec::Catalog& catalog) {
    Claims claims;
    for (const auto& c : catalog.claims) claims.values[c.id] = c.default_value;
    return claims;
}

ClaimsResult load_claims(const std::filesystem::path& file, const spec::Catalog& catalog) {
    ClaimsResult result{default_claims(catalog), {}};
    const std::string name = file.string();
    spec::Diagnostics found;
    if (const auto bytes = read_bytes(file, name, found)) {
        result.claims.file = file;
        result.claims.digest = kcs::sha256_digest(*bytes);
        reader::Document doc(name, found);
        doc.set_shape_hint(kShapeHint);
        if (doc.parse(*bytes)) read_values(doc, catalog, result.claims);
    }
    // Every problem of a claims file is an input error (SPEC.md section 8),
    // though the reader files schema problems as lint findings.
    for (const auto& d : found.all()) result.diagnostics.input(d.where, d.message, d.hint);
    result.diagnostics.sort_by_location();
    return result;
}

std::vector<RejectedClaim> claims_not_accepted(const spec::Profile& profile, const Claims& claims) {
    std::vector<RejectedClaim> out;
    for (const auto& [id, value] : claims.values) {
        if (claims.not_needed.contains(id)) continue;
        const auto accepted = profile.claims.find(id);
        if (accepted == profile.claims.end()) continue;  // the profile does not restrict this claim
        const auto& values = accepted->second;
        if (std::find(values.begin(), values.end(), value) == values.end()) out.push_back({id, value, values});
    }
    return out;
}

Claims judged_under(const spec::Profile& profile, const Claims& claims) {
    Claims judged = claims;
    for (const RejectedClaim& refused : claims_not_accepted(profile, claims))
        if (refused.accepted.size() == 1) judged.values[refused.id] = refused.accepted.front();
    return judged;
}

void scope_claims(Claims& claims, const spec::Catalog& catalog, const std::vector<std::string>& declined_operators) {
    const auto declined = [&](const std::string& op) {
        return std::find(declined_operators.begin(), declined_operators.end(), op) != declined_operators.end();
    };
    for (const auto& claim : catalog.claims) {
        if (claim.operators.empty() || !std::all_of(claim.operators.begin(), claim.operators.end(), declined)) continue;
        std::string ops;
        for (const auto& op : claim.operators) ops += (ops.empty() ? "" : ", ") + op;
        claims.not_needed[claim.id] = "the adapter declines every configuration of " + ops;
    }
}

}  // namespace kcs::harness
