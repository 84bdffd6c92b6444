// kcs spec lint | list | show | digest | diff
#include <iostream>
#include <memory>
#include <sstream>

#include <filesystem>
#include <fstream>

#include "catalog_location.hpp"
#include "commands.hpp"
#include "mustpass.hpp"
#include "kcs/spec/catalog.hpp"
#include "kcs/spec/catalog_diff.hpp"
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

// kcs spec diff's text: the versions, the step, then every change, those
// needing the largest step first.
std::string diff_text(const spec::CatalogDiff& diff, const std::optional<spec::VersionStep>& step) {
    std::string out = "kcs spec diff: " + diff.from_version + " (" + diff.from_digest + ")\n" +
                      "            -> " + diff.to_version + " (" + diff.to_digest + ")\n";
    out += "version step: " + (step ? std::string(spec::to_string(*step)) : std::string("none (not a newer version)")) +
           "; the changes need: " + std::string(spec::to_string(diff.needed())) + "\n";
    out += "instances: " + std::to_string(diff.instances_added.size()) + " added, " +
           std::to_string(diff.instances_removed.size()) + " removed\n\n";
    for (const auto level : {spec::VersionStep::major, spec::VersionStep::minor, spec::VersionStep::patch})
        for (const auto& c : diff.changes)
            if (c.needs == level)
                out += std::string(spec::to_string(c.needs)) + "  " + c.subject + ": " + c.change +
                       (c.detail.empty() ? "" : ": " + c.detail) + "\n";
    for (const auto& key : diff.instances_added) out += "minor  instance " + key + ": added\n";
    return out;
}

spec::Json diff_json(const spec::CatalogDiff& diff, const std::optional<spec::VersionStep>& step) {
    spec::Json out{{"from", {{"version", diff.from_version}, {"digest", diff.from_digest}}},
                   {"to", {{"version", diff.to_version}, {"digest", diff.to_digest}}},
                   {"version_step", step ? spec::Json(std::string(spec::to_string(*step))) : spec::Json(nullptr)},
                   {"needs", std::string(spec::to_string(diff.needed()))},
                   {"changes", spec::Json::array()},
                   {"instances_added", diff.instances_added},
                   {"instances_removed", diff.instances_removed}};
    for (const auto& c : diff.changes)
        out["changes"].push_back({{"subject", c.subject}, {"change", c.change}, {"detail", c.detail},
                                  {"needs", std::string(spec::to_string(c.needs))}});
    return out;
}

int run_mustpass(const std::string& dir, const std::string& profile_id, const std::string& out, bool check) {
    int code = 0;
    const auto catalog = load_or_report(dir, code);
    if (!catalog) return 2;
    const spec::Profile* profile = catalog->find_profile(profile_id);
    if (!profile) {
        std::cerr << "kcs spec mustpass: the catalog has no profile " << profile_id << "\n";
        return 2;
    }
    const std::string text = mustpass_text(*catalog, *profile);
    if (check) {
        const auto committed = mustpass_file(catalog->spec_version, profile->id);
        std::ifstream in(committed);
        std::stringstream bytes;
        if (in) bytes << in.rdbuf();
        if (!in || bytes.str() != text) {
            std::cerr << "kcs spec mustpass: " << committed.string()
                      << (in ? " is not the list the catalog generates" : " is missing") << "; write it with: kcs spec "
                      << "mustpass --profile " << profile->id << " --out " << committed.string() << "\n";
            return 1;
        }
        std::cout << committed.string() << ": the list catalog " << catalog->spec_version << " generates\n";
        return 0;
    }
    if (out.empty()) {
        std::cout << text;
        return 0;
    }
    std::error_code ec;
    std::filesystem::create_directories(std::filesystem::path(out).parent_path(), ec);
    std::ofstream file(out, std::ios::binary);
    if (!(file << text) || !file.flush()) {
        std::cerr << "kcs spec mustpass: cannot write " << out << "\n";
        return 2;
    }
    std::cerr << "kcs spec mustpass: wrote " << out << "\n";
    return 0;
}

int run_spec_diff(const std::string& from_arg, const std::string& to_arg, bool check_compat, const std::string& format) {
    std::optional<spec::Catalog> catalogs[2];
    const std::string args[2] = {from_arg, to_arg};
    for (int i = 0; i < 2; ++i) {
        const auto dir = find_catalog(args[i]);
        if (dir.empty()) {
            std::cerr << "kcs spec diff: " << args[i]
                      << " is neither a catalog folder (with catalog.yaml) nor a version this kcs carries";
            std::string carried;
            for (const auto& r : released_catalogs()) carried += (carried.empty() ? "" : ", ") + r.name;
            std::cerr << (carried.empty() ? "" : " (released: " + carried + ", and the current catalog's)") << "\n";
            return 2;
        }
        int code = 0;
        catalogs[i] = load_or_report(dir.string(), code);
        if (!catalogs[i]) return 2;
    }
    const spec::CatalogDiff diff = spec::diff_catalogs(*catalogs[0], *catalogs[1]);
    const auto step = spec::version_step(diff.from_version, diff.to_version);
    if (format == "json")
        std::cout << diff_json(diff, step).dump(2) << "\n";
    else
        std::cout << diff_text(diff, step);
    if (!check_compat) return 0;
    if (!step) {
        std::cerr << "kcs spec diff: incompatible: " << diff.to_version << " is not a newer version than "
                  << diff.from_version << "\n";
        return 1;
    }
    if (diff.needed() > *step) {
        std::size_t beyond = 0;
        for (const auto& c : diff.changes) beyond += c.needs > *step;
        std::cerr << "kcs spec diff: incompatible: " << beyond << " change(s) need a "
                  << spec::to_string(diff.needed()) << " release; " << diff.from_version << " -> " << diff.to_version
                  << " is a " << spec::to_string(*step) << " step (SPEC.md section 10):\n";
        for (const auto& c : diff.changes)
            if (c.needs > *step)
                std::cerr << "  " << c.subject << ": " << c.change << (c.detail.empty() ? "" : ": " + c.detail) << "\n";
        return 1;
    }
    std::cerr << "kcs spec diff: compatible: a " << spec::to_string(*step) << " step allows every change\n";
    return 0;
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

    struct DiffOptions {
        std::string from, to, format = "text";
        bool check_compat = false;
    };
    auto diff_options = std::make_shared<DiffOptions>();
    auto* diff = spec->add_subcommand("diff", "What changed from one catalog release to another, and the version step it needs");
    diff->add_option("FROM", diff_options->from, "The older catalog: a folder, or a version (1.0.0)")->required();
    diff->add_option("TO", diff_options->to, "The newer catalog: a folder, or a version (1.1.0)")->required();
    diff->add_flag("--check-compat", diff_options->check_compat,
                   "Fail (exit 1) when a change needs a larger version step than FROM -> TO is");
    diff->add_option("--format", diff_options->format, "text (the default) or json")
        ->check(CLI::IsMember({"text", "json"}));
    diff->footer(
        "Lists classes, operators, functions, dtype configurations, planned instances, protocol parameters, "
        "tolerance bounds and evidence requirements, signatures, claims, depths, profiles and incidents that were "
        "added, removed, tightened, loosened, strengthened or weakened, each with the least version step it needs "
        "under SPEC.md section 10. A version is a release under spec/releases/ or the current catalog's.\n"
        "Exit 0 when listed (and, with --check-compat, compatible), 1 when --check-compat finds a change the "
        "version step does not allow, 2 on a catalog that cannot be found or loaded.");
    diff->callback([&exit_code, diff_options] {
        exit_code = run_spec_diff(diff_options->from, diff_options->to, diff_options->check_compat,
                                  diff_options->format);
    });

    struct MustpassOptions {
        std::string dir, profile = "core", out;
        bool check = false;
    };
    auto mp = std::make_shared<MustpassOptions>();
    auto* mustpass =
        spec->add_subcommand("mustpass", "The instance ids a certificate at a catalog version and profile requires");
    mustpass->add_option("--profile", mp->profile, "The profile (default core)");
    mustpass->add_option("--spec", mp->dir, "Catalog folder (default: the newest carried catalog)");
    mustpass->add_option("--out", mp->out, "Write the list to this file (default: standard output)");
    mustpass->add_flag("--check", mp->check,
                       "Compare with the committed list, spec/mustpass/VERSION/PROFILE.txt; exit 1 when it differs");
    mustpass->footer(
        "The list: every planned instance of the profile's required classes, one id a line, after a header naming "
        "the release and its digest. kcs certify at a certifiable depth records which of them its plan lacks.\n"
        "Exit 0 when written (or, with --check, equal), 1 when --check finds it stale or missing, 2 on bad input.");
    mustpass->callback([&exit_code, mp] { exit_code = run_mustpass(mp->dir, mp->profile, mp->out, mp->check); });

    auto* digest = spec->add_subcommand("digest", "Print the catalog digest (sha256 over its canonical content)");
    digest->add_option("DIR", o->digest_dir, "Catalog folder (default: the newest carried catalog)");
    digest->callback([&exit_code, o] {
        const auto cat = load_or_report(o->digest_dir, exit_code);
        if (!cat) return;
        std::cout << spec::catalog_digest(*cat) << "\n";
    });
}

}  // namespace kcs::cli
