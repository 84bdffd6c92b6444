// Plain-text views of a catalog for people at a terminal.
#pragma once

#include <optional>
#include <string>

#include "kcs/spec/catalog.hpp"

namespace kcs::cli {

struct ListSections {
    bool classes, operators, profiles, incidents;
    bool headings;  // print a heading above each section
};

std::string render_list(const spec::Catalog& catalog, const ListSections& sections);

// A class (its eight parts, each under its name), operator, profile or
// incident; nullopt and `error` set when no entity has that id.
std::optional<std::string> render_entity(const spec::Catalog& catalog, const std::string& id, std::string& error);

}  // namespace kcs::cli
