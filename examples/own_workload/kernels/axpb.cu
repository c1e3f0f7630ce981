// SPDX-License-Identifier: Apache-2.0
// axpb: y[i] = a * x[i] + b over n floats, the kernel of examples/own_workload.
// PTX: `nvcc -ptx -arch=sm_75 -O3 -o axpb.ptx axpb.cu` (nvcc 13.0); stacksim runs the PTX.
extern "C" __global__ void axpb(float a, float b, const float* x, float* y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + b;
}
