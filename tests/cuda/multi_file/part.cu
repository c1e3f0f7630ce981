// SPDX-License-Identifier: Apache-2.0
// The second file of multi_file: its own module with an initialised __constant__ table and clock64().
#include <cstdio>
__constant__ int c_tab[4] = {1, 2, 3, 4};
__global__ void k_b(int *o) { o[threadIdx.x] = c_tab[threadIdx.x % 4] * (int)(clock64() >= 0); }
void run_b(int *ok) {
    int *o, h[8];
    cudaMalloc(&o, sizeof h);
    k_b<<<1, 8>>>(o);
    cudaMemcpy(h, o, sizeof h, cudaMemcpyDeviceToHost);
    *ok = 1;
    for (int i = 0; i < 8; i++) *ok &= h[i] == i % 4 + 1;
    cudaFree(o);
}
