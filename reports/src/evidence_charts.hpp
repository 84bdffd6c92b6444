// Pictures drawn from what the probes recorded in their evidence details
// (reports.md, "Renderers"): error against K for C-PRC-01 (details.sweep),
// the ulp error per binade and sub-domain for C-CMP-01
// (details.core_binades, details.subdomains) and the runs per distinct
// output hash for C-ORD-02 (details.hashes). Only recorded numbers are drawn.
#pragma once

#include <string>
#include <vector>

#include "render_common.hpp"

namespace kcs::reports::render {

// The classes that have pictures.
bool has_pictures(const std::string& class_id);

// The picture of one instance (one series or bar set per case, or of the
// case that decided it); "" when its class has none or nothing was recorded.
std::string instance_chart(const Json& instance);

// Pictures over every instance of a class in the report, for the page's
// overview; empty when there is nothing to draw.
std::vector<std::string> class_charts(const Json& predicate, const std::string& class_id);

}  // namespace kcs::reports::render
