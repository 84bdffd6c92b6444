// The content checks of verify.hpp, one function per check; each appends
// what failed (and what passed) to the Verification. Private to reports/.
#pragma once

#include <string>
#include <utility>

#include "kcs/reports/verify.hpp"

namespace kcs::reports::detail {

// The failures of one check ("verdicts", "plan"): the first ten as given,
// then one line saying there are more.
class CappedFailures {
public:
    CappedFailures(Verification& v, std::string kind) : v_(v), kind_(std::move(kind)) {}
    void add(const std::string& what) {
        if (++count_ <= kShown) v_.failures.push_back(what);
        else if (count_ == kShown + 1) v_.failures.push_back(kind_ + ": ... and more (only the first are listed)");
    }
    bool any() const { return count_ > 0; }

private:
    static constexpr std::size_t kShown = 10;
    Verification& v_;
    std::string kind_;
    std::size_t count_ = 0;
};

// _type and predicateType.
void check_statement_types(const Json& statement, Verification& v);
// The report schema (valijson, draft 7 keywords; the schema uses no others).
void check_schema(const Json& statement, Verification& v);
// The catalog digest is one of the carried catalogs; sets v.catalog.
void check_catalog(const Json& statement, const VerifyInputs& inputs, Verification& v);
// Subject digests against the local files given.
void check_subjects(const Json& statement, const VerifyInputs& inputs, Verification& v);
// Every case verdict against its evidence and the bounds the catalog's
// tolerance models give. Needs v.catalog.
void rejudge(const Json& statement, Verification& v);
// The plan made again from the catalog and the report's choices, each
// instance's record and verdict against it, the summary and certificate
// made again from the verdicts (the signer from the key that verified).
// Needs v.catalog and the signature checked.
void replan(const Json& statement, Verification& v);

}  // namespace kcs::reports::detail
