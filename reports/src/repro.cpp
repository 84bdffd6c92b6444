#include "kcs/reports/repro.hpp"

namespace kcs::reports {

std::string shell_quoted(std::string_view word) {
    const auto plain = [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
               std::string_view("@%+=:,./_-").find(c) != std::string_view::npos;
    };
    bool needs_quotes = word.empty();
    for (const char c : word) needs_quotes = needs_quotes || !plain(c);
    if (!needs_quotes) return std::string(word);
    std::string out = "'";
    for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string ReproCommand::line(std::string_view instance_id, std::uint64_t seed) const {
    std::string out = "kcs run --adapter " + shell_quoted(adapter);
    for (const auto& option : options) out += " --option " + shell_quoted(option);
    if (!claims_file.empty()) out += " --claims " + shell_quoted(claims_file);
    if (!spec_dir.empty()) out += " --spec " + shell_quoted(spec_dir);
    out += " --profile " + shell_quoted(profile) + " --depth " + shell_quoted(depth);
    if (timeout_s) out += " --timeout " + std::to_string(*timeout_s);
    out += " --case " + shell_quoted(instance_id) + " --seed " + std::to_string(seed);
    return out;
}

}  // namespace kcs::reports
