// SPDX-License-Identifier: Apache-2.0
// What the CUDA test programs share: a check that prints the failing call and exits 1.
#pragma once
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                   \
    do {                                                                                              \
        cudaError_t e_ = (call);                                                                      \
        if (e_ != cudaSuccess) {                                                                      \
            std::printf("FAILED: %s: %s (%s)\n", #call, cudaGetErrorString(e_), cudaGetErrorName(e_)); \
            std::exit(1);                                                                             \
        }                                                                                             \
    } while (0)

#define EXPECT(cond)                                             \
    do {                                                         \
        if (!(cond)) {                                           \
            std::printf("FAILED: %s (line %d)\n", #cond, __LINE__); \
            std::exit(1);                                        \
        }                                                        \
    } while (0)
