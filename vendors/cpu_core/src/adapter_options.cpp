#include "adapter_options.hpp"

#include <set>
#include <string>
#include <string_view>

#include "adapter_failure.hpp"
#include "option_list.hpp"

namespace kcs::cpu_core {

namespace {

std::string violation_names() {
    std::string names = "none";
    for (const auto& v : kernels::violations()) names += ", " + std::string(v.name);
    return names;
}

Outcome parse_threads(std::string_view value, int& threads) {
    try {
        threads = device::parse_threads(value);
    } catch (const device::AdapterFailure& e) {
        return invalid_argument(e.what());
    }
    return success();
}

std::string conformer_names() {
    std::string names = "none";
    for (const auto& c : kernels::conformers()) names += ", " + std::string(c.name);
    return names;
}

Outcome parse_conformer(std::string_view value, kernels::Conformer& conformer) {
    const auto parsed = kernels::parse_conformer(value);
    if (!parsed)
        return invalid_argument("conforming=" + std::string(value) + ": unknown conforming behaviour; valid: " +
                                conformer_names());
    conformer = *parsed;
    return success();
}

Outcome parse_violation(std::string_view value, kernels::Violation& violation) {
    const auto parsed = kernels::parse_violation(value);
    if (!parsed)
        return invalid_argument("violation=" + std::string(value) + ": unknown violation; valid: " +
                                violation_names());
    violation = *parsed;
    return success();
}

}  // namespace

Outcome parse_options(const AdapterProfile& profile, const char* const* options, std::uint32_t option_count,
                      AdapterOptions& parsed) {
    if (option_count > 0 && !options) return invalid_argument("options is NULL with option_count > 0");
    const std::string accepted =
        profile.offers_violations ? "threads=N, violation=NAME, conforming=NAME" : "threads=N";
    std::set<std::string, std::less<>> seen;
    for (std::uint32_t i = 0; i < option_count; ++i) {
        if (!options[i]) return invalid_argument("option " + std::to_string(i) + " is NULL");
        const std::string_view option = options[i];
        const auto equals = option.find('=');
        if (equals == std::string_view::npos)
            return invalid_argument("option '" + std::string(option) + "' is not key=value (" + profile.name +
                                    " accepts " + accepted + ")");
        const std::string_view key = option.substr(0, equals);
        const std::string_view value = option.substr(equals + 1);
        if (!seen.emplace(key).second) return invalid_argument("option '" + std::string(key) + "' is given twice");
        Outcome outcome;
        if (key == "threads") {
            outcome = parse_threads(value, parsed.threads);
        } else if (key == "violation" && profile.offers_violations) {
            outcome = parse_violation(value, parsed.violation);
        } else if (key == "conforming" && profile.offers_violations) {
            outcome = parse_conformer(value, parsed.conformer);
        } else {
            outcome = invalid_argument("unknown option '" + std::string(key) + "' (" + profile.name + " accepts " +
                                       accepted + ")");
        }
        if (!outcome.ok()) return outcome;
    }
    if (parsed.violation != kernels::Violation::none && parsed.conformer != kernels::Conformer::none)
        return invalid_argument("violation= and conforming= select two behaviours; give one of them");
    return success();
}

}  // namespace kcs::cpu_core
