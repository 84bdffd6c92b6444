# Every dependency is a Debian 12 package; tools/bootstrap installs them.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 2.1 REQUIRED)
find_package(GTest REQUIRED)
find_package(benchmark REQUIRED)
pkg_check_modules(SODIUM REQUIRED IMPORTED_TARGET libsodium>=1.0.18)  # Ed25519 signatures
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)                  # SHA-256

# Optional device stacks: ON by default where the packages are present.
find_package(OpenCL QUIET)
option(KCS_WITH_OPENCL "Build the OpenCL adapter (ocl-icd loader and headers)" ${OpenCL_FOUND})
if(KCS_WITH_OPENCL AND NOT OpenCL_FOUND)
  message(FATAL_ERROR "KCS_WITH_OPENCL is ON but OpenCL was not found: install ocl-icd-opencl-dev and opencl-headers, or pass -DKCS_WITH_OPENCL=OFF")
endif()

find_package(Vulkan QUIET COMPONENTS glslc)
set(_kcs_vulkan_found OFF)
if(Vulkan_FOUND AND Vulkan_glslc_FOUND)
  set(_kcs_vulkan_found ON)
endif()
option(KCS_WITH_VULKAN "Build the Vulkan adapter (Vulkan loader and glslc)" ${_kcs_vulkan_found})
if(KCS_WITH_VULKAN AND NOT _kcs_vulkan_found)
  message(FATAL_ERROR "KCS_WITH_VULKAN is ON but the Vulkan loader or glslc was not found: install libvulkan-dev and glslc, or pass -DKCS_WITH_VULKAN=OFF")
endif()

# Optional CPU BLAS libraries, each certified by its own adapter: ON by
# default where the packages are present. Each adapter links its library by
# its own name (libopenblas.so.0, libblis.so.4), never the libblas.so.3
# alternative that either provides, so that installing both cannot swap one
# for the other.
# kcs_library_adapter_option(VAR LIBRARY WHERE FOUND_VARS...): the option
# VAR that builds the adapter over LIBRARY, ON where every one of FOUND_VARS
# (what the searches for it set) is; ON without the library is an error,
# OFF a status line, each saying WHERE it is looked for and which package
# brings it.
function(kcs_library_adapter_option var library where)
  set(found ON)
  foreach(required ${ARGN})
    if(NOT ${required})
      set(found OFF)
    endif()
  endforeach()
  option(${var} "Build the ${library} adapter (${where})" ${found})
  if(${var} AND NOT found)
    message(FATAL_ERROR "${var} is ON but ${library} was not found (${where}): install it, or pass -D${var}=OFF")
  elseif(NOT found)
    message(STATUS "${library} not found (${where}): its adapter is not built")
  endif()
endfunction()

pkg_check_modules(OPENBLAS QUIET IMPORTED_TARGET openblas)
kcs_library_adapter_option(KCS_WITH_OPENBLAS OpenBLAS "pkg-config openblas; libopenblas-dev" OPENBLAS_FOUND)

find_path(BLIS_INCLUDE_DIR blis.h PATH_SUFFIXES blis blis-openmp blis-pthread blis-serial)
find_library(BLIS_LIBRARY NAMES blis)
kcs_library_adapter_option(KCS_WITH_BLIS BLIS "blis.h, libblis; libblis-dev" BLIS_INCLUDE_DIR BLIS_LIBRARY)

# oneDNN, certified by its own adapter: ON by default where its header and
# library are present. Found by header and library rather than its CMake
# package, whose dnnl-config.cmake requires the OpenCL of its GPU runtime.
find_path(DNNL_INCLUDE_DIR oneapi/dnnl/dnnl.hpp)
find_library(DNNL_LIBRARY NAMES dnnl)
kcs_library_adapter_option(KCS_WITH_ONEDNN oneDNN "oneapi/dnnl/dnnl.hpp, libdnnl; libdnnl-dev" DNNL_INCLUDE_DIR
                           DNNL_LIBRARY)

# CLBlast, certified by its own adapter on the devices the OpenCL adapter
# selects: ON by default where pkg-config finds it and the OpenCL adapter is
# built (it shares that adapter's device selection and buffers).
pkg_check_modules(CLBLAST QUIET IMPORTED_TARGET clblast)
kcs_library_adapter_option(KCS_WITH_CLBLAST CLBlast "pkg-config clblast, with KCS_WITH_OPENCL; libclblast-dev"
                           CLBLAST_FOUND KCS_WITH_OPENCL)

# XNNPACK, certified by its own adapter through its operator API: ON by
# default where its header and library are present, with the two libraries
# its API is made of (pthreadpool: xnnpack.h includes pthreadpool.h and
# threads= makes a pool; cpuinfo: what XNNPACK detects of the CPU, which
# the adapter's info() reports). Debian ships no CMake package or
# pkg-config file for any of them.
find_path(XNNPACK_INCLUDE_DIR xnnpack.h)
find_library(XNNPACK_LIBRARY NAMES XNNPACK)
find_path(PTHREADPOOL_INCLUDE_DIR pthreadpool.h)
find_library(PTHREADPOOL_LIBRARY NAMES pthreadpool)
find_path(CPUINFO_INCLUDE_DIR cpuinfo.h)
find_library(CPUINFO_LIBRARY NAMES cpuinfo)
kcs_library_adapter_option(KCS_WITH_XNNPACK XNNPACK
  "xnnpack.h, libXNNPACK, pthreadpool.h, libpthreadpool, cpuinfo.h, libcpuinfo; libxnnpack-dev libpthreadpool-dev libcpuinfo-dev"
  XNNPACK_INCLUDE_DIR XNNPACK_LIBRARY PTHREADPOOL_INCLUDE_DIR PTHREADPOOL_LIBRARY CPUINFO_INCLUDE_DIR CPUINFO_LIBRARY)

# PyTorch's ATen, certified by the torch adapter through libtorch's C++
# API: ON by default where its headers and libraries are present. Found by
# header and library rather than Torch's CMake package, which looks for
# CUDA and Python and sets global compile flags.
find_path(TORCH_INCLUDE_DIR ATen/ATen.h)
find_library(TORCH_CPU_LIBRARY NAMES torch_cpu)
find_library(C10_LIBRARY NAMES c10)
kcs_library_adapter_option(KCS_WITH_TORCH "PyTorch (libtorch)" "ATen/ATen.h, libtorch_cpu, libc10; libtorch-dev"
                           TORCH_INCLUDE_DIR TORCH_CPU_LIBRARY C10_LIBRARY)

# The CUDA toolkit (nvcc is not needed: the adapters over CUDA are host
# code over the runtime and the libraries, and the CUDA adapter's kernels
# are compiled by NVRTC when they run): the CUDA and cuBLAS adapters, ON by
# default where the toolkit's runtime, NVRTC and cuBLAS are found; without
# a GPU they build and their tests that need a device are SKIPPED.
find_package(CUDAToolkit QUIET)
set(_kcs_cuda_found OFF)
set(_kcs_cublas_found OFF)
if(CUDAToolkit_FOUND AND TARGET CUDA::cudart AND TARGET CUDA::nvrtc)
  set(_kcs_cuda_found ON)
endif()
if(CUDAToolkit_FOUND AND TARGET CUDA::cublas AND TARGET CUDA::cublasLt AND TARGET CUDA::cudart)
  set(_kcs_cublas_found ON)
endif()
kcs_library_adapter_option(KCS_WITH_CUDA "CUDA (NVRTC)" "the CUDA toolkit's nvrtc.h, libnvrtc, libcudart and cuda_fp16.h (find_package(CUDAToolkit); CUDA_HOME or nvcc on PATH)"
                           _kcs_cuda_found)
kcs_library_adapter_option(KCS_WITH_CUBLAS cuBLAS "the CUDA toolkit's cublas_v2.h, cublasLt.h, libcublas, libcublasLt and libcudart (find_package(CUDAToolkit); CUDA_HOME or nvcc on PATH)"
                           _kcs_cublas_found)
