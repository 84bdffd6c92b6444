// The entry point, open() and its options, last_error, info() and the
// module's exported symbols, for reference-cpu and calibration.
#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <thread>

#include "loaded_adapter.hpp"

namespace kcs::cpu_core::test {
namespace {

TEST(Entry, ReturnsOneConstantTableForVersionOneOnly) {
    for (LoadedAdapter* adapter : {&reference_cpu(), &calibration()}) {
        const kcs_adapter_api* table = adapter->entry()(KCS_ADAPTER_ABI_VERSION);
        ASSERT_NE(table, nullptr);
        EXPECT_EQ(adapter->entry()(KCS_ADAPTER_ABI_VERSION), table);
        EXPECT_EQ(table->abi_version, KCS_ADAPTER_ABI_VERSION);
        EXPECT_EQ(table->struct_size, sizeof(kcs_adapter_api));
        EXPECT_EQ(adapter->entry()(2), nullptr);
        EXPECT_EQ(adapter->entry()(0), nullptr);
    }
    EXPECT_STREQ(reference_cpu().api().name, "reference-cpu");
    EXPECT_STREQ(calibration().api().name, "calibration");
}

TEST(Entry, ModulesExportTheEntryPointOnly) {
    for (LoadedAdapter* adapter : {&reference_cpu(), &calibration()}) {
        EXPECT_NE(adapter->symbol("kcs_adapter_entry"), nullptr);
        // The kernels and the core are linked in, but stay local.
        EXPECT_EQ(adapter->symbol("_ZN3kcs7kernels10violationsEv"), nullptr);
        EXPECT_EQ(adapter->symbol("_ZN3kcs8cpu_core3abi5closeEP11kcs_adapter"), nullptr);
    }
}

TEST(Open, AcceptsThreadsAndRefusesBadValues) {
    const kcs_adapter_api& api = reference_cpu().api();
    EXPECT_EQ(try_open(api, {}), KCS_OK);
    EXPECT_EQ(try_open(api, {"threads=4"}), KCS_OK);
    for (const char* bad : {"threads=0", "threads=-2", "threads=abc", "threads=", "threads=3x", "threads=5000"}) {
        EXPECT_EQ(try_open(api, {bad}), KCS_INVALID_ARGUMENT) << bad;
        EXPECT_NE(std::string(api.last_error(nullptr)).find("threads"), std::string::npos) << bad;
    }
    EXPECT_EQ(try_open(api, {"threads=2", "threads=2"}), KCS_INVALID_ARGUMENT);
    EXPECT_EQ(try_open(api, {"threads"}), KCS_INVALID_ARGUMENT);
}

TEST(Open, RefusesUnknownKeysNamingThem) {
    const kcs_adapter_api& api = reference_cpu().api();
    EXPECT_EQ(try_open(api, {"device=1"}), KCS_INVALID_ARGUMENT);
    const std::string message = api.last_error(nullptr);
    EXPECT_NE(message.find("'device'"), std::string::npos) << message;
    EXPECT_NE(message.find("threads=N"), std::string::npos) << message;
    // Only the calibration adapter offers violations.
    EXPECT_EQ(try_open(api, {"violation=fast-exp"}), KCS_INVALID_ARGUMENT);
    EXPECT_EQ(try_open(calibration().api(), {"violation=fast-exp"}), KCS_OK);
    EXPECT_EQ(try_open(calibration().api(), {"violation=none", "threads=3"}), KCS_OK);
}

TEST(Open, CalibrationRefusesAnUnknownViolationListingTheValidOnes) {
    const kcs_adapter_api& api = calibration().api();
    EXPECT_EQ(try_open(api, {"violation=bad"}), KCS_INVALID_ARGUMENT);
    const std::string message = api.last_error(nullptr);
    EXPECT_NE(message.find("violation=bad"), std::string::npos) << message;
    for (const char* name : {"none", "fast-exp", "oob-zero-under-raise", "stale-output"})
        EXPECT_NE(message.find(name), std::string::npos) << name << " missing from: " << message;
    // Catalog ids, not the C++ enumerators.
    EXPECT_EQ(try_open(api, {"violation=fast_exp"}), KCS_INVALID_ARGUMENT);
}

// The claim conformers: conforming=NAME on the calibration adapter only,
// an unknown name listing the valid ones, never together with a violation.
TEST(Open, CalibrationOffersTheClaimConformersApartFromTheViolations) {
    const kcs_adapter_api& api = calibration().api();
    for (const char* name : {"none", "ftz", "fma", "clamp", "zero", "masked-zero", "unordered-reduce"})
        EXPECT_EQ(try_open(api, {(std::string("conforming=") + name).c_str()}), KCS_OK) << name;
    EXPECT_EQ(try_open(api, {"conforming=flush"}), KCS_INVALID_ARGUMENT);
    const std::string message = api.last_error(nullptr);
    EXPECT_NE(message.find("conforming=flush: unknown conforming behaviour; valid: none, ftz, fma"), std::string::npos)
        << message;
    EXPECT_EQ(try_open(api, {"conforming=ftz", "violation=ftz-daz"}), KCS_INVALID_ARGUMENT);
    EXPECT_NE(std::string(api.last_error(nullptr)).find("give one of them"), std::string::npos);
    EXPECT_EQ(try_open(reference_cpu().api(), {"conforming=ftz"}), KCS_INVALID_ARGUMENT);
}

TEST(Open, TheOpenErrorIsKeptPerThread) {
    const kcs_adapter_api& api = reference_cpu().api();
    ASSERT_EQ(try_open(api, {"first=1"}), KCS_INVALID_ARGUMENT);
    std::thread other([&] { EXPECT_EQ(try_open(api, {"second=1"}), KCS_INVALID_ARGUMENT); });
    other.join();
    EXPECT_NE(std::string(api.last_error(nullptr)).find("'first'"), std::string::npos);
}

TEST(Open, NullOutAndCloseOfNullAreHandled) {
    const kcs_adapter_api& api = reference_cpu().api();
    EXPECT_EQ(api.open(nullptr, 0, nullptr), KCS_INVALID_ARGUMENT);
    api.close(nullptr);
    const char* const* no_options = nullptr;
    kcs_adapter* adapter = nullptr;
    EXPECT_EQ(api.open(no_options, 1, &adapter), KCS_INVALID_ARGUMENT);
    EXPECT_EQ(adapter, nullptr);
}

TEST(Info, DescribesTheAdapterAndTheHost) {
    Instance instance(reference_cpu().api(), {"threads=2"});
    kcs_info info{};
    info.struct_size = sizeof(kcs_info);
    ASSERT_EQ(instance.api().info(instance.get(), &info), KCS_OK);
    EXPECT_STREQ(info.adapter_name, "reference-cpu");
    EXPECT_STRNE(info.adapter_version, "");
    EXPECT_STREQ(info.vendor, "KCS");
    EXPECT_EQ(std::string(info.device).rfind("host CPU", 0), 0u) << info.device;
    EXPECT_STREQ(info.driver_version, "");
    EXPECT_NE(std::string(info.notes).find("threads: 2"), std::string::npos) << info.notes;
}

TEST(Info, FillsOnlyWhatAShorterStructHasRoomFor) {
    Instance instance(reference_cpu().api());
    kcs_info info{};
    info.struct_size = offsetof(kcs_info, driver_version);  // an older harness without the last two fields
    const char* untouched = "untouched";
    info.driver_version = untouched;
    info.notes = untouched;
    ASSERT_EQ(instance.api().info(instance.get(), &info), KCS_OK);
    ASSERT_NE(info.device, nullptr);
    EXPECT_EQ(std::string(info.device).rfind("host CPU", 0), 0u);
    EXPECT_EQ(info.driver_version, untouched);
    EXPECT_EQ(info.notes, untouched);
    kcs_info unset{};
    EXPECT_EQ(instance.api().info(instance.get(), &unset), KCS_INVALID_ARGUMENT);
    EXPECT_EQ(instance.api().info(instance.get(), nullptr), KCS_INVALID_ARGUMENT);
}

TEST(Info, CalibrationNotesNameTheViolationAndWhatItOffers) {
    for (const auto& [option, name] : {std::pair{"violation=none", "none"}, std::pair{"violation=ftz-daz", "ftz-daz"}}) {
        Instance instance(calibration().api(), {option});
        kcs_info info{};
        info.struct_size = sizeof(kcs_info);
        ASSERT_EQ(instance.api().info(instance.get(), &info), KCS_OK);
        const std::string notes = info.notes;
        EXPECT_EQ(notes.rfind(std::string("violation: ") + name + "; offers: f16-accumulate, ", 0), 0u) << notes;
        // Every offered violation is described on a line of its own.
        EXPECT_NE(notes.find("\nfast-exp (C-CMP-01): "), std::string::npos) << notes;
        EXPECT_NE(notes.find("\nstale-output (C-EXC-02): "), std::string::npos) << notes;
        EXPECT_NE(notes.find("\nconforming: none; offers: ftz, fma, clamp, zero, masked-zero, unordered-reduce\n"),
                  std::string::npos)
            << notes;
        EXPECT_NE(notes.find("\nconforming=ftz (subnormals: flush): "), std::string::npos) << notes;
    }
}

}  // namespace
}  // namespace kcs::cpu_core::test
