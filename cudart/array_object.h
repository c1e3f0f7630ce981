// SPDX-License-Identifier: Apache-2.0
// CUDA arrays (cudaMallocArray) as stacksim keeps them: row-major device memory without padding,
// which textures read as pitched memory (cudart/api_array.cpp, cudart/api_texture.cpp).
#pragma once
#include <cstddef>
#include <cstdint>

#include "cudart/cuda_abi.h"

namespace stacksim::cudart {

struct ArrayObject {
    uint64_t base = 0;           ///< device address of element (0, 0)
    cudaChannelFormatDesc desc{};
    size_t width = 0;            ///< elements per row
    size_t height = 0;           ///< rows (0: a 1-D array)
    size_t elem_bytes = 0;
    size_t row_bytes() const { return width * elem_bytes; }
    size_t rows() const { return height ? height : 1; }
};

/// The array whose handle is `a`, or null (call with the runtime's lock held).
const ArrayObject* find_array(const void* a);

}  // namespace stacksim::cudart
