// What info() says of XNNPACK and of the CPU beyond one instance's
// settings: the version as far as it can be told (this XNNPACK has no
// version API), what cpuinfo detects (XNNPACK chooses its micro-kernels
// from cpuinfo's answers when it initializes, and exposes no API that
// names them), and which operators XNNPACK creates here.
#pragma once

#include <string>

namespace kcs::xnnpack {

// The dpkg package whose file list holds `file` (a shared object's real
// path): its version ("0.0~git20220216.ae108ef-2", "" where unknown) and a
// sentence naming the package, or saying why it is unknown.
struct Package {
    std::string version, text;
};
Package package_of(const std::string& file);

// The ISA features XNNPACK's initialization branches on, as cpuinfo
// reports them ("avx2 fma3 f16c; lacks avx512f ..."), and core 0's
// microarchitecture.
std::string detected_cpu();

// XNNPACK's answer (its xnn_status) to creating each operator the adapter
// maps to, on one channel: one line per operator.
std::string created_operators();

}  // namespace kcs::xnnpack
