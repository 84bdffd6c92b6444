#include <algorithm>
#include <functional>
#include <stdexcept>
#include <tuple>

#include "kcs/spec/catalog.hpp"

namespace kcs::spec {

namespace {

template <typename T>
const T* find_by_id(const std::vector<T>& items, const std::string& id) {
    const auto it = std::find_if(items.begin(), items.end(), [&](const T& item) { return item.id == id; });
    return it == items.end() ? nullptr : &*it;
}

}  // namespace

std::string SourceLocation::str() const {
    if (line <= 0) return file;
    return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

std::string Diagnostic::str() const {
    std::string out = where.str() + ": error: " + message;
    if (!hint.empty()) out += "\n  hint: " + hint;
    return out;
}

void Diagnostics::input(SourceLocation where, std::string message, std::string hint) {
    items_.push_back({Severity::input, std::move(where), std::move(message), std::move(hint)});
}

void Diagnostics::finding(SourceLocation where, std::string message, std::string hint) {
    items_.push_back({Severity::finding, std::move(where), std::move(message), std::move(hint)});
}

bool Diagnostics::has_input_errors() const {
    return std::any_of(items_.begin(), items_.end(),
                       [](const Diagnostic& d) { return d.severity == Severity::input; });
}

int Diagnostics::exit_code() const {
    if (items_.empty()) return 0;
    return has_input_errors() ? 2 : 1;
}

void Diagnostics::sort_by_location() {
    // An input error (a file that cannot be read or parsed) is the root
    // cause of the findings it leaves behind in other files: it goes first.
    const auto rank = [](const Diagnostic& d) { return d.severity == Severity::input ? 0 : 1; };
    std::stable_sort(items_.begin(), items_.end(), [&](const Diagnostic& a, const Diagnostic& b) {
        return std::make_tuple(rank(a), std::cref(a.where.file), a.where.line, a.where.column) <
               std::make_tuple(rank(b), std::cref(b.where.file), b.where.line, b.where.column);
    });
}

const Parameter* ContractClass::parameter(const std::string& name) const {
    const auto it = std::find_if(parameters.begin(), parameters.end(),
                                 [&](const Parameter& p) { return p.name == name; });
    return it == parameters.end() ? nullptr : &*it;
}

const Signature* ContractClass::signature(const std::string& sig_id) const {
    return find_by_id(violation_signature, sig_id);
}

bool requirement_holds(const Requirement& requirement, const Operator& op, const DtypeConfig& config) {
    const auto& where = requirement.operators;
    if (!where.empty() && std::find(where.begin(), where.end(), op.id) == where.end()) return true;
    if (requirement.condition == "accumulator") return config.accumulate.has_value();
    if (requirement.condition == "conversion")
        return op.id == "cast" || config.output == "f16" || config.output == "bf16";
    if (requirement.condition == "f32_output") return config.output == "f32";
    throw std::logic_error("unknown requirement condition '" + requirement.condition + "'");
}

std::string DtypeConfig::id() const {
    std::string out;
    for (std::size_t i = 0; i < inputs.size(); ++i) out += (i ? "x" : "") + inputs[i];
    return out + "-" + output;
}

const ContractClass* Catalog::find_class(const std::string& id) const { return find_by_id(classes, id); }
const Operator* Catalog::find_operator(const std::string& id) const { return find_by_id(operators, id); }
const Profile* Catalog::find_profile(const std::string& id) const { return find_by_id(profiles, id); }
const Incident* Catalog::find_incident(const std::string& id) const { return find_by_id(incidents, id); }
const Claim* Catalog::find_claim(const std::string& id) const { return find_by_id(claims, id); }
const Depth* Catalog::find_depth(const std::string& id) const { return find_by_id(depths, id); }
const Implementation* Catalog::find_implementation(const std::string& id) const {
    return find_by_id(implementations, id);
}
const FunctionalTest* Catalog::find_functional_test(const std::string& id) const {
    return find_by_id(functional_tests, id);
}

}  // namespace kcs::spec
