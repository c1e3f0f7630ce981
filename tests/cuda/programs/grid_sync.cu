// SPDX-License-Identifier: Apache-2.0
// Cooperative groups: a grid-stride reduction with this_grid().sync() between the phases,
// launched with cudaLaunchCooperativeKernel at the occupancy-derived grid size; checked on the
// host. Also a block-level tiled_partition reduction.
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

namespace cg = cooperative_groups;

#define checkCudaErrors(val)                                                                  \
    do {                                                                                      \
        cudaError_t e = (val);                                                                \
        if (e) {                                                                              \
            fprintf(stderr, "CUDA error %s (%s) at %s:%d\n", cudaGetErrorString(e), #val, __FILE__, __LINE__); \
            exit(EXIT_FAILURE);                                                               \
        }                                                                                     \
    } while (0)

__device__ int reduce_block(cg::thread_block block, int *smem, int v) {
    smem[block.thread_rank()] = v;
    block.sync();
    for (int s = block.size() / 2; s > 0; s >>= 1) {
        if (block.thread_rank() < s) smem[block.thread_rank()] += smem[block.thread_rank() + s];
        block.sync();
    }
    return smem[0];
}

__global__ void reduceSinglePassMultiBlockCG(const int *in, int *partial, int *out, int n) {
    extern __shared__ int smem[];
    cg::thread_block block = cg::this_thread_block();
    cg::grid_group grid = cg::this_grid();
    int sum = 0;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) sum += in[i];
    int b = reduce_block(block, smem, sum);
    if (block.thread_rank() == 0) partial[blockIdx.x] = b;
    grid.sync();
    if (blockIdx.x == 0) {
        int s = 0;
        for (int i = block.thread_rank(); i < gridDim.x; i += block.size()) s += partial[i];
        int t = reduce_block(block, smem, s);
        if (block.thread_rank() == 0) *out = t;
    }
}

__global__ void tileSum(const int *in, int *out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int o = tile.size() / 2; o > 0; o /= 2) v += tile.shfl_down(v, o);
    if (tile.thread_rank() == 0) atomicAdd(out, v);
}

int main() {
    int dev = 0, supports = 0;
    checkCudaErrors(cudaDeviceGetAttribute(&supports, cudaDevAttrCooperativeLaunch, dev));
    if (!supports) {
        printf("FAILED: device does not support cooperative launch\n");
        return 1;
    }
    cudaDeviceProp prop;
    checkCudaErrors(cudaGetDeviceProperties(&prop, dev));
    const int n = 20000;
    int *h = (int *)malloc(n * sizeof(int));
    long long ref = 0;
    for (int i = 0; i < n; i++) ref += (h[i] = (i * 7) % 13 - 3);
    int *d_in, *d_partial, *d_out;
    checkCudaErrors(cudaMalloc(&d_in, n * sizeof(int)));
    checkCudaErrors(cudaMemcpy(d_in, h, n * sizeof(int), cudaMemcpyHostToDevice));
    int threads = 128;
    size_t smem = threads * sizeof(int);
    int numBlocksPerSm = 0;
    checkCudaErrors(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&numBlocksPerSm, reduceSinglePassMultiBlockCG,
                                                                  threads, smem));
    int blocks = numBlocksPerSm * prop.multiProcessorCount;
    printf("%d blocks per SM x %d SMs\n", numBlocksPerSm, prop.multiProcessorCount);
    checkCudaErrors(cudaMalloc(&d_partial, blocks * sizeof(int)));
    checkCudaErrors(cudaMalloc(&d_out, sizeof(int)));
    int nn = n;
    void *kernelArgs[] = {(void *)&d_in, (void *)&d_partial, (void *)&d_out, (void *)&nn};
    checkCudaErrors(cudaLaunchCooperativeKernel((void *)reduceSinglePassMultiBlockCG, dim3(blocks), dim3(threads),
                                                kernelArgs, smem, NULL));
    checkCudaErrors(cudaDeviceSynchronize());
    int result = 0;
    checkCudaErrors(cudaMemcpy(&result, d_out, sizeof(int), cudaMemcpyDeviceToHost));
    printf("grid reduction: gpu %d cpu %lld\n", result, ref);

    // Again through cudaLaunchKernelEx with the cooperative attribute.
    checkCudaErrors(cudaMemset(d_out, 0, sizeof(int)));
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(blocks);
    config.blockDim = dim3(threads);
    config.dynamicSmemBytes = smem;
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeCooperative;
    attr[0].val.cooperative = 1;
    config.attrs = attr;
    config.numAttrs = 1;
    checkCudaErrors(cudaLaunchKernelEx(&config, reduceSinglePassMultiBlockCG, (const int *)d_in, d_partial, d_out, nn));
    int result_ex = 0;
    checkCudaErrors(cudaMemcpy(&result_ex, d_out, sizeof(int), cudaMemcpyDeviceToHost));
    printf("grid reduction through cudaLaunchKernelEx: gpu %d\n", result_ex);
    if (result_ex != ref) result = -1;

    // Too many blocks for a cooperative launch is refused.
    cudaError_t e = cudaLaunchCooperativeKernel((void *)reduceSinglePassMultiBlockCG, dim3(blocks * 4 + 1),
                                                dim3(threads), kernelArgs, smem, NULL);
    printf("oversized cooperative launch: %s\n", cudaGetErrorName(e));
    cudaGetLastError();

    int *d_sum;
    checkCudaErrors(cudaMalloc(&d_sum, sizeof(int)));
    checkCudaErrors(cudaMemset(d_sum, 0, sizeof(int)));
    tileSum<<<n / 256, 256>>>(d_in, d_sum);
    int tsum = 0;
    checkCudaErrors(cudaMemcpy(&tsum, d_sum, sizeof(int), cudaMemcpyDeviceToHost));
    long long tref = 0;
    for (int i = 0; i < (n / 256) * 256; i++) tref += h[i];
    printf("tile reduction: gpu %d cpu %lld\n", tsum, tref);
    cudaFree(d_in), cudaFree(d_partial), cudaFree(d_out), cudaFree(d_sum);
    free(h);
    if (result != ref || e != cudaErrorCooperativeLaunchTooLarge || tsum != tref) {
        printf("FAILED grid_sync\n");
        return 1;
    }
    printf("PASSED grid_sync\n");
    return 0;
}
