// Running the kcs executable as a user does, for the command-line tests:
// its exit code and what it printed on stdout and stderr.
#pragma once

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

namespace kcs::testing {

struct Outcome {
    int exit_code;
    std::string out, err;
};

inline std::string slurp(const std::string& path) {
    std::ifstream in(path);
    return std::string{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Runs `kcs ARGS` (KCS_BINARY, a compile definition of the test) in a shell.
inline Outcome run_kcs(const std::string& args) {
    const std::string base = ::testing::TempDir() + "/kcs-cli-" + std::to_string(::getpid());
    const std::string command = std::string(KCS_BINARY) + " " + args + " >" + base + ".out 2>" + base + ".err";
    const int status = std::system(command.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(base + ".out"), slurp(base + ".err")};
}

}  // namespace kcs::testing
