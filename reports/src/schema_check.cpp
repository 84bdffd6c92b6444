// The schema check of verify.hpp, apart: valijson's inlined string code
// trips a false -Wrestrict of GCC 12, silenced for this file alone.
#include <memory>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validator.hpp>

#include "report_schema.hpp"
#include "verify_checks.hpp"

namespace kcs::reports::detail {

namespace {

// Parsed once (valijson schemas are neither copyable nor movable).
const valijson::Schema& report_schema() {
    static const std::unique_ptr<valijson::Schema> schema = [] {
        auto s = std::make_unique<valijson::Schema>();
        const Json doc = Json::parse(report_schema_text());
        valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
        valijson::adapters::NlohmannJsonAdapter adapter(doc);
        parser.populateSchema(adapter, *s);
        return s;
    }();
    return *schema;
}

std::string joined(const std::vector<std::string>& parts, const char* separator) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : separator) + p;
    return out;
}

}  // namespace

void check_schema(const Json& statement, Verification& v) {
    valijson::Validator validator;
    valijson::ValidationResults results;
    const valijson::adapters::NlohmannJsonAdapter target(statement);
    if (validator.validate(report_schema(), target, &results)) {
        v.passed.push_back("schema: the Statement matches report-v1.schema.json");
        return;
    }
    // The deepest errors say most; valijson lists the enclosing ones too.
    valijson::ValidationResults::Error error;
    std::size_t shown = 0, total = 0;
    std::string listed;
    while (results.popError(error)) {
        ++total;
        if (shown < 5) {
            listed += "\n    at " + joined(error.context, "") + ": " + error.description;
            ++shown;
        }
    }
    v.failures.push_back("schema: the Statement does not match report-v1.schema.json (" + std::to_string(total) +
                         " errors):" + listed);
}

}  // namespace kcs::reports::detail
