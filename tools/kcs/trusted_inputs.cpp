#include "trusted_inputs.hpp"

#include "catalog_location.hpp"

namespace kcs::cli {

TrustedInputs load_trusted_inputs(const std::vector<std::string>& pubkey_files,
                                  const std::optional<std::filesystem::path>& adapter_library,
                                  const std::optional<std::filesystem::path>& claims_file) {
    TrustedInputs trusted;
    for (const auto& file : pubkey_files) trusted.inputs.keys.push_back(reports::read_public_key(file));
    // The current catalogs and the released ones: a report names the one it
    // was judged under (by digest), and is judged again under it.
    for (const auto& carried : every_catalog()) {
        auto loaded = spec::load_catalog(carried.dir);
        if (!loaded.ok()) continue;  // kcs spec lint reports it; it cannot vouch for a report
        trusted.catalogs.push_back(std::make_unique<spec::Catalog>(std::move(loaded.catalog)));
        trusted.inputs.catalogs.push_back(trusted.catalogs.back().get());
    }
    trusted.inputs.adapter_library = adapter_library;
    trusted.inputs.claims_file = claims_file;
    return trusted;
}

}  // namespace kcs::cli
