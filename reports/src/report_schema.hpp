// The report schema (reports/schema/report-v1.schema.json), carried inside
// kcs so that an installed kcs verifies without the source tree.
#pragma once

#include <string_view>

namespace kcs::reports {

std::string_view report_schema_text();

}  // namespace kcs::reports
