#include "kcs/spec/text_patterns.hpp"

#include <array>

namespace kcs::spec {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lower_or_digit(char c) { return (c >= 'a' && c <= 'z') || is_digit(c); }

// Consumes a run of at least one character that `accept` takes.
template <typename Accept>
bool run_of(std::string_view& text, Accept accept) {
    std::size_t n = 0;
    while (n < text.size() && accept(text[n])) ++n;
    text.remove_prefix(n);
    return n > 0;
}

bool literal(std::string_view& text, std::string_view word) {
    if (text.substr(0, word.size()) != word) return false;
    text.remove_prefix(word.size());
    return true;
}

bool number(std::string_view& text) {
    literal(text, "-");
    return run_of(text, [](char c) { return is_digit(c) || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'; });
}

}  // namespace

bool is_plain_id(std::string_view text) {
    if (text.empty() || !is_lower_or_digit(text.front())) return false;
    for (const char c : text)
        if (!is_lower_or_digit(c) && c != '_' && c != '-') return false;
    return true;
}

bool is_class_id(std::string_view text) {
    if (!literal(text, "C-")) return false;
    if (!literal(text, "PRC") && !literal(text, "ORD") && !literal(text, "CMP") && !literal(text, "EXC")) return false;
    return text.size() == 3 && text[0] == '-' && is_digit(text[1]) && is_digit(text[2]);
}

bool is_semantic_version(std::string_view text) {
    for (int part = 0; part < 3; ++part) {
        if (part > 0 && !literal(text, ".")) return false;
        if (!run_of(text, is_digit)) return false;
    }
    return text.empty();
}

int compare_versions(std::string_view a, std::string_view b) {
    // The parts, numerically: leading zeros and length never decide.
    const auto parts = [](std::string_view v) {
        std::array<unsigned long long, 3> out{};
        std::size_t i = 0;
        for (const char c : v) {
            if (c == '.') ++i;
            else if (i < 3) out[i] = out[i] * 10 + static_cast<unsigned long long>(c - '0');
        }
        return out;
    };
    const auto x = parts(a), y = parts(b);
    for (std::size_t i = 0; i < 3; ++i)
        if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
    return 0;
}

bool is_distribution(std::string_view text) {
    if (!literal(text, "normal(") && !literal(text, "uniform(")) return false;
    if (!number(text) || !literal(text, ",")) return false;
    run_of(text, [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; });
    return number(text) && text == ")";
}

}  // namespace kcs::spec
