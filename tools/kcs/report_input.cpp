#include "report_input.hpp"

#include "kcs/reports/dsse.hpp"
#include "kcs/reports/report_file.hpp"
#include "kcs/spec/strict_json.hpp"

namespace kcs::cli {

namespace {

// The Statement inside an envelope, its signature unchecked.
spec::Json envelope_payload(const std::string& file, const std::string& text) {
    reports::Envelope envelope;
    try {
        envelope = reports::parse_envelope(text);
    } catch (const reports::EnvelopeError& e) {
        throw ReportInputError{file + ": not a DSSE envelope: " + e.what()};
    }
    if (envelope.payload_type != reports::kInTotoPayloadType)
        throw ReportInputError{file + ": not a KCS report: the envelope's payloadType is \"" + envelope.payload_type +
                               "\", not " + std::string(reports::kInTotoPayloadType)};
    try {
        return spec::parse_json_strict(envelope.payload);
    } catch (const spec::JsonError& e) {
        throw ReportInputError{file + ": the envelope's payload: " + e.what()};
    }
}

}  // namespace

UnverifiedReport read_unverified_report(const std::string& file) {
    const std::string text = reports::read_whole_file<ReportInputError>(file);
    spec::Json doc;
    try {
        doc = spec::parse_json_strict(text);
    } catch (const spec::JsonError& e) {
        throw ReportInputError{file + ": " + e.what()};
    }
    if (reports::is_envelope(doc)) return {envelope_payload(file, text), true};
    return {std::move(doc), false};
}

}  // namespace kcs::cli
