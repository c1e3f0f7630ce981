// SPDX-License-Identifier: Apache-2.0
// simpleZeroCopy-style: mapped pinned host memory (cudaHostAlloc with cudaHostAllocMapped,
// cudaHostGetDevicePointer) read and written directly by a kernel; cudaSetDeviceFlags first.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define checkCudaErrors(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1); } } while (0)

__global__ void vectorAddGPU(float *a, float *b, float *c, int N) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N) c[idx] = a[idx] + b[idx];
}

int main() {
    cudaDeviceProp deviceProp;
    checkCudaErrors(cudaGetDeviceProperties(&deviceProp, 0));
    if (!deviceProp.canMapHostMemory) {
        printf("Device cannot map host memory!\nFAILED\n");
        return 1;
    }
    checkCudaErrors(cudaSetDeviceFlags(cudaDeviceMapHost));
    int nelem = 10000;
    size_t bytes = nelem * sizeof(float);
    float *a, *b, *c, *d_a, *d_b, *d_c;
    unsigned int flags = cudaHostAllocMapped;
    checkCudaErrors(cudaHostAlloc((void **)&a, bytes, flags));
    checkCudaErrors(cudaHostAlloc((void **)&b, bytes, flags));
    checkCudaErrors(cudaHostAlloc((void **)&c, bytes, flags));
    for (int n = 0; n < nelem; n++) {
        a[n] = rand() / (float)RAND_MAX;
        b[n] = rand() / (float)RAND_MAX;
    }
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_a, (void *)a, 0));
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_b, (void *)b, 0));
    checkCudaErrors(cudaHostGetDevicePointer((void **)&d_c, (void *)c, 0));
    dim3 block(256);
    dim3 grid((unsigned int)ceil(nelem / (float)block.x));
    vectorAddGPU<<<grid, block>>>(d_a, d_b, d_c, nelem);
    checkCudaErrors(cudaDeviceSynchronize());
    checkCudaErrors(cudaGetLastError());
    float errorNorm = 0.f, refNorm = 0.f;
    for (int n = 0; n < nelem; n++) {
        float ref = a[n] + b[n];
        float diff = c[n] - ref;
        errorNorm += diff * diff;
        refNorm += ref * ref;
    }
    errorNorm = (float)sqrt((double)errorNorm);
    refNorm = (float)sqrt((double)refNorm);
    // cudaMemset reaches mapped memory too.
    checkCudaErrors(cudaMemset(c, 0, bytes));
    for (int n = 0; n < nelem; n++) errorNorm += c[n] != 0.0f;
    unsigned int got = 0;
    checkCudaErrors(cudaHostGetFlags(&got, a));
    checkCudaErrors(cudaFreeHost(a));
    checkCudaErrors(cudaFreeHost(b));
    checkCudaErrors(cudaFreeHost(c));
    if (!(errorNorm / refNorm < 1.e-6f) || !(got & cudaHostAllocMapped)) {
        printf("FAILED zero_copy (error %g, flags %u)\n", errorNorm / refNorm, got);
        return 1;
    }
    printf("PASSED zero_copy\n");
    return 0;
}
