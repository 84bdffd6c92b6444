// The tolerances a case's evidence cites: every {class, model, params}
// object in it (the probes record their catalog entry's, SPEC section 3).
// kcs verify checks each against the catalog; the renderers read from the
// class's own which way its figure holds (spec::figure_holds's direction),
// so that no report code keeps a notion of its own.
#pragma once

#include <string>
#include <vector>

#include "kcs/spec/catalog.hpp"

namespace kcs::reports::detail {

void cited_tolerances(const spec::Json& node, std::vector<const spec::Json*>& out);

// Whether the figure of a case of `class_id` holds at least its bound (by
// the tolerance model its evidence cites for that class); false, at most,
// where it cites none or a model the build does not know.
bool figure_holds_at_least(const spec::Json& evidence, const std::string& class_id);

}  // namespace kcs::reports::detail
