// SPDX-License-Identifier: Apache-2.0
// A program of two .cu files compiled whole (two modules): double atomics, a local array indexed
// at run time, __half arithmetic on managed memory; the other file's kernel reads __constant__ data.
#include <cstdio>
#include <cuda_fp16.h>
__global__ void k_a(double *sum, const double *x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(sum, x[i]);
}
__global__ void k_local(float *out, const int *idx, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float tmp[32];
    for (int j = 0; j < 32; j++) tmp[j] = i * 0.5f + j;
    if (i < n) out[i] = tmp[idx[i] & 31];
}
__global__ void k_half(__half *h, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) h[i] = __hadd(h[i], __float2half(1.5f));
}
void run_b(int *ok);
int main() {
    const int n = 1000;
    double *x, *s; float *o; int *idx; __half *h;
    cudaMallocManaged(&x, n * sizeof(double)); cudaMallocManaged(&s, sizeof(double));
    cudaMallocManaged(&o, n * sizeof(float)); cudaMallocManaged(&idx, n * sizeof(int)); cudaMallocManaged(&h, n * sizeof(__half));
    double ref = 0;
    for (int i = 0; i < n; i++) { x[i] = i * 0.25; ref += x[i]; idx[i] = i * 7; h[i] = __float2half((float)(i % 100)); }
    *s = 0;
    k_a<<<(n + 127) / 128, 128>>>(s, x, n);
    k_local<<<(n + 127) / 128, 128>>>(o, idx, n);
    k_half<<<(n + 127) / 128, 128>>>(h, n);
    cudaDeviceSynchronize();
    int bad = *s != ref;
    for (int i = 0; i < n; i++) { bad += o[i] != i * 0.5f + ((i * 7) & 31); bad += __half2float(h[i]) != (i % 100) + 1.5f; }
    int okb = 0; run_b(&okb);
    printf("sum %f ref %f bad %d b %d\n", *s, ref, bad, okb);
    if (bad || !okb) { printf("FAILED multi\n"); return 1; }
    printf("PASSED multi\n"); return 0;
}
