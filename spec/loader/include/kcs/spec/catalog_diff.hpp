// kcs spec diff: what changed from one catalog release to another, and
// the least version step each change needs under SPEC.md section 10's
// compatibility policy. Every change names its subject ("class C-ORD-03",
// "operator matmul, C-ORD-01 parameter shapes"), what happened to it
// (added, removed, tightened, loosened, stronger, weaker, changed, text)
// and why it needs the step it needs.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "kcs/spec/catalog.hpp"

namespace kcs::spec {

enum class VersionStep { patch, minor, major };
std::string_view to_string(VersionStep step);  // "patch", "minor", "major"

struct CatalogChange {
    std::string subject;
    std::string change;  // added | removed | tightened | loosened | stronger | weaker | superseded | changed | text
    std::string detail;  // "3 -> 4", "K's values are the dimension 1 of shapes", ...
    VersionStep needs = VersionStep::patch;
};

struct CatalogDiff {
    std::string from_version, to_version;
    std::string from_digest, to_digest;
    std::vector<CatalogChange> changes;
    // The instances (class/operator[.function]/config; the variant is the
    // class's sweep) each catalog plans under its profiles.
    std::vector<std::string> instances_added, instances_removed;

    VersionStep needed() const;  // the largest step any change needs (patch when none)
};

CatalogDiff diff_catalogs(const Catalog& from, const Catalog& to);

// The instances a catalog plans, as CLASS/OPERATOR[.FUNCTION]/CONFIG (an
// instance id without its major version and variant), under one profile,
// or under every profile when `profile` is empty.
std::set<std::string> instance_keys(const Catalog& catalog, const std::string& profile = "");

// The step from one version to another (1.0.0 -> 1.1.0: minor); nullopt
// when `to` is not above `from`.
std::optional<VersionStep> version_step(std::string_view from, std::string_view to);

}  // namespace kcs::spec
