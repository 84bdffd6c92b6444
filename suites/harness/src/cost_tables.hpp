// The cost tables kcs carries (suites/harness/costs/DEPTH.tsv), compiled in
// so that every machine of a sharded run cuts the plan alike.
#pragma once

#include <string_view>

namespace kcs::harness::detail {

// The table's text for a depth id; empty when kcs carries none.
std::string_view cost_table(std::string_view depth);

}  // namespace kcs::harness::detail
