// kcs adapter list | check
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "kcs/host/adapter_check.hpp"
#include "kcs/host/adapter_library.hpp"
#include "kcs/host/adapter_error.hpp"
#include "kcs/host/adapter_search.hpp"
#include "kcs/host/isolated_adapter.hpp"

namespace kcs::cli {

namespace {

// One adapter's info, opened in a worker; a broken adapter shows its error
// in place of its info and the listing goes on.
void describe_adapter(const std::string& name, const std::filesystem::path& path, std::ostream& out) {
    out << name << "\n    path     " << path.string() << "\n";
    try {
        host::IsolatedAdapter adapter(path);
        const auto info = adapter.info();
        if (!info.ok()) {
            out << "    info     failed: " << info.result.describe() << "\n";
            return;
        }
        const auto& i = info.value;
        out << "    adapter  " << i.adapter_name << " " << i.adapter_version << "\n"
            << "    abi      " << host::abi_version_text(adapter.abi_version()) << "\n"
            << "    device   " << i.device << " (" << i.vendor << ")"
            << (i.driver_version.empty() ? "" : ", driver " + i.driver_version) << "\n";
        std::istringstream notes(i.notes);
        for (std::string line; std::getline(notes, line);) out << "    note     " << line << "\n";
    } catch (const host::AdapterError& e) {
        out << "    unusable " << e.detail() << "\n";
    }
}

}  // namespace

void add_adapter_commands(CLI::App& app, int& exit_code) {
    auto* adapter = app.add_subcommand("adapter", "Find, describe and self-test backend adapters");
    adapter->require_subcommand(1);

    struct Options {
        std::string list_name, check_name;
        std::vector<std::string> check_options;
        int timeout_s = 30;
    };
    auto o = std::make_shared<Options>();

    auto* list = adapter->add_subcommand("list", "List the adapters found and what each reports about itself");
    list->add_option("ADAPTER", o->list_name, "Only this adapter (a name or a path)");
    list->footer("Adapters are libkcs-adapter-NAME.so in the folders of KCS_ADAPTER_PATH, then the build tree.");
    list->callback([&exit_code, o] {
        if (!o->list_name.empty()) {
            const auto path = host::resolve_adapter(o->list_name);  // AdapterError: exit 2 in main
            describe_adapter(o->list_name, path, std::cout);
            return;
        }
        const auto found = host::find_adapters();
        if (found.empty()) std::cout << "no adapters found (set KCS_ADAPTER_PATH)\n";
        for (const auto& a : found) describe_adapter(a.name, a.path, std::cout);
        exit_code = 0;
    });

    auto* check = adapter->add_subcommand("check", "Run the ABI self-test every adapter must pass");
    check->add_option("ADAPTER", o->check_name, "An adapter name (e.g. reference-cpu) or a path to its library")
        ->required();
    check->add_option("--option,-o", o->check_options, "An adapter option key=value (repeatable)");
    check->add_option("--timeout", o->timeout_s, "Seconds one call may take before it counts as hung")
        ->check(CLI::PositiveNumber);
    check->footer("Exit 0 when every step passes, 1 when one fails, 2 when the adapter cannot be loaded or opened.");
    check->callback([&exit_code, o] {
        host::CheckOptions options;
        options.adapter_options = o->check_options;
        options.call_timeout = std::chrono::seconds(o->timeout_s);
        const auto report = host::check_adapter(host::resolve_adapter(o->check_name), options);
        std::cout << report.adapter_name << ": ABI " << host::abi_version_text(report.abi_version)
                  << " negotiated (rules: vendors/ABI.md)\n";
        std::size_t passed = 0;
        for (const auto& s : report.steps) {
            passed += s.passed;
            std::cout << (s.passed ? "PASS  " : "FAIL  ") << "[" << s.rule << "] " << s.name;
            if (!s.passed && !s.detail.empty()) std::cout << ": " << s.detail;
            std::cout << "\n";
        }
        std::cout << report.adapter_name << ": " << passed << " of " << report.steps.size() << " steps passed\n";
        exit_code = report.passed() ? 0 : 1;
    });
}

}  // namespace kcs::cli
