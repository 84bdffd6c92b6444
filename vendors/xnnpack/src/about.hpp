// What info() says of XNNPACK and of the CPU beyond one instance's
// settings: what cpuinfo detects (XNNPACK chooses its micro-kernels from
// cpuinfo's answers when it initializes, and exposes no API that names
// them) and which operators XNNPACK creates here. Its version, as far as
// it can be told (it has no version API), is device_common's
// debian_package.hpp's.
#pragma once

#include <string>

namespace kcs::xnnpack {

// The ISA features XNNPACK's initialization branches on, as cpuinfo
// reports them ("avx2 fma3 f16c; lacks avx512f ..."), and core 0's
// microarchitecture.
std::string detected_cpu();

// XNNPACK's answer (its xnn_status) to creating each operator the adapter
// maps to, on one channel: one line per operator.
std::string created_operators();

}  // namespace kcs::xnnpack
