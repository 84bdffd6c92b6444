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
// normal(A,B) or uniform(A,B), A and B numbers written with [0-9.eE+-]
// and an optional leading '-', spaces allowed after the comma.
bool is_distribution(std::string_view text);

}  // namespace kcs::spec
