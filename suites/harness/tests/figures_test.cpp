// One name per figure: what kcs/harness/figures.hpp gives every renderer.
#include "kcs/harness/figures.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace kcs::harness {
namespace {

TEST(Figures, EachIsFoundByItsNameAndItsEarlierNamesAndNoneByAnother) {
    std::set<std::string> names;
    for (const Figure* f : all_figures()) {
        EXPECT_TRUE(names.insert(f->name).second) << "two figures named " << f->name;
        EXPECT_EQ(find_figure(f->name), f) << f->name;
        for (const char* earlier : f->earlier) {
            if (!*earlier) continue;
            EXPECT_EQ(find_figure(earlier), f) << earlier;
        }
        EXPECT_NE(std::string(f->meaning), "") << f->name;
    }
    EXPECT_EQ(find_figure(""), nullptr);
    EXPECT_EQ(find_figure("a figure no kcs recorded"), nullptr);
}

// Names as the published reports recorded them read by the one name.
TEST(Figures, NamesOfEarlierReportsReadByTheOneName) {
    EXPECT_EQ(figure_shown_name("stores differing from RN_out"), "misrounded stores");
    EXPECT_EQ(figure_shown_name("max ulp error against cr"), "max ulp error");
    EXPECT_EQ(figure_shown_name("max D / B (path-dependence diameter over order_bound B)"), "max D/B");
    EXPECT_EQ(figure_shown_name("distinguishing elements not as claimed (subnormals: flush)"), "subnormal mismatches");
    EXPECT_EQ(figure_shown_name("elements equal to no allowed evaluation (fp_contract: on)"), "unmatched elements");
    EXPECT_EQ(figure_shown_name("elements matching no allowed evaluation"), "unmatched elements");
    EXPECT_EQ(figure_shown_name("p_eff of V (effective input significand bits, at least the bound)"), "p_eff of V");
    EXPECT_EQ(figure_shown_name("p_eff (effective input significand bits, at least the bound)"), "p_eff");
    EXPECT_EQ(figure_shown_name("stale outputs (the whole output repeats the previous seed's)"), "stale outputs");
    // A name none knows keeps its words, without its explanation.
    EXPECT_EQ(figure_shown_name("calls judged (of the sweep)"), "calls judged");
    EXPECT_EQ(figure_meaning("calls judged (of the sweep)"), "calls judged (of the sweep)");
}

TEST(Figures, ACountLeadsWithItsValueAMeasureFollowsItsName) {
    EXPECT_EQ(figure_with_value("misrounded stores", 1, "1"), "1 misrounded store");
    EXPECT_EQ(figure_with_value("misrounded stores", 3, "3"), "3 misrounded stores");
    EXPECT_EQ(figure_with_value("distinct output hashes", 0, "0"), "0 distinct output hashes");
    EXPECT_EQ(figure_with_value("max ulp error", 0.5, "0.5"), "max ulp error 0.5");
    EXPECT_EQ(figure_with_value("p_eff", 11, "11"), "p_eff 11 bits");
    EXPECT_EQ(figure_with_value("calls judged (of the sweep)", 2, "2"), "calls judged 2");
    EXPECT_EQ(figure_with_value("", 2, "2"), "2");
}

}  // namespace
}  // namespace kcs::harness
