# norm probes: target_sources(kcs_suites PRIVATE ...) and nothing else
# C-PRC-02, C-PRC-04, C-CMP-02, C-CMP-03 and C-EXC-01 for layernorm and
# rmsnorm (C-PRC-01 and C-ORD-01 are the precision probes', C-ORD-02,
# C-ORD-03 and C-EXC-02 the ordering probes'), and C-ORD-02 for gather.
target_sources(kcs_suites PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/classes/norm_cancellation.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/norm_contraction.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/norm_special_values.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/norm_subnormals.cpp
  ${CMAKE_CURRENT_LIST_DIR}/classes/gather_determinism.cpp
)
