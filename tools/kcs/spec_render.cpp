#include "spec_render.hpp"

#include <sstream>

#include "kcs/spec/tolerance_models.hpp"

namespace kcs::cli {

namespace {

constexpr std::size_t kWidth = 78;

// Words of `text` filled into lines of kWidth, each starting with `indent`.
std::string wrap(const std::string& text, const std::string& indent) {
    std::istringstream words(text);
    std::string word, line, out;
    while (words >> word) {
        if (!line.empty() && indent.size() + line.size() + 1 + word.size() > kWidth) {
            out += indent + line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    if (!line.empty()) out += indent + line + "\n";
    return out;
}

std::string join(const std::vector<std::string>& items, const std::string& sep = ", ") {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
    return out;
}

std::string pad(const std::string& s, std::size_t width) {
    return s.size() >= width ? s + " " : s + std::string(width - s.size(), ' ');
}

std::string render_class(const spec::Catalog& cat, const spec::ContractClass& k) {
    std::ostringstream out;
    const std::string in = "    ";
    out << k.id << "  " << k.title << "\n"
        << "catalog " << cat.spec_version << ", " << k.where.file << "\n\n";
    out << "1. Identifier\n" << in << k.id << ": " << k.title << "\n"
        << in << "family " << k.family << ", physical primitive " << k.primitive << "\n";
    out << "2. Scope\n" << wrap("operators: " + join(k.scope_operators), in);
    if (k.scope_claim) out << in << "applies where the adapter claims " << *k.scope_claim << ": true\n";
    out << wrap(k.scope_text, in);
    out << "3. Precondition\n" << wrap(k.precondition, in);
    out << "4. Postcondition\n" << wrap(k.postcondition, in);
    std::string model_line = "model " + k.tolerance.model;
    if (const auto* model = spec::find_tolerance_model(k.tolerance.model)) model_line += ": " + model->summary;
    out << "5. Tolerance\n" << wrap(model_line, in);
    for (const auto& [name, value] : k.tolerance.params.items()) out << in << "  " << name << " = " << value.dump() << "\n";
    out << wrap("derivation: " + k.tolerance.derivation, in);
    out << "6. Reference oracle\n" << wrap(k.reference_oracle, in);
    out << "7. Measurement protocol\n";
    for (std::size_t i = 0; i < k.measurement_protocol.size(); ++i) {
        const std::string step = wrap(k.measurement_protocol[i], in + "    ");
        out << in << pad(std::to_string(i + 1) + ".", 4) << step.substr(in.size() + 4);
    }
    out << "8. Violation signature\n";
    for (const auto& s : k.violation_signature) out << in << s.id << ":\n" << wrap(s.text, in + "  ");

    if (!k.parameters.empty()) {
        out << "\nParameters (valued per operator)\n";
        for (const auto& p : k.parameters)
            out << in << p.name << " (" << p.type << (p.required ? ", required" : "") << "): " << p.description << "\n";
    }
    out << "\nCalibration\n" << in << "conforming: " << join(k.calibration.conforming) << "\n";
    for (const auto& v : k.calibration.violating)
        out << in << "violating: " << v.implementation << ", must show " << v.signature << " on "
            << join(v.operators) << (v.functions.empty() ? std::string() : std::string(" (").append(join(v.functions)).append(")")) << "\n";
    out << in << "functional test the violators must pass: " << k.calibration.functional_test;
    if (const auto* t = cat.find_functional_test(k.calibration.functional_test))
        out << " (" << t->check << " rtol " << t->rtol << " atol " << t->atol << " on " << t->distribution << ")";
    out << "\n";
    return out.str();
}

std::string render_operator(const spec::Operator& op) {
    std::ostringstream out;
    const std::string in = "    ";
    out << op.id << "  " << op.title << "\n" << op.where.file << "\n\nDefinition\n" << wrap(op.definition, in);
    out << "Inputs\n";
    for (const auto& t : op.inputs) out << in << pad(t.name, 8) << pad(t.shape, 14) << t.description << "\n";
    out << "Outputs\n";
    for (const auto& t : op.outputs) out << in << pad(t.name, 8) << pad(t.shape, 14) << t.description << "\n";
    if (!op.attributes.empty()) {
        out << "Attributes\n";
        for (const auto& a : op.attributes) {
            out << in << a.name << " (" << a.type;
            if (!a.values.empty()) out << ": " << join(a.values, "|");
            if (a.default_value) out << ", default " << a.default_value->dump();
            out << "): " << a.description << "\n";
        }
    }
    if (!op.functions.empty()) {
        out << "Functions\n";
        for (const auto& f : op.functions) out << in << pad(f.name, 10) << "arity " << f.arity << ": " << f.definition << "\n";
    }
    out << "Dtype configurations\n";
    for (const auto& c : op.configs)
        out << in << pad(c.id(), 22) << (c.accumulate ? "accumulate " + *c.accumulate : "") << "\n";
    out << "Contracts\n";
    for (const auto& [class_id, params] : op.contracts) {
        out << in << class_id << "\n";
        for (const auto& [name, by_depth] : params) {
            out << in << "  " << name << ":";
            for (const auto& [depth, value] : by_depth) out << " " << depth << "=" << value.dump();
            out << "\n";
        }
    }
    return out.str();
}

std::string render_profile(const spec::Profile& p) {
    std::ostringstream out;
    const std::string in = "    ";
    out << p.id << "  " << p.title << "\n" << p.where.file << "\n\n" << wrap(p.description, "") << "\nClasses\n";
    for (const auto& [id, requirement] : p.classes) out << in << pad(id, 10) << requirement << "\n";
    out << "Accepted claims\n";
    for (const auto& [id, values] : p.claims) out << in << pad(id, 16) << join(values) << "\n";
    return out.str();
}

std::string render_incident(const spec::Incident& i) {
    std::ostringstream out;
    const std::string in = "    ";
    out << i.id << "  " << i.title << "\n" << i.where.file << "\n\n" << wrap(i.summary, "")
        << "\nclass " << i.class_id << ", signature " << i.signature << ", reproduced by violator " << i.violator
        << " on " << join(i.operators) << "\nReferences\n";
    for (const auto& r : i.references) out << wrap(r, in);
    return out.str();
}

}  // namespace

std::string render_list(const spec::Catalog& cat, const ListSections& s) {
    std::ostringstream out;
    auto heading = [&](const char* title) {
        if (!s.headings) return;
        if (out.tellp() > 0) out << "\n";
        out << title << "\n";
    };
    if (s.classes) {
        heading("Contract classes");
        for (const auto& k : cat.classes)
            out << pad(k.id, 10) << pad(k.family, 12) << pad(k.primitive, 21) << k.title << "\n";
    }
    if (s.operators) {
        heading("Operators");
        for (const auto& op : cat.operators)
            out << pad(op.id, 13) << pad(op.title, 50) << op.configs.size() << " configs, " << op.contracts.size()
                << " classes\n";
    }
    if (s.profiles) {
        heading("Profiles");
        for (const auto& p : cat.profiles) out << pad(p.id, 13) << pad(p.title, 50) << p.classes.size() << " classes\n";
    }
    if (s.incidents) {
        heading("Incidents");
        for (const auto& i : cat.incidents) out << pad(i.id, 28) << pad(i.class_id, 10) << i.title << "\n";
    }
    return out.str();
}

std::optional<std::string> render_entity(const spec::Catalog& cat, const std::string& id, std::string& error) {
    if (const auto* k = cat.find_class(id)) return render_class(cat, *k);
    if (const auto* op = cat.find_operator(id)) return render_operator(*op);
    if (const auto* p = cat.find_profile(id)) return render_profile(*p);
    if (const auto* i = cat.find_incident(id)) return render_incident(*i);
    error = "no class, operator, profile or incident '" + id + "' in " + cat.root.string() +
            " (kcs spec list shows them all)";
    return std::nullopt;
}

}  // namespace kcs::cli
