// Which shared object a library adapter really computes with: its info()
// names it, so that a report says which file was loaded.
#pragma once

#include <string>

namespace kcs::device {

// The file of the shared object that defines `symbol`, as the dynamic
// loader found it (dladdr), followed by " -> " and the file it resolves
// to where that is another (a symlink, e.g. a Debian alternative).
// Throws AdapterFailure (KCS_DEVICE_ERROR) when no loaded object holds it.
std::string shared_object_of(const void* symbol);

}  // namespace kcs::device
