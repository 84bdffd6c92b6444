// What an adapter offers, asked before a run: supports() for one small
// problem of every (operator, function, configuration) of the catalog. No
// data moves and nothing is judged; the answers decide which claims a run
// needs (SPEC.md section 8).
#pragma once

#include <string>
#include <vector>

#include "kcs/harness/guarded_device.hpp"
#include "kcs/harness/plan.hpp"
#include "kcs/host/isolated_adapter.hpp"
#include "kcs/spec/catalog.hpp"

namespace kcs::suites {

// The default declaration of the support phase (harness::Probe::declare):
// one small invocation of the instance's operator, function and dtype
// configuration with its default attributes, as the probes build it, and
// no data.
std::vector<harness::Invocation> declare_instance_form(const harness::Instance& instance);

// The catalog operators whose every function and configuration the
// adapter declines (KCS_UNSUPPORTED), in catalog order. Any other answer
// (success, an error, a lost worker) counts as offered: a claim is waived
// only where the adapter says plainly that it computes nothing.
std::vector<std::string> declined_operators(const spec::Catalog& catalog, host::IsolatedAdapter& adapter);

}  // namespace kcs::suites
