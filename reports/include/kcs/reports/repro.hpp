// The one-line command that replays exactly one case of a run
// (spec/SPEC.md section 9): the same adapter, options, claims, catalog,
// profile and depth, one instance, one seed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kcs::reports {

struct ReproCommand {
    std::string adapter;               // a name, or an absolute path to the library
    std::vector<std::string> options;  // key=value, in the order given
    std::string claims_file;           // empty when the run used the catalog defaults
    std::string spec_dir;              // empty when the run used the newest carried catalog
    std::string profile;
    std::string depth;
    std::optional<int> timeout_s;  // set when the run did not use the default call timeout

    // "kcs run --adapter A [--option K=V]... [--claims F] [--spec D] --profile P
    //  --depth D [--timeout S] --case ID --seed S", each word quoted for a POSIX
    // shell where it needs to be.
    std::string line(std::string_view instance_id, std::uint64_t seed) const;
};

// `word` as a POSIX shell reads it back: unchanged when it is made only of
// characters no shell treats specially, else in single quotes.
std::string shell_quoted(std::string_view word);

}  // namespace kcs::reports
