// The few textual shapes the catalog and the command line accept, matched
// by plain loops: a catalog is untrusted input, and a backtracking regular
// expression recurses once per character (a 30,000-character id would
// overflow the stack).
#pragma once

#include <string_view>

namespace kcs::spec {

// [a-z0-9][a-z0-9_-]*: ids of operators, configs, claims, profiles, adapters.
bool is_plain_id(std::string_view text);
// C-(PRC|ORD|CMP|EXC)-NN.
bool is_class_id(std::string_view text);
// MAJOR.MINOR.PATCH, each a run of digits.
bool is_semantic_version(std::string_view text);
// Orders two semantic versions: negative, zero or positive as a is below,
// equal to or above b, part by part as numbers (1.10.0 > 1.9.0). Both must
// be semantic versions.
int compare_versions(std::string_view a, std::string_view b);
// normal(A,B) or uniform(A,B), A and B numbers written with [0-9.eE+-]
// and an optional leading '-', spaces allowed after the comma.
bool is_distribution(std::string_view text);

}  // namespace kcs::spec
