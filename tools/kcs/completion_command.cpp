// kcs completion bash: a bash completion script made from kcs's own
// command tree (its subcommands and options as CLI11 holds them), so it
// never falls behind the commands. Values are completed where kcs knows
// them: adapter names for --adapter (the adapters found when the script
// is made, and files), the carried catalog's depths and profiles; any
// other option value completes as a file name.
#include <iostream>
#include <map>
#include <set>

#include "catalog_location.hpp"
#include "commands.hpp"
#include "kcs/host/adapter_search.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::cli {

namespace {

struct CommandWords {
    std::set<std::string> words;           // subcommands and options
    std::set<std::string> value_options;   // options that take a value
};

// Every command path ("", " adapter", " adapter list") and its words.
void collect(const CLI::App& app, const std::string& path, std::map<std::string, CommandWords>& out) {
    CommandWords& here = out[path];
    for (const CLI::App* sub : app.get_subcommands({})) {
        here.words.insert(sub->get_name());
        collect(*sub, path + " " + sub->get_name(), out);
    }
    for (const CLI::Option* option : app.get_options()) {
        for (const auto& name : option->get_lnames()) {
            here.words.insert("--" + name);
            if (option->get_expected_min() > 0) here.value_options.insert("--" + name);
        }
        for (const auto& name : option->get_snames()) {
            if (option->get_expected_min() > 0) here.value_options.insert("-" + name);
        }
    }
}

std::string joined(const std::set<std::string>& words) {
    std::string out;
    for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
    return out;
}

// The values kcs can name for an option, whatever the command.
std::map<std::string, std::set<std::string>> known_values() {
    std::map<std::string, std::set<std::string>> values;
    for (const auto& found : host::find_adapters()) values["--adapter"].insert(found.name);
    try {
        const auto loaded = spec::load_catalog(default_catalog());
        if (loaded.ok()) {
            for (const auto& d : loaded.catalog.depths) values["--depth"].insert(d.id);
            for (const auto& p : loaded.catalog.profiles) values["--profile"].insert(p.id);
        }
    } catch (const std::exception&) {
        // no carried catalog: depths and profiles complete as nothing
    }
    return values;
}

std::string bash_script(const CLI::App& app) {
    std::map<std::string, CommandWords> commands;
    collect(app, "", commands);
    std::string script =
        "# bash completion for kcs, made by `kcs completion bash`:\n"
        "#   source <(kcs completion bash)    (or save it in ~/.local/share/bash-completion/completions/kcs)\n"
        "_kcs() {\n"
        "  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} path='' i\n"
        "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
        "    case \"$path ${COMP_WORDS[i]}\" in\n";
    std::string paths;
    for (const auto& [path, words] : commands)
        if (!path.empty()) paths += (paths.empty() ? "'" : "|'") + path + "'";
    script += "      " + paths + ") path=\"$path ${COMP_WORDS[i]}\" ;;\n";
    script +=
        "    esac\n"
        "  done\n"
        "  local words='' values=''\n"
        "  case \"$path\" in\n";
    for (const auto& [path, words] : commands) {
        script += "    '" + path + "') words='" + joined(words.words) + "'";
        if (!words.value_options.empty()) {
            std::string pattern;
            for (const auto& o : words.value_options) pattern += (pattern.empty() ? "" : "|") + o;
            script += "; case \"$prev\" in " + pattern + ") values=file ;; esac";
        }
        script += " ;;\n";
    }
    script += "  esac\n  case \"$prev\" in\n";
    // An adapter is a name or a path: both complete.
    for (const auto& [option, values] : known_values())
        script += "    " + option + ") [ -n \"$values\" ] && values='" + joined(values) + "'" +
                  (option == "--adapter" ? "' FILES'" : "") + " ;;\n";
    script +=
        "  esac\n"
        "  if [ \"$values\" = file ]; then COMPREPLY=($(compgen -f -- \"$cur\"))\n"
        "  elif [ -n \"$values\" ]; then\n"
        "    COMPREPLY=($(compgen -W \"${values% FILES}\" -- \"$cur\"))\n"
        "    [ \"${values% FILES}\" != \"$values\" ] && COMPREPLY+=($(compgen -f -- \"$cur\"))\n"
        "  else COMPREPLY=($(compgen -W \"$words\" -- \"$cur\")); fi\n"
        "}\n"
        "complete -F _kcs kcs\n";
    return script;
}

}  // namespace

void add_completion_command(CLI::App& app, int& exit_code) {
    auto* completion = app.add_subcommand("completion", "Print a shell completion script for kcs");
    auto shell = std::make_shared<std::string>();
    completion->add_option("SHELL", *shell, "The shell: bash")->required()->check(CLI::IsMember({"bash"}));
    completion->footer("source <(kcs completion bash) completes subcommands, options and the values kcs knows.");
    completion->callback([&exit_code, &app] {
        std::cout << bash_script(app);
        exit_code = 0;
    });
}

}  // namespace kcs::cli
