# ordering probes: target_sources(kcs_suites PRIVATE ...) and nothing else
# C-ORD-02, C-ORD-03 and C-EXC-02 (memory domain) for matmul, reduce_sum,
# reduce_max and softmax; their tolerance models; the row problems they share.
target_sources(kcs_suites PRIVATE
  classes/row_problems.cpp
  classes/ordering_results.cpp
  classes/run_to_run_determinism.cpp
  classes/determinism_verdict.cpp
  classes/batch_invariance.cpp
  classes/memory_domain.cpp
  classes/gather_policy.cpp
  classes/gather_problems.cpp
  tolerance/distinct_outputs.cpp
  tolerance/bitwise_equal.cpp
  tolerance/memory_domain.cpp
)
