# exactness probes: target_sources(kcs_suites PRIVATE ...) and nothing else
# C-PRC-04, C-CMP-01, C-CMP-02 and C-EXC-01 for matmul, reduce_sum, reduce_max
# and softmax, C-CMP-02 and C-EXC-01 for gather, with the tolerance models
# they apply.
target_sources(kcs_suites PRIVATE
  classes/exactness_common.cpp
  classes/conversion_rounding.cpp
  classes/softmax_exp_accuracy.cpp
  classes/subnormal_handling.cpp
  classes/special_values_judge.cpp
  classes/special_values.cpp
  classes/gather_copy.cpp
  tolerance/accumulator_side_bound.cpp
  tolerance/bitwise_rne.cpp
  tolerance/ieee_special.cpp
  tolerance/subnormal_policy.cpp
  tolerance/ulp_table.cpp
)
