// The worker's side of PROTOCOL.md: load the adapter, send the hello
// frame, then answer requests one by one until close or end of input.
#pragma once

#include <filesystem>

namespace kcs::host {

// Returns the worker's exit code: 0 after close or end of input, 1 when
// the adapter could not be loaded (the hello frame said why), 2 when the
// channel failed.
int serve(int channel, const std::filesystem::path& adapter);

}  // namespace kcs::host
