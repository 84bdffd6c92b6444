// Where a run ran, for the report: the machine and the settings that change
// what a device computes.
#pragma once

#include <string>
#include <vector>

#include "kcs/spec/catalog.hpp"

namespace kcs::reports {

// {"os": {...uname}, "cpu": {"model", "logical_cpus"}, "compiler": "...",
//  "variables": {NAME: VALUE}} where the variables are those that steer
// kcs, the device stacks and their runtimes (kcs_relevant_variable).
spec::Json capture_environment();

// KCS_*, POCL_*, MESA_*, LP_*, GALLIUM_*, VK_*, OCL_ICD_*, CUDA_*, HIP_*,
// ROCR_*, OMP_*: the prefixes of settings that choose or tune a device.
bool kcs_relevant_variable(const std::string& name);

// The running process's arguments (from /proc/self/cmdline), argv[0] first.
std::vector<std::string> current_command_line();

// The running executable (from /proc/self/exe).
std::string current_executable();

}  // namespace kcs::reports
