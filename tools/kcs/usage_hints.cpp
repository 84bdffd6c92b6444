#include "usage_hints.hpp"

#include <vector>

#include "yaml_reader.hpp"

namespace kcs::cli {

namespace {

// "kcs certify": the names from the top, as the user typed them.
std::string command_path(const CLI::App& app) {
    const CLI::App* parent = app.get_parent();
    return parent ? command_path(*parent) + " " + app.get_name() : std::string("kcs");
}

std::vector<std::string> subcommand_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        if (!sub->get_name().empty()) names.push_back(sub->get_name());
    return names;
}

// Long options as "--name" and short ones as "-n", with the inherited ones
// CLI11 accepts here (--help, --version at the top).
std::vector<std::string> option_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::Option* option : app.get_options()) {
        for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
        for (const std::string& name : option->get_snames()) names.push_back("-" + name);
    }
    return names;
}

std::string with_hint(std::string message, const std::string& hint) {
    if (!hint.empty()) message += " (" + hint + ")";
    return message;
}

}  // namespace

std::optional<std::string> unknown_name_hint(const CLI::App& app) {
    const CLI::App* deepest = &app;
    for (;;) {
        const auto parsed = deepest->get_subcommands();
        if (parsed.empty()) break;
        deepest = parsed.front();
    }
    const std::vector<std::string> subcommands = subcommand_names(*deepest);
    for (const std::string& arg : deepest->remaining()) {
        if (arg.size() > 1 && arg[0] == '-') {
            const std::string name = arg.substr(0, arg.find('='));  // --depth=smoke names --depth
            return with_hint("unknown option '" + name + "' for '" + command_path(*deepest) + "'",
                             spec::detail::did_you_mean(name, option_names(*deepest)));
        }
        // A word where a subcommand is expected: only when this command takes
        // subcommands and no positional argument (those would have taken it).
        if (!subcommands.empty() && deepest->get_subcommands().empty())
            return with_hint("unknown subcommand '" + arg + "' of '" + command_path(*deepest) + "'",
                             spec::detail::did_you_mean(arg, subcommands));
    }
    return std::nullopt;
}

}  // namespace kcs::cli
