// Adapters by name: KCS_ADAPTER_PATH first, then the build tree.
#include <gtest/gtest.h>

#include "kcs/host/adapter_error.hpp"
#include "kcs/host/adapter_search.hpp"
#include "test_support.hpp"

namespace kcs::host {
namespace {

namespace fs = std::filesystem;

TEST(AdapterSearch, PathEntriesComeFirstAndEmptyOnesAreSkipped) {
    const auto dirs = adapter_search_path("/a::/b:", "/build/lib");
    EXPECT_EQ(dirs, (std::vector<fs::path>{"/a", "/b", "/build/lib"}));
    EXPECT_EQ(adapter_search_path("", "/build/lib"), (std::vector<fs::path>{"/build/lib"}));
}

TEST(AdapterSearch, FileName) { EXPECT_EQ(adapter_file_name("opencl"), "libkcs-adapter-opencl.so"); }

TEST(AdapterSearch, PathsAreTakenAsGiven) {
    EXPECT_EQ(resolve_adapter("./x", {}), fs::path("./x"));
    EXPECT_EQ(resolve_adapter("libfoo.so", {}), fs::path("libfoo.so"));
    EXPECT_EQ(resolve_adapter("/missing/libkcs-adapter-y.so", {}), fs::path("/missing/libkcs-adapter-y.so"));
}

TEST(AdapterSearch, NamesAreLookedUpInOrder) {
    const auto empty = fs::temp_directory_path() / ("kcs-host-search-" + std::to_string(::getpid()));
    fs::create_directories(empty);
    const std::vector<fs::path> search{"/nonexistent", empty, testing::fixture_dir()};
    EXPECT_EQ(resolve_adapter("fixture", search), testing::fixture("fixture"));

    // An earlier folder shadows a later one.
    fs::copy_file(testing::fixture("abi-v2"), empty / "libkcs-adapter-fixture.so");
    EXPECT_EQ(resolve_adapter("fixture", search), empty / "libkcs-adapter-fixture.so");
    const auto found = find_adapters(search);
    fs::remove_all(empty);

    std::vector<std::string> names;
    for (const auto& f : found) names.push_back(f.name);
    EXPECT_EQ(names, (std::vector<std::string>{"abi-2-only", "abi-above-offer", "abi-v2", "fixture",
                                               "missing-dependency", "no-entry", "no-table", "not-a-library",
                                               "null-run", "short-table", "template-abi-1-0"}));
    for (const auto& f : found)
        if (f.name == "fixture") {
            EXPECT_EQ(f.path, empty / "libkcs-adapter-fixture.so");
        }
}

TEST(AdapterSearch, AnUnknownNameSaysWhereItLooked) {
    try {
        resolve_adapter("nosuch", {"/x", "/y"});
        ADD_FAILURE() << "resolved";
    } catch (const AdapterError& e) {
        EXPECT_EQ(e.problem(), AdapterProblem::not_found);
        EXPECT_EQ(std::string(e.what()),
                  "adapter nosuch: no adapter of that name: libkcs-adapter-nosuch.so is in none of /x, /y "
                  "(KCS_ADAPTER_PATH adds folders; 'kcs adapter list' shows what is found)");
    }
}

TEST(AdapterSearch, TheEnvironmentComesBeforeTheBuildTree) {
    ::setenv("KCS_ADAPTER_PATH", "/first:/second", 1);
    const auto dirs = adapter_search_path();
    ::unsetenv("KCS_ADAPTER_PATH");
    ASSERT_EQ(dirs.size(), 3u);
    EXPECT_EQ(dirs[0], "/first");
    EXPECT_EQ(dirs[1], "/second");
    EXPECT_EQ(dirs[2].filename(), "lib");
}

}  // namespace
}  // namespace kcs::host
