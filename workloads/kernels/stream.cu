// SPDX-License-Identifier: Apache-2.0
// stream: a grid-stride copy b[i] = a[i] over float4 elements, to measure memory bandwidth.
// Generated PTX: nvcc 13.0 (V13.0.88), `nvcc -ptx -arch=sm_75 -O3 -o stream.ptx stream.cu`.
extern "C" __global__ void stream_copy(const float4* a, float4* b, int n)
{
    int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) b[i] = a[i];
}

extern "C" __global__ void stream_read(const float4* a, float* sum, int n)
{
    int stride = gridDim.x * blockDim.x;
    float s = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        float4 v = a[i];
        s += v.x + v.y + v.z + v.w;
    }
    sum[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
