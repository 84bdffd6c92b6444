#include <gtest/gtest.h>

#include "kcs/spec/catalog.hpp"

TEST(Catalog, LoadsV1) {
    const auto result = kcs::spec::load_catalog(KCS_SOURCE_DIR "/spec/v1");
    for (const auto& d : result.diagnostics.all()) ADD_FAILURE() << d.str();
    EXPECT_EQ(result.catalog.classes.size(), 12u);
}
