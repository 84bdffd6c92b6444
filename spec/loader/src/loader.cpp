// catalog.yaml and the files it includes.
#include <algorithm>
#include <filesystem>
#include <system_error>

#include "kcs/spec/text_patterns.hpp"
#include "load_context.hpp"

namespace kcs::spec {

using namespace detail;

namespace {

// Why PATH is not a regular file, or "" when it is. The filesystem's errors
// (a name too long, a loop of links) are diagnostics like a missing file:
// the non-throwing overload, so a hostile include costs a finding, not the run.
std::string not_a_regular_file(const std::filesystem::path& path) {
    std::error_code error;
    if (std::filesystem::is_regular_file(path, error)) return {};
    if (!error || error == std::errc::no_such_file_or_directory || error == std::errc::not_a_directory)
        return "does not exist";
    return "cannot be read (" + error.message() + ")";
}

void parse_generator(Fields& top, Catalog& cat) {
    const YAML::Node node = top.get("generator");
    if (!node.IsDefined()) return;
    Fields f(top.doc(), node, "generator");
    // The loader accepts only generators the harness implements.
    cat.generator.name = f.one_of("name", {"philox4x32-10"});
    cat.generator.description = f.text("description");
    f.finish();
}

// Calls `each` with the Fields of every mapping in the list at `key`.
template <typename Each>
void for_each_entry(Fields& top, const std::string& key, const std::string& what, Each each) {
    const YAML::Node list = top.get(key);
    if (!list.IsDefined()) return;
    if (!list.IsSequence() || list.size() == 0) {
        top.doc().finding(list, "'" + key + "' must be a non-empty list of " + what + " entries");
        return;
    }
    for (std::size_t i = 0; i < list.size(); ++i) {
        Fields f(top.doc(), list[i], what + " " + std::to_string(i + 1));
        if (!f.is_map()) continue;
        each(f, list[i]);
        f.finish();
    }
}

void parse_catalog_entries(LoadContext& ctx, Fields& top) {
    Catalog& cat = ctx.catalog;
    Document& doc = top.doc();

    std::vector<std::string> seen;
    for_each_entry(top, "claims", "claim", [&](Fields& f, const YAML::Node& node) {
        Claim c;
        c.id = f.id("id");
        c.values = f.text_list("values");
        c.default_value = f.text("default");
        c.description = f.text("description");
        c.operators = f.text_list("operators", false);
        const YAML::Node operators = f.get("operators", false);
        for (std::size_t i = 0; i < c.operators.size(); ++i)
            ctx.later([&doc, at = operators[i], op = c.operators[i]](Catalog& k) {
                check_reference(doc, at, "operator", op, ids_of(k.operators));
            });
        check_unique(doc, node, "claim", c.id, seen);
        if (!c.default_value.empty())
            check_reference(doc, f.get("default"), "claim " + c.id + " default", c.default_value, c.values);
        cat.claims.push_back(std::move(c));
    });

    seen.clear();
    for_each_entry(top, "depths", "depth", [&](Fields& f, const YAML::Node& node) {
        Depth d;
        d.id = f.id("id");
        d.seeds = static_cast<int>(f.integer("seeds").value_or(2));
        d.certifiable = f.boolean("certifiable").value_or(false);
        d.description = f.text("description");
        check_unique(doc, node, "depth", d.id, seen);
        if (d.seeds < 2)
            doc.finding(f.get("seeds"), "depth " + d.id + " has " + std::to_string(d.seeds) + " seeds",
                        "the integrity protocol runs every case with at least two seeds");
        cat.depths.push_back(std::move(d));
    });
    if (!cat.depths.empty() &&
        std::none_of(cat.depths.begin(), cat.depths.end(), [](const Depth& d) { return d.certifiable; }))
        doc.finding(top.get("depths"), "no depth is certifiable", "mark the exhaustive depth 'certifiable: true'");

    seen.clear();
    for_each_entry(top, "implementations", "implementation", [&](Fields& f, const YAML::Node& node) {
        Implementation impl;
        impl.id = f.id("id");
        impl.kind = f.one_of("kind", {"conforming", "violating"});
        impl.description = f.text("description");
        check_unique(doc, node, "implementation", impl.id, seen);
        // Every implementation must calibrate something, or it is dead weight.
        ctx.later([&doc, node, id = impl.id](Catalog& c) {
            const bool used = std::any_of(c.classes.begin(), c.classes.end(), [&](const ContractClass& k) {
                const auto& cal = k.calibration;
                return std::count(cal.conforming.begin(), cal.conforming.end(), id) > 0 ||
                       std::any_of(cal.violating.begin(), cal.violating.end(),
                                   [&](const ViolatorUse& v) { return v.implementation == id; });
            });
            if (!used)
                doc.finding(node, "implementation '" + id + "' is not used by any class's calibration",
                            "name it in a class's calibration, or remove it");
        });
        cat.implementations.push_back(std::move(impl));
    });

    seen.clear();
    for_each_entry(top, "functional_tests", "functional test", [&](Fields& f, const YAML::Node& node) {
        FunctionalTest t;
        t.where = doc.at(node);
        t.id = f.id("id");
        t.check = f.one_of("check", {"allclose"});
        t.rtol = f.number("rtol").value_or(0);
        t.atol = f.number("atol").value_or(0);
        t.distribution = f.text("distribution");
        t.description = f.text("description");
        check_unique(doc, node, "functional test", t.id, seen);
        if (!t.distribution.empty() && !is_distribution(t.distribution))
            doc.finding(f.get("distribution"), "distribution '" + t.distribution + "' is not understood",
                        "write normal(MEAN,STD) or uniform(LO,HI)");
        if (t.rtol < 0 || t.atol < 0)
            doc.finding(node, "functional test " + t.id + " has a negative tolerance");
        const YAML::Node shapes = f.get("shapes");
        Fields sf(doc, shapes, "functional test " + t.id + " shapes");
        if (sf.is_map()) {
            for (const auto& entry : shapes) {
                const std::string op = entry.first.Scalar();
                sf.get(op);
                auto shape = as_typed(doc, entry.second, "int_list", "shape of " + op);
                if (shape) t.shapes[op] = shape->get<std::vector<long long>>();
                ctx.later([&doc, key = entry.first, op](Catalog& c) {
                    check_reference(doc, key, "functional test shape", op, ids_of(c.operators));
                });
            }
            sf.finish();
        }
        cat.functional_tests.push_back(std::move(t));
    });
}

using EntityParser = void (*)(LoadContext&, Document&, const std::string&);

void parse_includes(LoadContext& ctx, Fields& top) {
    const YAML::Node node = top.get("include");
    if (!node.IsDefined()) return;
    Fields inc(top.doc(), node, "include");
    const std::vector<std::pair<std::string, EntityParser>> kinds{
        {"classes", parse_class},
        {"operators", parse_operator},
        {"profiles", parse_profile},
        {"incidents", parse_incident},
    };
    std::vector<std::string> seen;
    for (const auto& [kind, parse] : kinds) {
        const YAML::Node list = inc.get(kind);
        if (!list.IsDefined()) continue;
        const auto files = as_text_list(top.doc(), list, "include." + kind);
        for (std::size_t i = 0; i < files.size() && i < list.size(); ++i) {
            const std::filesystem::path rel(files[i]);
            const YAML::Node at = list[i];
            check_unique(top.doc(), at, "included file", files[i], seen);
            if (rel.is_absolute() || files[i].find("..") != std::string::npos) {
                top.doc().finding(at, "included file '" + files[i] + "' must be a path inside the catalog folder",
                                  "write it relative to catalog.yaml, e.g. classes/C-PRC-01.yaml");
                continue;
            }
            const auto full = ctx.catalog.root / rel;
            if (const std::string why = not_a_regular_file(full); !why.empty()) {
                ctx.diagnostics.input(top.doc().at(at), "included file '" + files[i] + "' " + why,
                                      "create it, or remove it from catalog.yaml");
                continue;
            }
            Document& doc = ctx.documents.emplace_back((ctx.catalog.root / rel).string(), ctx.diagnostics);
            if (doc.load(full)) parse(ctx, doc, rel.stem().string());
        }
    }
    inc.finish();
}

}  // namespace

bool detail::check_reference(Document& doc, const YAML::Node& node, const std::string& what,
                             const std::string& name, const std::vector<std::string>& known) {
    if (std::find(known.begin(), known.end(), name) != known.end()) return true;
    std::string hint = did_you_mean(name, known);
    if (hint.empty() && !known.empty() && known.size() <= 16) hint = "expected " + one_of_list(known);
    doc.finding(node, what + " '" + name + "' does not exist", hint);
    return false;
}

void detail::check_unique(Document& doc, const YAML::Node& node, const std::string& what,
                          const std::string& id, std::vector<std::string>& seen) {
    if (id.empty()) return;
    if (std::find(seen.begin(), seen.end(), id) != seen.end()) {
        doc.finding(node, "duplicate " + what + " id '" + id + "'", "ids must be unique; rename or remove one");
        return;
    }
    seen.push_back(id);
}

LoadResult load_catalog(const std::filesystem::path& dir) {
    LoadResult result;
    result.catalog.root = dir;
    LoadContext ctx{result.catalog, result.diagnostics, {}, {}};

    const auto catalog_file = dir / "catalog.yaml";
    std::error_code error;
    if (!std::filesystem::is_directory(dir, error)) {
        result.diagnostics.input({dir.string(), 0, 0}, "no such catalog folder",
                                 "give the folder that holds catalog.yaml, e.g. spec/v1");
        return result;
    }
    if (const std::string why = not_a_regular_file(catalog_file); !why.empty()) {
        result.diagnostics.input({catalog_file.string(), 0, 0},
                                 why == "does not exist" ? "the folder has no catalog.yaml" : "catalog.yaml " + why,
                                 "a catalog folder holds catalog.yaml (see spec/SCHEMA.md)");
        return result;
    }
    Document& doc = ctx.documents.emplace_back(catalog_file.string(), result.diagnostics);
    if (!doc.load(catalog_file)) return result;

    Fields top(doc, doc.root(), "catalog.yaml");
    const YAML::Node marker = top.get("catalog");
    if (marker.IsDefined() && as_text(doc, marker, "catalog").value_or("") != "kcs-contracts")
        doc.finding(marker, "catalog.yaml must start with 'catalog: kcs-contracts'",
                    "this marker says the file is a KCS contract catalog");
    result.catalog.spec_version = top.text("spec_version");
    if (!result.catalog.spec_version.empty() && !is_semantic_version(result.catalog.spec_version))
        doc.finding(top.get("spec_version"), "spec_version '" + result.catalog.spec_version +
                                                 "' is not a semantic version", "write MAJOR.MINOR.PATCH, e.g. 1.0.0");
    result.catalog.title = top.text("title");
    parse_generator(top, result.catalog);
    parse_catalog_entries(ctx, top);
    parse_includes(ctx, top);
    top.finish();

    for (auto& check : ctx.deferred) check(result.catalog);

    // Report in file order, whatever order the checks ran in.
    result.diagnostics.sort_by_location();
    return result;
}

}  // namespace kcs::spec
