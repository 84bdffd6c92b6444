// State shared by the parts of one catalog load. Internal to the loader.
#pragma once

#include <deque>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "yaml_reader.hpp"

namespace kcs::spec::detail {

struct LoadContext {
    Catalog& catalog;
    Diagnostics& diagnostics;
    // Documents stay alive for the whole load: deferred checks report
    // against their nodes.
    std::deque<Document> documents;
    // Cross-reference checks, run once every file has been parsed, so a
    // reference can point to something defined in a later file. Each one
    // reports at the exact node that holds the reference.
    std::vector<std::function<void(Catalog&)>> deferred;

    void later(std::function<void(Catalog&)> check) { deferred.push_back(std::move(check)); }
};

// Each parses one included file into the catalog. `stem` is the file name
// without extension, which must equal the entity's id.
void parse_class(LoadContext& ctx, Document& doc, const std::string& stem);
void parse_operator(LoadContext& ctx, Document& doc, const std::string& stem);
void parse_profile(LoadContext& ctx, Document& doc, const std::string& stem);
void parse_incident(LoadContext& ctx, Document& doc, const std::string& stem);

// Reports `node` when `name` is not in `known` (with a did-you-mean hint).
// Returns whether it was found.
bool check_reference(Document& doc, const YAML::Node& node, const std::string& what,
                     const std::string& name, const std::vector<std::string>& known);

// Ids of a list of entities, for check_reference.
template <typename T>
std::vector<std::string> ids_of(const std::vector<T>& items) {
    std::vector<std::string> ids;
    for (const auto& item : items) ids.push_back(item.id);
    return ids;
}

// Reports the entry whose id repeats an earlier one.
void check_unique(Document& doc, const YAML::Node& node, const std::string& what,
                  const std::string& id, std::vector<std::string>& seen);

}  // namespace kcs::spec::detail
