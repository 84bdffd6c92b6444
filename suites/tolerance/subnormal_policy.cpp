#include "subnormal_policy.hpp"

#include <cmath>
#include <stdexcept>

namespace kcs::suites {

std::string_view to_string(SubnormalSide side) {
    switch (side) {
        case SubnormalSide::input:
            return "input-side";
        case SubnormalSide::output:
            return "output-side";
        case SubnormalSide::both:
            return "both sides";
    }
    return "?";
}

std::string_view to_string(SubnormalOutcome outcome) {
    switch (outcome) {
        case SubnormalOutcome::pres:
            return "pres";
        case SubnormalOutcome::flush:
            return "flush";
        case SubnormalOutcome::neither:
            return "neither";
    }
    return "?";
}

bool distinguishing(double y_pres, double y_flush) { return !(y_pres == y_flush); }

namespace {

bool is_zero(ref::Format out, std::uint32_t bits) { return ref::classify(out, bits) == ref::FloatClass::zero; }

// y is the value v: bit for bit, except that a zero v takes a zero of either sign.
bool is_value(ref::Format out, std::uint32_t got_bits, double v) {
    if (v == 0) return is_zero(out, got_bits);
    return got_bits == ref::encode(out, v);
}

}  // namespace

SubnormalOutcome classify_exact(ref::Format out, std::uint32_t got_bits, double y_pres, double y_flush) {
    if (is_value(out, got_bits, y_pres)) return SubnormalOutcome::pres;
    if (is_value(out, got_bits, y_flush)) return SubnormalOutcome::flush;
    return SubnormalOutcome::neither;
}

SubnormalOutcome classify_kind(ref::Format out, std::uint32_t got_bits, double y_pres) {
    const auto c = ref::classify(out, got_bits);
    if (c == ref::FloatClass::zero) return SubnormalOutcome::flush;
    const bool finite = c == ref::FloatClass::subnormal || c == ref::FloatClass::normal;
    if (finite && ref::sign_bit(out, got_bits) == std::signbit(y_pres)) return SubnormalOutcome::pres;
    return SubnormalOutcome::neither;
}

SubnormalOutcome classify_kind(ref::Format out, std::uint32_t got_bits, double y_pres, double y_flush) {
    if (y_flush == 0) return classify_kind(out, got_bits, y_pres);
    if (is_value(out, got_bits, y_flush)) return SubnormalOutcome::flush;
    // A zero is not y_flush here: neither.
    const auto outcome = classify_kind(out, got_bits, y_pres);
    return outcome == SubnormalOutcome::pres ? outcome : SubnormalOutcome::neither;
}

std::size_t SubnormalCounts::probes(SubnormalSide side) const {
    const auto& row = n[static_cast<std::size_t>(side)];
    return row[0] + row[1] + row[2];
}

SubnormalFinding judge_subnormal_policy(const SubnormalCounts& c, std::string_view claim) {
    using O = SubnormalOutcome;
    using S = SubnormalSide;
    const auto neither = [&]() -> SubnormalFinding {
        for (const S side : {S::output, S::input, S::both})
            if (c.at(side, O::neither) > 0) return {"unmatched", side, O::neither};
        return {};
    };
    if (claim == "flush") {
        for (const S side : {S::output, S::input, S::both})
            if (c.at(side, O::pres) > 0) return {"mixed-flush", side, O::pres};
        return neither();
    }
    if (claim != "preserve")
        throw std::invalid_argument("subnormals claim '" + std::string(claim) + "' is not preserve or flush");
    if (c.at(S::output, O::flush) > 0) return {"ftz", S::output, O::flush};
    if (c.at(S::input, O::flush) > 0) return {"daz", S::input, O::flush};
    if (c.at(S::both, O::flush) > 0) return {c.probes(S::output) > 0 ? "daz" : "ftz", S::both, O::flush};
    return neither();
}

}  // namespace kcs::suites
