# The benchmark programs (build/bin/bench_*): Google Benchmark binaries that
# print figures for the notes and FINDINGS.md, never run by a test. They are
# outside the default build, so that tools/certify and tools/test compile
# only what they run; `cmake --build build --target benchmarks` builds them.
add_custom_target(benchmarks)

# kcs_add_benchmark(NAME SOURCES...): the benchmark program NAME, built by
# the target benchmarks.
function(kcs_add_benchmark name)
  add_executable(${name} EXCLUDE_FROM_ALL ${ARGN})
  add_dependencies(benchmarks ${name})
endfunction()
