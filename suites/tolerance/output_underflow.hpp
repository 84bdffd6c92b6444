// How the rounding of an element to the output dtype errs below the
// output's normal range, for the models whose element bound carries an
// output term u(out) |y*| (dot_bound, order_bound). u(out) bounds the
// rounding error relative to |y*| only in the normal range (SPEC.md section
// 1, "Unit roundoff"); below it gradual underflow errs by at most half the
// subnormal spacing, u(out) tiny(out), tiny the smallest normal. Under the
// claim subnormals: flush (SPEC.md section 8) a result that falls below
// tiny(out) may be stored as a zero, which moves it by less than tiny(out):
// every class then accepts that zero, and C-CMP-02 alone judges whether
// the flushing is consistent.
#pragma once

#include "kcs/harness/claims.hpp"
#include "kcs/reference/formats.hpp"

namespace kcs::suites::tolerance {

struct OutputUnderflow {
    double tiny = 0;     // the output dtype's smallest normal
    bool flush = false;  // subnormals: flush is claimed

    static OutputUnderflow of(ref::Format out, const harness::Claims& claims);

    // The output term of one element's bound, the rest of which is `inner`
    // (the accumulator side): u_out max(|y*|, tiny), and tiny more under
    // flush where the kernel's value before the store, within `inner` of
    // y*, can lie below tiny.
    double term(double u_out, double exact, double inner) const;
};

}  // namespace kcs::suites::tolerance
