// kcs: the Kernel Contract Suite command line.
// Exit codes: 0 ok, 1 non-conformant result or lint findings, 2 usage or input error.
#include <malloc.h>

#include <iostream>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "catalog_location.hpp"
#include "commands.hpp"
#include "kcs/host/adapter_error.hpp"
#include "kcs/spec/catalog.hpp"
#include "kcs_root.hpp"
#include "usage_hints.hpp"

namespace {

std::string version_text() {
    std::string out = std::string("kcs ") + KCS_VERSION + "\ncarried catalogs (" + kcs::cli::spec_root().string() + "):";
    const auto carried = kcs::cli::carried_catalogs();
    if (carried.empty()) out += " none";
    for (const auto& c : carried) {
        const auto loaded = kcs::spec::load_catalog(c.dir);
        out += "\n  " + c.name + "  spec_version ";
        if (loaded.ok())
            out += loaded.catalog.spec_version + "  " + kcs::spec::catalog_digest(loaded.catalog);
        else
            out += "? (" + std::to_string(loaded.diagnostics.all().size()) + " problems: run kcs spec lint " +
                   c.dir.string() + ")";
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    // Exhaustive sweeps allocate and free tensors of 16 MiB per chunk, a
    // thousand times a case. By default glibc maps such blocks afresh and
    // unmaps them at free, so every chunk faulted in zeroed pages (about 15 %
    // of a sweep's time). Serving them from the heap, and keeping freed heap
    // memory, reuses the same pages; 32 MiB is the largest threshold glibc takes.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    CLI::App app{"kcs: the Kernel Contract Suite. Checks ML kernels against a versioned catalog of contracts."};
    app.set_version_flag("--version", version_text, "Print the kcs version and the catalogs it carries");
    app.require_subcommand(1);
    app.footer("Exit codes: 0 ok, 1 non-conformant result or lint findings, 2 usage or input error.");

    int exit_code = 0;
    kcs::cli::add_spec_commands(app, exit_code);
    kcs::cli::add_adapter_commands(app, exit_code);
    kcs::cli::add_plan_command(app, exit_code);
    kcs::cli::add_run_command(app, exit_code);
    kcs::cli::add_certify_command(app, exit_code);
    kcs::cli::add_merge_command(app, exit_code);
    kcs::cli::add_calibrate_command(app, exit_code);
    kcs::cli::add_signing_commands(app, exit_code);
    kcs::cli::add_incident_commands(app, exit_code);
    kcs::cli::add_render_command(app, exit_code);
    kcs::cli::add_table_command(app, exit_code);
    kcs::cli::add_diff_command(app, exit_code);
    kcs::cli::add_rejudge_command(app, exit_code);
    kcs::cli::add_completion_command(app, exit_code);  // last: it reads the commands above

    try {
        // "${KCS_ROOT}/..." in a replay line's argument is this checkout (kcs_root.hpp).
        std::vector<std::string> expanded(argv, argv + argc);
        std::vector<char*> arguments;
        for (auto& a : expanded) arguments.push_back((a = kcs::cli::expand_root(a)).data());
        app.parse(argc, arguments.data());
    } catch (const CLI::Success& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        // A mistyped name explains the error CLI11 reports (a required
        // subcommand or option "missing", arguments "not expected"): name it.
        if (const auto hint = kcs::cli::unknown_name_hint(app)) {
            std::cerr << "kcs: " << *hint << "\nRun with --help for more information.\n";
            return 2;
        }
        app.exit(e);
        return 2;
    } catch (const kcs::host::AdapterError& e) {
        std::cerr << "kcs: error: " << e.what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "kcs: error: " << e.what() << "\n";
        return 2;
    }
    return exit_code;
}
