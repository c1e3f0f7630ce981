// SPDX-License-Identifier: Apache-2.0
// `stacksim cuda`: runs a native CUDA program on the simulated GPU through stacksim's libcudart.
#pragma once
#include <string>
#include <vector>

namespace stacksim::top {

/// What a program file is, for `stacksim cuda`: the CUDA runtime it loads.
struct CudaProgramCheck {
    bool ok = false;
    std::string problem;  ///< one line when not ok
};

/// Checks that `path` is an ELF program that loads libcudart.so.13 or .so.12 (a CUDA program
/// built with nvcc -cudart shared).
CudaProgramCheck check_cuda_program(const std::string& path);

/// `stacksim cuda [CONFIG] [--set K=V]... [--out DIR [--force]] [--timeline F] [--quiet] -- PROGRAM
/// ARGS...` (args[0] is "cuda"). Returns the program's exit status (128 + N when signal N ended
/// it), or 2 for bad use.
int cuda_command(const std::vector<std::string>& args);

}  // namespace stacksim::top
