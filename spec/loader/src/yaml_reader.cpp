#include "yaml_reader.hpp"

#include "kcs/spec/text_patterns.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>

namespace kcs::spec::detail {

namespace {

std::string kind_of(const YAML::Node& node) {
    switch (node.Type()) {
        case YAML::NodeType::Map: return "a mapping";
        case YAML::NodeType::Sequence: return "a list";
        case YAML::NodeType::Scalar: return "'" + node.Scalar() + "'";
        case YAML::NodeType::Null: return "nothing";
        default: return "an undefined value";
    }
}

std::string trim(const std::string& s) {
    const auto first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {};
    const auto last = s.find_last_not_of(" \t\r\n");
    return s.substr(first, last - first + 1);
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t up = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
            diagonal = up;
        }
    }
    return row[b.size()];
}

// 1-based line and column of a byte offset.
SourceLocation locate_offset(const std::string& file, const std::string& bytes, std::size_t offset) {
    SourceLocation where{file, 1, 1};
    for (std::size_t i = 0; i < offset && i < bytes.size(); ++i) {
        if (bytes[i] == '\n') {
            ++where.line;
            where.column = 1;
        } else {
            ++where.column;
        }
    }
    return where;
}

}  // namespace

std::size_t first_invalid_utf8(const std::string& bytes) {
    std::size_t i = 0;
    const std::size_t n = bytes.size();
    while (i < n) {
        const auto c = static_cast<unsigned char>(bytes[i]);
        std::size_t length = 0;
        unsigned min_code = 0;
        unsigned code = 0;
        if (c < 0x80) {
            ++i;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            length = 2, min_code = 0x80, code = c & 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            length = 3, min_code = 0x800, code = c & 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            length = 4, min_code = 0x10000, code = c & 0x07;
        } else {
            return i;
        }
        if (i + length > n) return i;
        for (std::size_t k = 1; k < length; ++k) {
            const auto next = static_cast<unsigned char>(bytes[i + k]);
            if ((next & 0xC0) != 0x80) return i;
            code = (code << 6) | (next & 0x3F);
        }
        // Overlong forms, surrogates and code points past U+10FFFF are invalid.
        if (code < min_code || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return i;
        i += length;
    }
    return std::string::npos;
}

bool Document::load(const std::filesystem::path& path) {
    const SourceLocation whole{name_, 0, 0};
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        input(whole, "cannot open the file", "check that it exists and is readable");
        return false;
    }
    in.seekg(0, std::ios::end);
    const auto size = static_cast<std::size_t>(in.tellg());
    if (size > kMaxFileBytes) {
        input(whole,
              "file is " + std::to_string(size) + " bytes, over the " +
                  std::to_string(kMaxFileBytes) + "-byte limit for a catalog file",
              "a catalog file holds one class, operator, profile or incident; remove what does not belong there");
        return false;
    }
    in.seekg(0);
    return parse(std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()});
}

bool Document::parse(const std::string& bytes) {
    const SourceLocation whole{name_, 0, 0};
    if (const auto bad = first_invalid_utf8(bytes); bad != std::string::npos) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(bytes[bad]));
        input(locate_offset(name_, bytes, bad),
              std::string("byte ") + hex + " is not valid UTF-8",
              "save the file as UTF-8");
        return false;
    }
    try {
        root_ = YAML::Load(bytes);
    } catch (const YAML::ParserException& e) {
        input(SourceLocation{name_, e.mark.line + 1, e.mark.column + 1},
              "YAML syntax error: " + e.msg, "fix the YAML syntax at this place");
        return false;
    }
    if (root_.IsNull()) {
        input(whole, "file is empty",
              shape_hint_.empty() ? "a catalog file holds one YAML mapping (see spec/SCHEMA.md)" : shape_hint_);
        return false;
    }
    if (!root_.IsMap()) {
        input(at(root_), "expected a mapping at the top of the file, found " + kind_of(root_),
              shape_hint_.empty() ? "see spec/SCHEMA.md for the keys this file holds" : shape_hint_);
        return false;
    }
    return true;
}

SourceLocation Document::at(const YAML::Node& node) const {
    if (!node.IsDefined()) return {name_, 0, 0};
    const YAML::Mark mark = node.Mark();
    if (mark.is_null()) return {name_, 0, 0};
    return {name_, mark.line + 1, mark.column + 1};
}

void Document::finding(const YAML::Node& node, std::string message, std::string hint) {
    diags_.finding(at(node), std::move(message), std::move(hint));
}

void Document::input(SourceLocation where, std::string message, std::string hint) {
    diags_.input(std::move(where), std::move(message), std::move(hint));
}

Fields::Fields(Document& doc, const YAML::Node& node, std::string what)
    : doc_(doc), node_(node), what_(std::move(what)) {
    is_map_ = node.IsDefined() && node.IsMap();
    // An absent node was reported where it was asked for.
    if (!is_map_ && node.IsDefined()) {
        doc_.finding(node, what_ + " must be a mapping, found " + kind_of(node),
                     "see spec/SCHEMA.md for its keys");
    }
    if (!is_map_) return;
    for (const auto& entry : node) {
        const std::string key = entry.first.Scalar();
        const auto same = std::find_if(entries_.begin(), entries_.end(),
                                       [&](const auto& e) { return e.first.Scalar() == key; });
        if (same != entries_.end()) {
            doc_.finding(entry.first,
                         "duplicate key '" + key + "' in " + what_ + " (first at line " +
                             std::to_string(same->first.Mark().line + 1) + ")",
                         "keep one of the two");
            continue;
        }
        entries_.emplace_back(entry.first, entry.second);
    }
}

YAML::Node Fields::get(const std::string& key, bool required) {
    known_.push_back(key);
    if (!is_map_) return YAML::Node(YAML::NodeType::Undefined);
    for (const auto& [k, v] : entries_) {
        if (k.Scalar() == key) return v;
    }
    if (required) {
        doc_.finding(node_, what_ + " is missing '" + key + "'",
                     "add '" + key + ":' (see spec/SCHEMA.md)");
    }
    return YAML::Node(YAML::NodeType::Undefined);
}

std::string Fields::text(const std::string& key, bool required) {
    const YAML::Node node = get(key, required);
    if (!node.IsDefined()) return {};
    return as_text(doc_, node, what_ + "." + key).value_or("");
}

std::string Fields::id(const std::string& key, bool required) {
    const YAML::Node node = get(key, required);
    if (!node.IsDefined()) return {};
    auto value = as_text(doc_, node, what_ + "." + key);
    if (!value) return {};
    if (!is_valid_id(*value) && !is_class_id(*value)) {
        doc_.finding(node, what_ + "." + key + " '" + *value + "' is not a valid id",
                     "ids are lower-case letters, digits, '-' and '_' (class ids look like C-PRC-01)");
    }
    return *value;
}

std::string Fields::one_of(const std::string& key, const std::vector<std::string>& allowed,
                           bool required) {
    const YAML::Node node = get(key, required);
    if (!node.IsDefined()) return {};
    auto value = as_text(doc_, node, what_ + "." + key);
    if (!value) return {};
    if (std::find(allowed.begin(), allowed.end(), *value) == allowed.end()) {
        doc_.finding(node, what_ + "." + key + " '" + *value + "' is not " + one_of_list(allowed),
                     did_you_mean(*value, allowed));
        return {};
    }
    return *value;
}

std::optional<double> Fields::number(const std::string& key, bool required) {
    const YAML::Node node = get(key, required);
    if (!node.IsDefined()) return std::nullopt;
    return as_number(doc_, node, what_ + "." + key);
}

std::optional<long long> Fields::integer(const std::string& key, bool required) {
    const YAML::Node node = get(key, required);
    if (!node.IsDefined()) return std::nullopt;
    return as_integer(doc_, node, what_ + "." + key);
}

std::optional<bool> Fields::boolean(const std::string& key, bool required) {
    const YAML::Node node = get(key, required);
    if (!node.IsDefined()) return std::nullopt;
    return as_boolean(doc_, node, what_ + "." + key);
}

std::vector<std::string> Fields::text_list(const std::string& key, bool required) {
    const YAML::Node node = get(key, required);
    if (!node.IsDefined()) return {};
    return as_text_list(doc_, node, what_ + "." + key);
}

YAML::Node Fields::optional_list(const std::string& key, const std::string& of) {
    const YAML::Node node = get(key, false);
    if (!node.IsDefined() || node.IsSequence()) return node;
    doc_.finding(node, key + " must be a list of " + of);
    return YAML::Node(YAML::NodeType::Undefined);
}

void Fields::finish() {
    for (const auto& [k, v] : entries_) {
        const std::string key = k.Scalar();
        if (std::find(known_.begin(), known_.end(), key) != known_.end()) continue;
        std::string hint = did_you_mean(key, known_);
        if (hint.empty()) hint = "the keys of " + what_ + " are " + one_of_list(known_).substr(7);
        doc_.finding(k, "unknown key '" + key + "' in " + what_, hint);
    }
}

std::optional<std::string> as_text(Document& doc, const YAML::Node& node, const std::string& what) {
    if (node.IsNull()) {
        doc.finding(node, what + " is empty", "write its value after the colon");
        return std::nullopt;
    }
    if (!node.IsScalar()) {
        doc.finding(node, what + " must be text, found " + kind_of(node));
        return std::nullopt;
    }
    std::string value = trim(node.Scalar());
    if (value.empty()) {
        doc.finding(node, what + " is empty", "write its value after the colon");
        return std::nullopt;
    }
    return value;
}

std::optional<double> as_number(Document& doc, const YAML::Node& node, const std::string& what) {
    double value = 0;
    if (!node.IsScalar() || !YAML::convert<double>::decode(node, value) || !std::isfinite(value)) {
        doc.finding(node, what + " must be a finite number, found " + kind_of(node));
        return std::nullopt;
    }
    return value;
}

std::optional<long long> as_integer(Document& doc, const YAML::Node& node, const std::string& what) {
    long long value = 0;
    if (!node.IsScalar() || !YAML::convert<long long>::decode(node, value)) {
        doc.finding(node, what + " must be an integer, found " + kind_of(node));
        return std::nullopt;
    }
    return value;
}

std::optional<bool> as_boolean(Document& doc, const YAML::Node& node, const std::string& what) {
    bool value = false;
    if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
        doc.finding(node, what + " must be true or false, found " + kind_of(node));
        return std::nullopt;
    }
    return value;
}

std::vector<std::string> as_text_list(Document& doc, const YAML::Node& node, const std::string& what) {
    std::vector<std::string> out;
    if (!node.IsSequence()) {
        doc.finding(node, what + " must be a list, found " + kind_of(node),
                    "write it as [a, b] or as lines starting with '- '");
        return out;
    }
    if (node.size() == 0) doc.finding(node, what + " is an empty list");
    for (std::size_t i = 0; i < node.size(); ++i) {
        if (auto item = as_text(doc, node[i], what + "[" + std::to_string(i) + "]")) out.push_back(*item);
    }
    return out;
}

bool is_valid_id(const std::string& text) { return spec::is_plain_id(text); }

bool is_class_id(const std::string& text) { return spec::is_class_id(text); }

std::optional<Json> as_typed(Document& doc, const YAML::Node& node, const std::string& type,
                             const std::string& what) {
    if (type == "int") {
        if (auto v = as_integer(doc, node, what)) return Json(*v);
        return std::nullopt;
    }
    if (type == "number") {
        if (auto v = as_number(doc, node, what)) return Json(*v);
        return std::nullopt;
    }
    if (type == "string") {
        if (auto v = as_text(doc, node, what)) return Json(*v);
        return std::nullopt;
    }
    if (type == "bool") {
        if (auto v = as_boolean(doc, node, what)) return Json(*v);
        return std::nullopt;
    }
    const bool list = type == "int_list" || type == "number_list" || type == "string_list" ||
                      type == "shape_list";
    if (!list) return std::nullopt;  // unknown types are reported where they are declared
    if (!node.IsSequence() || node.size() == 0) {
        doc.finding(node, what + " must be a non-empty list (" + type + "), found " + kind_of(node));
        return std::nullopt;
    }
    const std::string item_type = type == "shape_list" ? "int_list" : type.substr(0, type.find('_'));
    Json out = Json::array();
    bool ok = true;
    for (std::size_t i = 0; i < node.size(); ++i) {
        auto item = as_typed(doc, node[i], item_type, what + "[" + std::to_string(i) + "]");
        if (!item) {
            ok = false;
            continue;
        }
        if (type == "shape_list") {
            for (const auto& extent : *item) {
                if (extent.get<long long>() < 1) {
                    doc.finding(node[i], what + "[" + std::to_string(i) + "] has an extent below 1",
                                "every extent of a shape is at least 1");
                    ok = false;
                    break;
                }
            }
        }
        out.push_back(std::move(*item));
    }
    if (!ok) return std::nullopt;
    return out;
}

std::string one_of_list(const std::vector<std::string>& allowed) {
    std::string out = "one of ";
    for (std::size_t i = 0; i < allowed.size(); ++i) {
        if (i > 0) out += ", ";
        out += allowed[i];
    }
    return out;
}

std::string did_you_mean(const std::string& word, const std::vector<std::string>& candidates) {
    std::string best;
    std::size_t best_distance = std::max<std::size_t>(2, word.size() / 3) + 1;
    for (const auto& candidate : candidates) {
        const std::size_t d = edit_distance(word, candidate);
        if (d < best_distance) {
            best_distance = d;
            best = candidate;
        }
    }
    return best.empty() ? std::string{} : "did you mean '" + best + "'?";
}

}  // namespace kcs::spec::detail
