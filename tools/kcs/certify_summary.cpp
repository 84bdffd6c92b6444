#include "certify_summary.hpp"

#include <iomanip>
#include <iostream>
#include <sstream>

namespace kcs::cli {

namespace {

// A fraction from the report (null when its divisor was 0) as a percentage.
std::string percent(const reports::Json& fraction) {
    if (fraction.is_null()) return "-";
    std::ostringstream out;
    out << std::fixed << std::setprecision(1) << 100.0 * fraction.get<double>() << "%";
    return out.str();
}

std::string seconds_text(const reports::Json& value) {
    if (value.is_null()) return "?";
    std::ostringstream out;
    out << std::fixed << std::setprecision(2) << value.get<double>() << " s";
    return out.str();
}

std::string text(const reports::Json& value) { return value.get<std::string>(); }

void print_run_header(const reports::Json& p) {
    std::cout << "\nadapter   " << text(p["adapter"]["argument"]) << "  (" << text(p["adapter"]["library"]) << ")\n";
    if (const auto& info = p["adapter"]["info"]; !info.is_null())
        std::cout << "device    " << text(info["device"]) << " (" << text(info["vendor"]) << ")\n";
    const auto base = p["seeds"]["base"].get<std::uint64_t>();
    const auto seeds = p["seeds"]["per_instance"].get<std::uint64_t>();
    std::cout << "catalog   spec " << text(p["spec"]["version"]) << "  " << text(p["spec"]["digest"]) << "\n";
    if (const auto& protocols = p["spec"].value("protocols", reports::Json()); protocols.is_object())
        std::cout << "protocols spec " << text(protocols["version"]) << "'s, which supplied "
                  << protocols["supplied"].size() << " value(s) spec " << text(p["spec"]["version"])
                  << " leaves unstated (spec.protocols in the report)\n";
    std::cout << "profile   " << text(p["profile"]["id"]) << "   depth " << text(p["depth"]["id"])
              << (p["depth"]["certifiable"].get<bool>() ? " (certifiable)" : " (not certifiable)") << "   seeds "
              << base << ".." << base + seeds - 1;
    if (!p["operators"].empty()) {
        std::cout << "   operators";
        for (const auto& op : p["operators"]) std::cout << " " << text(op);
    }
    std::cout << "\n";
    if (const auto& declined = p["adapter"]["declined_operators"]; !declined.empty()) {
        std::cout << "declined ";
        for (const auto& op : declined) std::cout << " " << text(op);
        std::cout << "   (every configuration UNSUPPORTED by supports())\n";
    }
    for (const auto& [id, why] : p["claims"]["not_needed"].items())
        std::cout << "claim     " << id << " not needed: " << text(why) << "\n";
    std::cout << "\n";
}

// One row per class and one for the profile: verdict, counts, coverage and
// pass rate side by side but apart.
void print_table(const reports::Json& summary) {
    static const std::pair<const char*, const char*> columns[] = {
        {"plan", "planned"},      {"appl", "applicable"}, {"exec", "executed"}, {"PASS", "pass"},
        {"FAIL", "fail"},         {"CONSQ", "consequence"}, {"CRASH", "crash"},     {"TIME", "timeout"},  {"ERROR", "error"},
        {"UNSUP", "unsupported"}, {"INCON", "inconclusive"}, {"MISS", "missing"}};
    std::cout << std::left << std::setw(10) << "class" << std::setw(16) << "verdict" << std::right;
    for (const auto& [heading, key] : columns) std::cout << std::setw(6) << heading;
    std::cout << std::setw(10) << "coverage" << std::setw(11) << "pass rate"
              << "\n";
    const auto row = [](const std::string& name, const reports::Json& group) {
        std::cout << std::left << std::setw(10) << name << std::setw(16) << text(group["verdict"]) << std::right;
        for (const auto& [heading, key] : columns) std::cout << std::setw(6) << group["counts"][key].get<std::size_t>();
        std::cout << std::setw(10) << percent(group["coverage"]) << std::setw(11) << percent(group["pass_rate"])
                  << "\n";
    };
    for (const auto& c : summary["classes"]) row(text(c["class"]), c);
    row("profile", summary["profile"]);
}

void print_verdict(const reports::Json& p) {
    const auto& profile = p["summary"]["profile"];
    const auto& counts = profile["counts"];
    std::cout << "\nprofile " << text(profile["id"]) << ": " << text(profile["verdict"])
              << (p["complete"].get<bool>() ? "" : "  (run " + text(p["state"]) + ")") << "\n"
              << "  coverage   " << percent(profile["coverage"]) << " (" << counts["executed"] << " of "
              << counts["applicable"] << " applicable instances executed)\n"
              << "  pass rate  " << percent(profile["pass_rate"]) << " (" << counts["pass"] << " of "
              << counts["executed"] << " executed instances passed)\n";
    for (const auto& reason : profile["reasons"]) std::cout << "  because    " << text(reason) << "\n";
}

// Total = outside cases + in cases; in cases = adapter + oracle and harness,
// where the harness records the adapter's share.
void print_time(const reports::Json& p) {
    const auto& t = p["summary"]["time"];
    std::cout << "\ntime      total " << seconds_text(t["total_s"]) << ": outside cases "
              << seconds_text(t["outside_cases_s"]) << ", in cases " << seconds_text(t["case_time_s"]);
    if (const int jobs = p["limits"]["jobs"].get<int>(); jobs > 1) std::cout << " (summed over " << jobs << " workers)";
    if (t["adapter_s"].is_null()) {
        std::cout << "; the adapter's share is not recorded by this harness\n";
    } else {
        std::cout << " = adapter " << seconds_text(t["adapter_s"]) << " + oracle and harness "
                  << seconds_text(t["oracle_and_harness_s"]) << "\n";
    }
}

// Primary failures first, then errors, then the FAILs that are consequences
// of another (named after their replay): the cases worth replaying.
void print_replays(const reports::Json& p) {
    std::vector<std::string> replays;
    const auto consequence = [](const reports::Json& i) { return i.value("consequence_of", reports::Json()).is_object(); };
    for (const char* wanted : {"FAIL", "CRASH", "TIMEOUT", "ERROR"})
        for (const auto& i : p["instances"])
            if (i["verdict"] == wanted && !consequence(i)) replays.push_back(text(i["repro"]));
    for (const auto& i : p["instances"])
        if (i["verdict"] == "FAIL" && consequence(i))
            replays.push_back(text(i["repro"]) + "   # consequence of " + text(i["consequence_of"]["instance"]));
    if (replays.empty()) return;
    const std::size_t shown = std::min<std::size_t>(replays.size(), 10);
    std::cout << "\nreplay    (" << replays.size() << " instances did not pass; the report has every case)\n";
    for (std::size_t i = 0; i < shown; ++i) std::cout << "  " << replays[i] << "\n";
    if (replays.size() > shown) std::cout << "  ... and " << replays.size() - shown << " more in the report\n";
}

}  // namespace

void print_certify_summary(const reports::Json& report, const std::filesystem::path& file) {
    const auto& p = report["predicate"];
    print_run_header(p);
    print_table(p["summary"]);
    print_verdict(p);
    print_time(p);
    const bool is_signed = p.value("signed", false);
    std::cout << "report    " << file.string() << (is_signed ? "" : "  (UNSIGNED)") << "\n";
    std::string reasons;
    for (const auto& reason : p["summary"]["certificate"]["reasons"])
        reasons += (reasons.empty() ? "" : "; ") + text(reason);
    if (p["summary"]["certificate"].value("granted", false))
        std::cout << "          a certificate once signed and verified (kcs verify)\n";
    else
        std::cout << "          not a certificate: " << reasons << "\n";
    print_replays(p);
}

}  // namespace kcs::cli
