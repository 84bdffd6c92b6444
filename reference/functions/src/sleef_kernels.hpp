// SLEEF's vectorised double functions over arrays, one translation unit per
// instruction set (sleef_avx512f.cpp, sleef_avx2.cpp), each compiled with its
// -m flags because sleef.h declares a set's functions only under them. Call
// one only where the CPU has its set (vector_evaluation.cpp checks). The
// units include nothing but sleef.h, so that no inline function compiled for
// a wider set can be shared with the rest of the program.
#pragma once

#include <cstddef>

namespace kcs::ref::unary_detail {

enum class SleefKernel { exp, log, tanh, erf, erfc };

// out[i] = k(in[i]) for the whole vectors of n; returns how many were done
// (n rounded down to the vector width); the caller does the rest.
std::size_t sleef_avx512f(SleefKernel k, const double* in, double* out, std::size_t n);
std::size_t sleef_avx2(SleefKernel k, const double* in, double* out, std::size_t n);

}  // namespace kcs::ref::unary_detail
