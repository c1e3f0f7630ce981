// SPDX-License-Identifier: Apache-2.0
// reduction: sum of n uint32 values; shared-memory tree per CTA, one atomicAdd per CTA.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3 -o reduction.ptx reduction.cu`
// (see regen_ptx.sh). Plain CUDA C only: no calls, no local memory, no warp intrinsics.

// Launch with blockDim.x == REDUCTION_BLOCK (a power of two); each CTA sums 2*blockDim.x inputs.
#define REDUCTION_BLOCK 256

extern "C" __global__ void reduction(const unsigned int* in, unsigned int* out, int n)
{
    __shared__ unsigned int partial[REDUCTION_BLOCK];
    unsigned int tid = threadIdx.x;
    unsigned int i = blockIdx.x * (blockDim.x * 2) + tid;
    unsigned int v = 0;
    if (i < (unsigned int)n) v = in[i];
    if (i + blockDim.x < (unsigned int)n) v += in[i + blockDim.x];
    partial[tid] = v;
    __syncthreads();
    for (unsigned int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) partial[tid] += partial[tid + stride];
        __syncthreads();
    }
    if (tid == 0) atomicAdd(out, partial[0]);
}
