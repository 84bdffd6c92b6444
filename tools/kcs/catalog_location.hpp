// Where the catalogs this kcs carries live: $KCS_SPEC_ROOT/vN/ when that is
// set (a relocated tree); else PREFIX/share/kcs/spec/vN/ for a kcs installed
// in PREFIX/bin (cmake --install); else spec/vN/ beside the sources.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace kcs::cli {

struct CarriedCatalog {
    std::string name;  // "v1"
    std::filesystem::path dir;
};

std::filesystem::path spec_root();

// Every vN folder with a catalog.yaml under spec_root(), oldest first.
std::vector<CarriedCatalog> carried_catalogs();

// The newest carried catalog; throws std::runtime_error when there is none.
std::filesystem::path default_catalog();

// Released catalogs kept beside it for comparison: spec_root()/releases/
// MAJOR.MINOR.PATCH/ (each the catalog as released; SPEC.md section 10).
std::vector<CarriedCatalog> released_catalogs();

// Both: the carried vN catalogs, then the released ones. A report names
// the one it was judged under by digest.
std::vector<CarriedCatalog> every_catalog();

// A catalog named on the command line: a folder holding catalog.yaml, or a
// version: a released one, or the spec_version of a carried vN. Empty when
// none is found.
std::filesystem::path find_catalog(const std::string& folder_or_version);

// The catalog a --spec option names: the newest carried one for "", else
// find_catalog's, else the argument as a folder (whose loading then says
// what is wrong with it).
std::filesystem::path catalog_named(const std::string& folder_or_version);

}  // namespace kcs::cli
