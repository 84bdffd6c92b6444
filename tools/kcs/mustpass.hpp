// Must-pass lists (SPEC.md section 10): for each catalog release and
// profile, the instance ids a certificate requires, generated from the
// catalog (harness::mustpass_ids) and committed under
// spec/mustpass/VERSION/PROFILE.txt. kcs spec mustpass writes and checks
// them; kcs certify at a certifiable depth records which of them its plan
// lacks.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "kcs/harness/plan.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::cli {

// spec_root()/mustpass/VERSION/PROFILE.txt
std::filesystem::path mustpass_file(const std::string& version, const std::string& profile);

// The list's text: a header of '#' lines (release, digest, profile, count), then one id a line.
std::string mustpass_text(const spec::Catalog& catalog, const spec::Profile& profile);

// The predicate's "mustpass": the committed list for the catalog's version
// and the profile (or, where none is committed, the one the catalog
// generates), its digest, how many ids it holds and those `plan` lacks.
spec::Json mustpass_record(const spec::Catalog& catalog, const spec::Profile& profile,
                           const std::vector<harness::Instance>& plan);

}  // namespace kcs::cli
