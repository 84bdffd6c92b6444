// libFuzzer harness for verification: the input is tried as a DSSE
// envelope, then as a signed payload (signed here with a fixed key the
// verifier trusts, so that the content checks run past the signature:
// what a key-holder can feed kcs verify), against the carried catalog.
// Refusals are fine; a crash, a sanitizer report or an exception other
// than the ones verify documents is a finding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "kcs/reports/dsse.hpp"
#include "kcs/reports/keys.hpp"
#include "kcs/reports/verify.hpp"
#include "kcs/spec/catalog.hpp"

namespace {

struct Trusted {
    kcs::spec::LoadResult catalog = kcs::spec::load_catalog(KCS_CATALOG_DIR);
    kcs::reports::SecretKey key = kcs::reports::key_from_seed({}, "fuzz", false);
    kcs::reports::VerifyInputs inputs;
    Trusted() {
        inputs.keys.push_back(key.public_key);
        inputs.catalogs.push_back(&catalog.catalog);
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const Trusted trusted;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::size_t checks = 0;
    const auto verification = kcs::reports::verify_envelope_text(text, trusted.inputs);
    checks += verification.failures.size() + verification.passed.size();
    const std::string envelope =
        kcs::reports::sign_envelope(text, kcs::reports::kInTotoPayloadType, trusted.key);
    const auto signed_payload = kcs::reports::verify_envelope_text(envelope, trusted.inputs);
    checks += signed_payload.failures.size() + signed_payload.passed.size();
    static volatile std::size_t sink;
    sink = sink + checks;
    return 0;
}
