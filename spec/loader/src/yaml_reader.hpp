// Strict reading of YAML files into typed values, reporting every problem
// with file:line:column. Internal to the loader.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "kcs/spec/catalog.hpp"

namespace kcs::spec::detail {

// A catalog file larger than this is refused before parsing: no catalog
// file is anywhere near it, and parsing a huge file costs memory for nothing.
constexpr std::size_t kMaxFileBytes = 1 << 20;

// One YAML file: reads it (size, UTF-8 and syntax checks) and reports
// problems against its display name.
class Document {
public:
    Document(std::string display_name, Diagnostics& diags)
        : name_(std::move(display_name)), diags_(diags) {}

    // False (and an input diagnostic) when the file cannot be read as YAML
    // holding one mapping.
    bool load(const std::filesystem::path& path);
    // The checks of load() after reading (UTF-8, syntax, one mapping), on
    // bytes the caller read: a caller that hashes a file parses exactly the
    // bytes it hashed.
    bool parse(const std::string& bytes);
    // For a file that is not a catalog file (a claims file): the hint given
    // when it is empty or not a mapping, in place of the catalog's.
    void set_shape_hint(std::string hint) { shape_hint_ = std::move(hint); }

    const YAML::Node& root() const { return root_; }
    const std::string& name() const { return name_; }
    SourceLocation at(const YAML::Node& node) const;
    void finding(const YAML::Node& node, std::string message, std::string hint = {});
    void input(SourceLocation where, std::string message, std::string hint = {});

private:
    std::string name_;
    Diagnostics& diags_;
    YAML::Node root_;
    std::string shape_hint_;
};

// The keys of one YAML mapping, read strictly: every key read is known, every
// other key is reported by finish() with the closest known key as a hint.
class Fields {
public:
    // `what` names the mapping in messages, e.g. "class C-PRC-01" or "claim".
    Fields(Document& doc, const YAML::Node& node, std::string what);

    bool is_map() const { return is_map_; }
    const YAML::Node& node() const { return node_; }
    Document& doc() { return doc_; }

    // The value of `key`, or an invalid node when absent (reported if required).
    YAML::Node get(const std::string& key, bool required = true);

    std::string text(const std::string& key, bool required = true);
    std::string id(const std::string& key, bool required = true);
    std::string one_of(const std::string& key, const std::vector<std::string>& allowed,
                       bool required = true);
    std::optional<double> number(const std::string& key, bool required = true);
    std::optional<long long> integer(const std::string& key, bool required = true);
    std::optional<bool> boolean(const std::string& key, bool required = true);
    std::vector<std::string> text_list(const std::string& key, bool required = true);
    // The optional list under `key`: an invalid node when absent, or when it
    // is not a list (reported: "KEY must be a list of `of`").
    YAML::Node optional_list(const std::string& key, const std::string& of);

    // Reports keys that no get() asked for. Call once, after the last get().
    void finish();

private:
    Document& doc_;
    YAML::Node node_;
    std::string what_;
    bool is_map_ = false;
    std::vector<std::pair<YAML::Node, YAML::Node>> entries_;
    std::vector<std::string> known_;
};

// Conversions of a single node, reporting against `doc`. `what` names the
// value in messages ("identifier.id", "configs[2].output", ...).
std::optional<std::string> as_text(Document& doc, const YAML::Node& node, const std::string& what);
std::optional<double> as_number(Document& doc, const YAML::Node& node, const std::string& what);
std::optional<long long> as_integer(Document& doc, const YAML::Node& node, const std::string& what);
std::optional<bool> as_boolean(Document& doc, const YAML::Node& node, const std::string& what);
std::vector<std::string> as_text_list(Document& doc, const YAML::Node& node, const std::string& what);
bool is_valid_id(const std::string& text);
bool is_class_id(const std::string& text);

// Converts a node to JSON by a declared parameter type (see Parameter::type);
// nullopt and a finding when it does not fit.
std::optional<Json> as_typed(Document& doc, const YAML::Node& node, const std::string& type,
                             const std::string& what);

// "one of a, b, c", and the closest candidate to `word`, if any is close.
std::string one_of_list(const std::vector<std::string>& allowed);
std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates);

// Offset of the first byte that is not valid UTF-8, or npos.
std::size_t first_invalid_utf8(const std::string& bytes);

}  // namespace kcs::spec::detail
