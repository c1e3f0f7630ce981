// Test kernel: a two-phase reduction over the whole grid with cooperative_groups' grid barrier
// (needs a cooperative launch). Phase 1: each CTA sums its slice into partial[cta]; after
// this_grid().sync() every CTA sums all partials into out[cta], so each out[] holds the total.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

extern "C" __global__ void grid_sync(const int* in, int* partial, int* out, int n) {
    __shared__ int s[256];
    cg::grid_group grid = cg::this_grid();
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) sum += in[i];
    s[threadIdx.x] = sum;
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
    if (grid.is_valid()) grid.sync();
    if (threadIdx.x == 0) {
        int total = 0;
        for (int b = 0; b < gridDim.x; ++b) total += ((volatile int*)partial)[b];
        out[blockIdx.x] = total;
    }
}
