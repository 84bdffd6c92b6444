// Reports to render: the real plan of matmul and softmax (core, smoke,
// reference-cpu's claims) with made-up results whose evidence has the
// shapes the probes write, so every renderer and picture has work to do.
#pragma once

#include <string>

#include "kcs/reports/report.hpp"

namespace kcs::reports::testing {

// A message no renderer may pass through unescaped.
inline constexpr const char* kHostile =
    "<script>alert(1)</script> & \"quoted\" 'single' \x01 <img src=x onerror=alert(2)>";
// A signature that needs CSV quoting: a comma, quotes and a newline.
inline constexpr const char* kAwkwardSignature = "narrow,\"accumulator\"\nsecond line";

struct RenderChoice {
    bool finished = true;  // false: interrupted, the last three instances missing
    bool hostile = false;  // the failing case's message and the adapter's name are kHostile
    bool failures = true;  // false: no instance but the missing ones does anything but PASS
};

// Every applicable instance PASSes in two cases, except (with failures):
//   C-PRC-01, first matmul instance: FAIL in seed 2 (sweep to K = 4096, inf at 4096)
//   C-ORD-02, first matmul instance: FAIL, two distinct hashes
//   C-EXC-01, first matmul instance: CRASH;   C-ORD-03, first softmax instance: ERROR
//   C-PRC-04, first softmax instance: TIMEOUT; C-PRC-03, first matmul instance: UNSUPPORTED
// C-PRC-01 cases carry sweeps, C-CMP-01 cases binades and sub-domains,
// C-ORD-02 cases hash groups.
Json render_statement(const RenderChoice& choice = {});

}  // namespace kcs::reports::testing
