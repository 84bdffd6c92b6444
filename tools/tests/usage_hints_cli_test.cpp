// A mistyped subcommand or option is named, with the closest real one, and
// exits 2 (tools/kcs/usage_hints.hpp).
#include <string>

#include <gtest/gtest.h>

#include "run_kcs.hpp"

namespace {

using kcs::testing::Outcome;
Outcome kcs(const std::string& args) { return kcs::testing::run_kcs(args); }

void expect_hint(const std::string& args, const std::string& hint) {
    const Outcome r = kcs(args);
    EXPECT_EQ(r.exit_code, 2) << "kcs " << args << "\n" << r.out << r.err;
    EXPECT_NE(r.err.find(hint), std::string::npos) << "kcs " << args << "\n" << r.err;
    EXPECT_NE(r.err.find("Run with --help"), std::string::npos) << r.err;
}

TEST(UsageHints, AMistypedSubcommandIsNamedWithTheClosestOne) {
    expect_hint("certfy", "unknown subcommand 'certfy' of 'kcs' (did you mean 'certify'?)");
    expect_hint("spec lst", "unknown subcommand 'lst' of 'kcs spec' (did you mean 'list'?)");
    expect_hint("adapter chek reference-cpu", "unknown subcommand 'chek' of 'kcs adapter' (did you mean 'check'?)");
}

TEST(UsageHints, AMistypedOptionIsNamedBeforeAMissingRequiredOne) {
    // --adapter is missing too; the mistyped --depth is the user's real error.
    expect_hint("certify --dept smoke", "unknown option '--dept' for 'kcs certify' (did you mean '--depth'?)");
    expect_hint("certify --adapter reference-cpu --dept=smoke",
                "unknown option '--dept' for 'kcs certify' (did you mean '--depth'?)");
    expect_hint("run --adaptr reference-cpu", "unknown option '--adaptr' for 'kcs run' (did you mean '--adapter'?)");
}

TEST(UsageHints, NoHintWhereNothingIsClose) {
    const Outcome r = kcs("spec list --zzzzzzzz");
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("unknown option '--zzzzzzzz' for 'kcs spec list'"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("did you mean"), std::string::npos) << r.err;
}

TEST(UsageHints, OtherUsageErrorsKeepTheirOwnMessage) {
    const Outcome missing = kcs("certify --depth smoke");
    EXPECT_EQ(missing.exit_code, 2);
    EXPECT_NE(missing.err.find("--adapter is required"), std::string::npos) << missing.err;
    const Outcome none = kcs("");
    EXPECT_EQ(none.exit_code, 2);
    EXPECT_NE(none.err.find("A subcommand is required"), std::string::npos) << none.err;
}

}  // namespace
