// ${KCS_ROOT}: the checkout kcs was built from, or the folder the
// environment variable KCS_ROOT names (another machine's checkout). Replay
// lines and a report's subjects write a path under it as
// "${KCS_ROOT}/vendors/opencl/claims.yaml", so that they carry no local
// folder and replay from anywhere; quoted in a replay line, the shell
// leaves the text alone and kcs expands it itself.
#pragma once

#include <filesystem>
#include <string>

namespace kcs::cli {

std::filesystem::path kcs_root();

// "${KCS_ROOT}/REL" for a path under kcs_root(), else the path as it is.
std::string rooted(const std::filesystem::path& path);

// An argument as kcs reads it: "${KCS_ROOT}" at its start, or right after
// "=" ("--claims=${KCS_ROOT}/..."), becomes kcs_root().
std::string expand_root(const std::string& argument);

}  // namespace kcs::cli
