// kcs adapter list | check
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "kcs/host/adapter_check.hpp"
#include "kcs/host/adapter_library.hpp"
#include "kcs/host/adapter_error.hpp"
#include "kcs/host/adapter_search.hpp"
#include "kcs/host/isolated_adapter.hpp"

namespace kcs::cli {

namespace {

using Json = nlohmann::json;

// One adapter's info, opened in a worker; a broken adapter carries its
// error in place of its info, and the listing goes on.
Json adapter_description(const std::string& name, const std::filesystem::path& path) {
    Json out = {{"name", name}, {"path", path.string()}};
    try {
        host::IsolatedAdapter adapter(path);
        const auto info = adapter.info();
        if (!info.ok()) {
            out["error"] = "info failed: " + info.result.describe();
            return out;
        }
        const auto& i = info.value;
        Json notes = Json::array();
        std::istringstream lines(i.notes);
        for (std::string line; std::getline(lines, line);) notes.push_back(line);
        out["abi"] = host::abi_version_text(adapter.abi_version());
        out["info"] = {{"adapter_name", i.adapter_name}, {"adapter_version", i.adapter_version}, {"vendor", i.vendor},
                       {"device", i.device}, {"driver_version", i.driver_version}, {"notes", notes}};
    } catch (const host::AdapterError& e) {
        out["error"] = "unusable: " + e.detail();
    }
    return out;
}

void print_adapter(const Json& a, std::ostream& out) {
    out << a["name"].get<std::string>() << "\n    path     " << a["path"].get<std::string>() << "\n";
    if (a.contains("error")) {
        out << "    " << a["error"].get<std::string>() << "\n";
        return;
    }
    const Json& i = a["info"];
    const std::string driver = i["driver_version"];
    out << "    adapter  " << i["adapter_name"].get<std::string>() << " " << i["adapter_version"].get<std::string>()
        << "\n    abi      " << a["abi"].get<std::string>() << "\n    device   " << i["device"].get<std::string>()
        << " (" << i["vendor"].get<std::string>() << ")" << (driver.empty() ? "" : ", driver " + driver) << "\n";
    for (const auto& line : i["notes"]) out << "    note     " << line.get<std::string>() << "\n";
}

}  // namespace

void add_adapter_commands(CLI::App& app, int& exit_code) {
    auto* adapter = app.add_subcommand("adapter", "Find, describe and self-test backend adapters");
    adapter->require_subcommand(1);

    struct Options {
        std::string list_name, check_name;
        std::vector<std::string> check_options;
        int timeout_s = 30;
        bool json = false;
    };
    auto o = std::make_shared<Options>();

    auto* list = adapter->add_subcommand("list", "List the adapters found and what each reports about itself");
    list->add_option("ADAPTER", o->list_name, "Only this adapter (a name or a path)");
    list->footer("Adapters are libkcs-adapter-NAME.so in the folders of KCS_ADAPTER_PATH, then the build tree.");
    list->add_flag("--json", o->json, "A JSON array, one object per adapter (name, path, abi, info or error)");
    list->callback([&exit_code, o] {
        Json adapters = Json::array();
        if (!o->list_name.empty()) {
            // AdapterError: exit 2 in main
            adapters.push_back(adapter_description(o->list_name, host::resolve_adapter(o->list_name)));
        } else {
            for (const auto& a : host::find_adapters()) adapters.push_back(adapter_description(a.name, a.path));
        }
        if (o->json) std::cout << adapters.dump(2) << "\n";
        else if (adapters.empty()) std::cout << "no adapters found (set KCS_ADAPTER_PATH)\n";
        for (const auto& a : adapters)
            if (!o->json) print_adapter(a, std::cout);
        exit_code = 0;
    });

    auto* check = adapter->add_subcommand("check", "Run the ABI self-test every adapter must pass");
    check->add_option("ADAPTER", o->check_name, "An adapter name (e.g. reference-cpu) or a path to its library")
        ->required();
    check->add_option("--option,-o", o->check_options, "An adapter option key=value (repeatable)");
    check->add_option("--timeout", o->timeout_s, "Seconds one call may take before it counts as hung")
        ->check(CLI::PositiveNumber);
    check->footer("Exit 0 when every step passes, 1 when one fails, 2 when the adapter cannot be loaded or opened.");
    check->add_flag("--json", o->json, "A JSON object: adapter, abi, steps (rule, name, passed, detail), passed");
    check->callback([&exit_code, o] {
        host::CheckOptions options;
        options.adapter_options = o->check_options;
        options.call_timeout = std::chrono::seconds(o->timeout_s);
        const auto report = host::check_adapter(host::resolve_adapter(o->check_name), options);
        exit_code = report.passed() ? 0 : 1;
        if (o->json) {
            Json steps = Json::array();
            for (const auto& s : report.steps)
                steps.push_back({{"rule", s.rule}, {"name", s.name}, {"passed", s.passed}, {"detail", s.detail}});
            std::cout << Json{{"adapter", report.adapter_name},
                              {"abi", host::abi_version_text(report.abi_version)},
                              {"steps", steps},
                              {"passed", report.passed()}}
                             .dump(2)
                      << "\n";
            return;
        }
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
    });
}

}  // namespace kcs::cli
