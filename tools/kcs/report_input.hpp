// A report as a command reads it without checking its signature (that is
// kcs verify's question): a bare Statement (report.json), or the payload
// of a DSSE envelope (report.dsse.json). Used by kcs render and kcs diff.
#pragma once

#include <string>

#include "kcs/spec/catalog.hpp"

namespace kcs::cli {

// A file that holds no readable report: the message names it and the problem.
struct ReportInputError {
    std::string message;
};

struct UnverifiedReport {
    spec::Json statement;
    bool from_envelope = false;  // the payload of an envelope whose signature was not checked
};

// Throws ReportInputError for an unreadable file, a file that is not JSON,
// an envelope that is malformed or carries something other than an in-toto
// Statement.
UnverifiedReport read_unverified_report(const std::string& file);

}  // namespace kcs::cli
