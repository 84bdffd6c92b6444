#include "kcs/spec/strict_json.hpp"

#include <set>
#include <string>
#include <vector>

namespace kcs::spec {

Json parse_json_strict(std::string_view text, const JsonLimits& limits) {
    if (text.size() > limits.max_bytes)
        throw JsonError("the document is " + std::to_string(text.size()) + " bytes, over the limit of " +
                        std::to_string(limits.max_bytes));
    std::vector<std::set<std::string>> members;  // the member names of each open object
    std::string problem;
    const auto check = [&](int depth, Json::parse_event_t event, Json& parsed) {
        if (!problem.empty()) return false;
        switch (event) {
            case Json::parse_event_t::object_start:
            case Json::parse_event_t::array_start:
                if (depth >= limits.max_depth)
                    problem = "nested deeper than " + std::to_string(limits.max_depth) + " levels";
                if (event == Json::parse_event_t::object_start) members.emplace_back();
                break;
            case Json::parse_event_t::object_end:
                members.pop_back();
                break;
            case Json::parse_event_t::key:
                if (!members.empty() && !members.back().insert(parsed.get<std::string>()).second)
                    problem = "the member \"" + parsed.get<std::string>() + "\" appears twice in one object";
                break;
            default:
                break;
        }
        return problem.empty();
    };
    Json doc;
    try {
        doc = Json::parse(text.begin(), text.end(), check);
    } catch (const Json::exception& e) {
        // parse_error, and out_of_range for a number past double's range (1E97641049: found by fuzzing).
        if (!problem.empty()) throw JsonError(problem);  // what stopped it came first
        throw JsonError("not JSON: " + std::string(e.what()));
    }
    if (!problem.empty()) throw JsonError(problem);
    // A callback that refuses a value leaves a discarded document behind.
    if (doc.is_discarded()) throw JsonError("not JSON");
    return doc;
}

}  // namespace kcs::spec
