// Which Debian package installed a library adapter's shared object, so
// that info() names the library's version where the library itself has no
// version API (XNNPACK) or reports its upstream version alone (ATen).
#pragma once

#include <string>
#include <string_view>

namespace kcs::device {

// The package whose dpkg file list holds `file` (a shared object's real
// path): its version ("0.0~git20220216.ae108ef-2", "" where unknown) and a
// sentence naming the package, or saying why it is unknown. Only the lists
// of packages whose names start with `list_prefix` ("libxnnpack") are read:
// reading every list would cost each open a scan of the whole database.
struct Package {
    std::string version, text;
};
Package package_of(const std::string& file, std::string_view list_prefix);

}  // namespace kcs::device
