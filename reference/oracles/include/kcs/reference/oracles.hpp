// Every v1 operator's oracle: exact or f64 values, independent of any
// adapter, with the magnitude terms the catalog's tolerance models need.
// Each header documents its oracle's error bound.
#pragma once

#include "kcs/reference/attention_oracle.hpp"
#include "kcs/reference/cast_oracle.hpp"
#include "kcs/reference/elementwise_oracle.hpp"
#include "kcs/reference/gather_oracle.hpp"
#include "kcs/reference/layernorm_oracle.hpp"
#include "kcs/reference/matmul_oracle.hpp"
#include "kcs/reference/reduce_max_oracle.hpp"
#include "kcs/reference/reduce_sum_oracle.hpp"
#include "kcs/reference/rmsnorm_oracle.hpp"
#include "kcs/reference/softmax_oracle.hpp"
#include "kcs/reference/unary_oracle.hpp"
