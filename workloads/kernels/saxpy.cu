// SPDX-License-Identifier: Apache-2.0
// saxpy: y[i] = a * x[i] + y[i] over n floats (nvcc contracts this to one fma.rn.f32).
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3 -o saxpy.ptx saxpy.cu`
// (see regen_ptx.sh). Plain CUDA C only: no calls, no local memory, no warp intrinsics.

extern "C" __global__ void saxpy(float a, const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
