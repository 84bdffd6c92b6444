# attention probes: target_sources(kcs_suites PRIVATE ...) and nothing else
# C-PRC-01, C-PRC-02, C-PRC-03, C-PRC-04, C-CMP-01, C-CMP-02, C-EXC-01 and
# C-ORD-01 for attention, on the problems of attention_problems.hpp.
target_sources(kcs_suites PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/classes/attention_problems.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/attention_accumulator.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/attention_stability.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/attention_exp_accuracy.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/attention_path_dependence.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/attention_special_values.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/attention_compute_precision.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/attention_subnormals.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/attention_conversion_rounding.cpp
)
