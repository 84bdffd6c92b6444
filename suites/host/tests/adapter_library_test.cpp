// AdapterLibrary in-process: a good table passes every check; the broken
// fixtures are covered, through the worker and in-process, in
// loader_errors_via_worker_test.cpp.
#include <unistd.h>

#include <gtest/gtest.h>

#include "kcs/host/adapter_error.hpp"
#include "kcs/host/adapter_library.hpp"
#include "test_support.hpp"

namespace kcs::host {
namespace {

TEST(AdapterLibrary, LoadsAGoodAdapter) {
    const auto library = AdapterLibrary::load(testing::fixture("fixture"));
    EXPECT_EQ(library.abi_version(), KCS_ADAPTER_ABI_VERSION_1_1);  // it negotiates
    EXPECT_EQ(library.api().abi_version, KCS_ADAPTER_ABI_VERSION);
    EXPECT_STREQ(library.api().name, "fixture");
    EXPECT_EQ(library.path(), testing::fixture("fixture"));
}

// The template as ABI 1.0 released it has no kcs_adapter_negotiate: the
// harness asks kcs_adapter_entry(1) and drives it as 1.0.
TEST(AdapterLibrary, AnAdapterOfAbi10LoadsAs10) {
    const auto library = AdapterLibrary::load(testing::fixture("template-abi-1-0"));
    EXPECT_EQ(library.abi_version(), KCS_ADAPTER_ABI_VERSION_1_0);
    EXPECT_STREQ(library.api().name, "template");
}

TEST(AdapterLibrary, VersionsReadAsMajorDotMinor) {
    EXPECT_EQ(abi_version_text(KCS_ADAPTER_ABI_VERSION_1_0), "1.0");
    EXPECT_EQ(abi_version_text(KCS_ADAPTER_ABI_VERSION_1_1), "1.1");
    EXPECT_EQ(abi_version_text(KCS_ABI_VERSION(2, 3)), "2.3");
    EXPECT_EQ(abi_version_text(2), "value 2 (no version)");
    EXPECT_TRUE(harness_speaks(KCS_ADAPTER_ABI_VERSION_1_0));
    EXPECT_TRUE(harness_speaks(KCS_ADAPTER_ABI_VERSION_1_1));
    EXPECT_FALSE(harness_speaks(KCS_ABI_VERSION(1, 2)));
    EXPECT_FALSE(harness_speaks(KCS_ABI_VERSION(2, 0)));
}

TEST(AdapterLibrary, ARelativePathIsAFileNotALibraryName) {
    // dlopen("libx.so") would search the system's folders; the user meant ./libx.so.
    const auto cwd = std::filesystem::current_path();
    std::filesystem::current_path(testing::fixture_dir());
    EXPECT_NO_THROW(AdapterLibrary::load("libkcs-adapter-fixture.so"));
    std::filesystem::current_path(cwd);
}

TEST(AdapterLibrary, ADirectoryIsNotALibrary) {
    try {
        AdapterLibrary::load(testing::fixture_dir());
        ADD_FAILURE() << "loaded a directory";
    } catch (const AdapterError& e) {
        EXPECT_EQ(e.problem(), AdapterProblem::not_a_library);
        EXPECT_EQ(std::string(e.what()),
                  "adapter " + testing::fixture_dir().string() + ": is a directory, not a shared library");
    }
}

TEST(AdapterLibrary, MovesOwnership) {
    auto a = AdapterLibrary::load(testing::fixture("fixture"));
    AdapterLibrary b = std::move(a);
    EXPECT_STREQ(b.api().name, "fixture");
    a = std::move(b);
    EXPECT_STREQ(a.api().name, "fixture");
}

}  // namespace
}  // namespace kcs::host
