// libFuzzer harness for the catalog loader: the input is one catalog file
// (the first byte picks its role: catalog.yaml itself, or a class,
// operator or profile file that a fixed catalog.yaml includes), written
// into a private folder and loaded. Any diagnostics are fine; a crash, a
// sanitizer report or an exception escaping load_catalog is a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "kcs/spec/catalog.hpp"

namespace {

namespace fs = std::filesystem;

const fs::path& folder() {
    static const fs::path dir = [] {
        fs::path d = fs::temp_directory_path() / ("kcs-fuzz-catalog-" + std::to_string(::getpid()));
        fs::create_directories(d / "classes");
        fs::create_directories(d / "operators");
        fs::create_directories(d / "profiles");
        return d;
    }();
    return dir;
}

void write(const fs::path& file, const char* data, std::size_t size) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out.write(data, static_cast<std::streamsize>(size));
}

// A catalog.yaml that includes the one file under test.
std::string stub_including(const std::string& kind, const std::string& file) {
    return "catalog: kcs-contracts\nspec_version: 1.0.0\ntitle: fuzz\ninclude:\n  " + kind + ": [" + file + "]\n";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const char* text = reinterpret_cast<const char*>(data + 1);
    const std::size_t length = size - 1;
    const fs::path& dir = folder();
    static const char* const kinds[] = {"classes", "operators", "profiles"};
    const unsigned role = data[0] % 4;
    if (role == 0) {
        write(dir / "catalog.yaml", text, length);
    } else {
        const std::string kind = kinds[role - 1];
        const std::string file = kind + "/fuzzed.yaml";
        const std::string stub = stub_including(kind, file);
        write(dir / "catalog.yaml", stub.data(), stub.size());
        write(dir / file, text, length);
    }
    const kcs::spec::LoadResult result = kcs::spec::load_catalog(dir);
    // Every diagnostic renders (str() walks the message and hint).
    static volatile std::size_t sink;
    for (const auto& d : result.diagnostics.all()) sink = sink + d.str().size();
    return 0;
}
