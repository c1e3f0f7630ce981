// Cooperative groups: thread blocks, tiled partitions of several sizes, cg::reduce,
// coalesced groups, grid synchronisation for cooperative launches.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void cg_block_sum(const float* in, float* out, int n) {
    cg::thread_block block = cg::this_thread_block();
    __shared__ float s[256];
    unsigned t = block.thread_rank();
    s[t] = 0.f;
    for (int i = blockIdx.x * 256 + t; i < n; i += gridDim.x * 256) s[t] += in[i];
    block.sync();
    for (unsigned k = 128; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        block.sync();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

template <int TILE>
__global__ void cg_tile_reduce(const int* in, int* out) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<TILE> tile = cg::tiled_partition<TILE>(block);
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int k = tile.size() / 2; k > 0; k >>= 1) v += tile.shfl_down(v, k);
    if (tile.thread_rank() == 0) out[(blockIdx.x * blockDim.x + threadIdx.x) / TILE] = v;
}

__global__ void cg_reduce_op(const unsigned* in, unsigned* sums, unsigned* maxs) {
    auto tile = cg::tiled_partition<32>(cg::this_thread_block());
    unsigned v = in[blockIdx.x * blockDim.x + threadIdx.x];
    unsigned s = cg::reduce(tile, v, cg::plus<unsigned>());
    unsigned m = cg::reduce(tile, v, cg::greater<unsigned>());
    if (tile.thread_rank() == 0) {
        sums[blockIdx.x * (blockDim.x / 32) + tile.meta_group_rank()] = s;
        maxs[blockIdx.x * (blockDim.x / 32) + tile.meta_group_rank()] = m;
    }
}

__global__ void cg_coalesced(const int* in, int* counter, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[i] > 0) {
        cg::coalesced_group g = cg::coalesced_threads();
        int base;
        if (g.thread_rank() == 0) base = atomicAdd(counter, g.size());
        base = g.shfl(base, 0);
        out[base + g.thread_rank()] = in[i];
    }
}

__global__ void cg_tile_vote(const int* in, int* out) {
    auto tile = cg::tiled_partition<16>(cg::this_thread_block());
    int p = in[blockIdx.x * blockDim.x + threadIdx.x] != 0;
    int any = tile.any(p), all = tile.all(p);
    unsigned b = tile.ballot(p);
    out[blockIdx.x * blockDim.x + threadIdx.x] = any + 2 * all + 4 * __popc(b);
}

__global__ void cg_grid_sync(float* data, float* partial, int n) {
    cg::grid_group grid = cg::this_grid();
    float v = 0.f;
    for (int i = grid.thread_rank(); i < n; i += grid.size()) v += data[i];
    partial[grid.thread_rank()] = v;
    grid.sync();
    if (grid.thread_rank() == 0) {
        float s = 0.f;
        for (unsigned i = 0; i < grid.size(); ++i) s += partial[i];
        data[0] = s;
    }
}

template __global__ void cg_tile_reduce<32>(const int*, int*);
template __global__ void cg_tile_reduce<16>(const int*, int*);
template __global__ void cg_tile_reduce<8>(const int*, int*);
template __global__ void cg_tile_reduce<4>(const int*, int*);
