// An adapter that cannot be used fails the IsolatedAdapter constructor with
// the loader's own message (the one AdapterLibrary gives in-process), which
// names the path and what is wrong.
#include <gtest/gtest.h>

#include <cstdlib>

#include "kcs/host/adapter_error.hpp"
#include "kcs/host/adapter_library.hpp"
#include "test_support.hpp"

namespace kcs::host {
namespace {

using testing::fixture;
using testing::fixture_options;

AdapterError construction_error(const std::filesystem::path& path, IsolationOptions options = fixture_options()) {
    try {
        IsolatedAdapter adapter(path, std::move(options));
    } catch (const AdapterError& e) {
        return e;
    }
    ADD_FAILURE() << path << " was accepted";
    return AdapterError(path, AdapterProblem::worker_failed, "accepted");
}

struct Broken {
    std::string fixture;
    AdapterProblem problem;
    std::string says;
};

void PrintTo(const Broken& b, std::ostream* os) { *os << b.fixture; }

class BrokenAdapter : public ::testing::TestWithParam<Broken> {};

TEST_P(BrokenAdapter, FailsWithTheLoadersMessage) {
    const auto& broken = GetParam();
    const auto path = broken.fixture.starts_with("/") ? std::filesystem::path(broken.fixture) : fixture(broken.fixture);
    const auto e = construction_error(path);
    EXPECT_EQ(e.problem(), broken.problem) << e.what();
    EXPECT_EQ(e.path(), path);
    const std::string what = e.what();
    EXPECT_NE(what.find(path.string()), std::string::npos) << what;
    EXPECT_NE(what.find(broken.says), std::string::npos) << what;
    EXPECT_EQ(testing::child_processes(), 0);

    // The worker's message is the in-process loader's, word for word.
    try {
        AdapterLibrary::load(path);
        ADD_FAILURE() << "loaded in-process";
    } catch (const AdapterError& in_process) {
        EXPECT_EQ(in_process.detail(), e.detail());
        EXPECT_EQ(in_process.problem(), e.problem());
    }
}

INSTANTIATE_TEST_SUITE_P(
    Loader, BrokenAdapter,
    ::testing::Values(Broken{"/nonexistent/libkcs-adapter-gone.so", AdapterProblem::not_found, "no such file"},
                      Broken{"not-a-library", AdapterProblem::not_a_library, "not a shared library ("},
                      Broken{"missing-dependency", AdapterProblem::cannot_load,
                             "cannot be loaded: libkcs-host-hidden-dependency.so: cannot open shared object file"},
                      Broken{"no-entry", AdapterProblem::no_entry_symbol, "no symbol kcs_adapter_entry"},
                      Broken{"no-table", AdapterProblem::no_table, "returned NULL"},
                      Broken{"abi-v2", AdapterProblem::abi_version,
                             "its table implements ABI 2.0, but kcs_adapter_entry(65537) asked for 1.1"},
                      // A mismatched handshake is refused naming both versions.
                      Broken{"abi-2-only", AdapterProblem::abi_version,
                             "implements ABI 2.0 and later only; kcs speaks ABI 1.0 to 1.1"},
                      Broken{"abi-above-offer", AdapterProblem::abi_version,
                             "answered ABI 1.7 to the offer of 1.1; kcs speaks ABI 1.0 to 1.1"},
                      Broken{"short-table", AdapterProblem::table_size,
                             "function table is 16 bytes, ABI 1.1 needs " + std::to_string(sizeof(kcs_adapter_api))},
                      Broken{"null-run", AdapterProblem::incomplete_table, "no 'run'"}),
    [](const ::testing::TestParamInfo<Broken>& info) {
        std::string name = std::filesystem::path(info.param.fixture).stem().string();
        for (auto& c : name)
            if (c == '-') c = '_';
        return name;
    });

TEST(BrokenAdapter, OpenFailureCarriesTheAdaptersLastError) {
    const auto refused = construction_error(fixture("fixture"), fixture_options({"open=fail"}));
    EXPECT_EQ(refused.problem(), AdapterProblem::open_failed);
    EXPECT_NE(std::string(refused.what()).find(fixture("fixture").string()), std::string::npos);
    EXPECT_EQ(refused.detail(), "open failed (KCS_DEVICE_ERROR): the fixture was asked to refuse (open=fail)");

    const auto unknown = construction_error(fixture("fixture"), fixture_options({"threads=4", "bogus"}));
    EXPECT_EQ(unknown.problem(), AdapterProblem::open_failed);
    EXPECT_EQ(unknown.detail(), "open failed (KCS_INVALID_ARGUMENT): unknown option 'threads=4'");
    EXPECT_EQ(testing::child_processes(), 0);
}

TEST(BrokenAdapter, AMissingWorkerIsNamed) {
    auto options = fixture_options();
    options.worker = "/nonexistent/kcs-worker";
    const auto e = construction_error(fixture("fixture"), options);
    EXPECT_EQ(e.problem(), AdapterProblem::worker_failed);
    EXPECT_NE(std::string(e.what()).find("/nonexistent/kcs-worker"), std::string::npos) << e.what();
}

TEST(BrokenAdapter, KcsWorkerMustNameAnExecutable) {
    ::setenv("KCS_WORKER", "/nonexistent/kcs-worker", 1);
    try {
        find_worker_executable(fixture("fixture"));
        ADD_FAILURE() << "accepted";
    } catch (const AdapterError& e) {
        EXPECT_EQ(e.problem(), AdapterProblem::worker_failed);
        EXPECT_NE(e.detail().find("KCS_WORKER names /nonexistent/kcs-worker"), std::string::npos) << e.what();
    }
    ::unsetenv("KCS_WORKER");
    EXPECT_EQ(find_worker_executable(fixture("fixture")).filename(), "kcs-worker");
}

}  // namespace
}  // namespace kcs::host
