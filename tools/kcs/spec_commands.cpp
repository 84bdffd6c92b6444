// kcs spec lint | list | show | digest
#include <iostream>
#include <memory>

#include "catalog_location.hpp"
#include "commands.hpp"
#include "kcs/spec/catalog.hpp"
#include "spec_render.hpp"

namespace kcs::cli {

namespace {

std::filesystem::path catalog_dir(const std::string& given) {
    return given.empty() ? default_catalog() : std::filesystem::path(given);
}

void print_diagnostics(const spec::Diagnostics& diags) {
    for (const auto& d : diags.all()) std::cerr << d.str() << "\n";
}

// Loads a catalog for a command that reads it (not lint): any problem is an
// input error for that command.
std::optional<spec::Catalog> load_or_report(const std::string& given, int& exit_code) {
    auto result = spec::load_catalog(catalog_dir(given));
    if (result.ok()) return std::move(result.catalog);
    print_diagnostics(result.diagnostics);
    std::cerr << "kcs: error: the catalog in " << result.catalog.root.string() << " has "
              << result.diagnostics.all().size() << " problem(s); run 'kcs spec lint "
              << result.catalog.root.string() << "' and fix them first\n";
    exit_code = 2;
    return std::nullopt;
}

}  // namespace

void add_spec_commands(CLI::App& app, int& exit_code) {
    auto* spec = app.add_subcommand("spec", "Inspect and check a contract catalog (spec/vN)");
    spec->require_subcommand(1);

    // The options live as long as the callbacks that read them.
    struct Options {
        std::string lint_dir, list_dir, show_dir, digest_dir, show_id;
        bool list_classes = false, list_operators = false, list_profiles = false, list_incidents = false;
    };
    auto o = std::make_shared<Options>();

    auto* lint = spec->add_subcommand("lint", "Check a catalog against the schema and all its cross-references");
    lint->add_option("DIR", o->lint_dir, "Catalog folder holding catalog.yaml (default: the newest carried catalog)");
    lint->footer("Reports every problem as file:line:column. Exit 0 clean, 1 findings, 2 unreadable input.");
    lint->callback([&exit_code, o] {
        const auto result = spec::load_catalog(catalog_dir(o->lint_dir));
        print_diagnostics(result.diagnostics);
        const auto& cat = result.catalog;
        if (result.ok()) {
            std::cout << cat.root.string() << ": ok: spec_version " << cat.spec_version << ", "
                      << cat.classes.size() << " classes, " << cat.operators.size() << " operators, "
                      << cat.profiles.size() << " profiles, " << cat.incidents.size() << " incidents\n"
                      << "digest " << spec::catalog_digest(cat) << "\n";
        } else {
            std::cerr << cat.root.string() << ": " << result.diagnostics.all().size() << " problem(s)\n";
        }
        exit_code = result.diagnostics.exit_code();
    });

    auto* list = spec->add_subcommand("list", "List the classes, operators, profiles and incidents of a catalog");
    list->add_flag("--classes", o->list_classes, "List the contract classes");
    list->add_flag("--operators", o->list_operators, "List the operators");
    list->add_flag("--profiles", o->list_profiles, "List the profiles");
    list->add_flag("--incidents", o->list_incidents, "List the incidents");
    list->add_option("--spec", o->list_dir, "Catalog folder (default: the newest carried catalog)");
    list->footer("With no flag, lists everything.");
    list->callback([&exit_code, o] {
        const auto cat = load_or_report(o->list_dir, exit_code);
        if (!cat) return;
        const bool all = !(o->list_classes || o->list_operators || o->list_profiles || o->list_incidents);
        ListSections sections{all || o->list_classes, all || o->list_operators, all || o->list_profiles,
                              all || o->list_incidents, all};
        std::cout << render_list(*cat, sections);
    });

    auto* show = spec->add_subcommand("show", "Show one class (its eight parts), operator, profile or incident");
    show->add_option("ID", o->show_id, "e.g. C-PRC-01, matmul, core, ascend-precision-coercion")->required();
    show->add_option("--spec", o->show_dir, "Catalog folder (default: the newest carried catalog)");
    show->callback([&exit_code, o] {
        const auto cat = load_or_report(o->show_dir, exit_code);
        if (!cat) return;
        std::string error;
        const auto text = render_entity(*cat, o->show_id, error);
        if (!text) {
            std::cerr << "kcs: error: " << error << "\n";
            exit_code = 2;
            return;
        }
        std::cout << *text;
    });

    auto* digest = spec->add_subcommand("digest", "Print the catalog digest (sha256 over its canonical content)");
    digest->add_option("DIR", o->digest_dir, "Catalog folder (default: the newest carried catalog)");
    digest->callback([&exit_code, o] {
        const auto cat = load_or_report(o->digest_dir, exit_code);
        if (!cat) return;
        std::cout << spec::catalog_digest(*cat) << "\n";
    });
}

}  // namespace kcs::cli
