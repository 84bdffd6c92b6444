// ${KCS_ROOT} paths (tools/kcs/kcs_root.hpp): written for what lies under
// the checkout, expanded back by kcs, and to another checkout when the
// environment names one.
#include "kcs_root.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace kcs::cli {
namespace {

TEST(KcsRoot, PathsUnderTheCheckoutAreWrittenFromTheRoot) {
    ::unsetenv("KCS_ROOT");
    const std::string source = KCS_SOURCE_DIR;
    EXPECT_EQ(rooted(source + "/vendors/opencl/claims.yaml"), "${KCS_ROOT}/vendors/opencl/claims.yaml");
    EXPECT_EQ(rooted(source + "/build/../vendors/x.so"), "${KCS_ROOT}/vendors/x.so");
    EXPECT_EQ(rooted("/opt/acme/libkcs-adapter-acme.so"), "/opt/acme/libkcs-adapter-acme.so");
    EXPECT_EQ(rooted(source + "-other/claims.yaml"), source + "-other/claims.yaml") << "a sibling folder is not under it";
}

TEST(KcsRoot, KcsExpandsItAtTheStartOrAfterAnEqualsSign) {
    ::unsetenv("KCS_ROOT");
    const std::string source = KCS_SOURCE_DIR;
    EXPECT_EQ(expand_root("${KCS_ROOT}/vendors/opencl/claims.yaml"), source + "/vendors/opencl/claims.yaml");
    EXPECT_EQ(expand_root("--claims=${KCS_ROOT}/a.yaml"), "--claims=" + source + "/a.yaml");
    EXPECT_EQ(expand_root("certify"), "certify");
    EXPECT_EQ(expand_root("x${KCS_ROOT}"), "x${KCS_ROOT}");
    ::setenv("KCS_ROOT", "/srv/kcs", 1);
    EXPECT_EQ(expand_root("${KCS_ROOT}/vendors/opencl/claims.yaml"), "/srv/kcs/vendors/opencl/claims.yaml");
    EXPECT_EQ(rooted("/srv/kcs/build/lib/libkcs-adapter-opencl.so"), "${KCS_ROOT}/build/lib/libkcs-adapter-opencl.so");
    ::unsetenv("KCS_ROOT");
}

}  // namespace
}  // namespace kcs::cli
