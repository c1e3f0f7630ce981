// Warp primitives: shuffles of every mode and width, votes, ballots, match, active masks,
// stream compaction with ballot+popc, warp-level broadcast and transpose.
#include <cstdint>

__global__ void shfl_modes(const int* in, int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    int a = __shfl_sync(0xffffffffu, v, 3);
    int b = __shfl_up_sync(0xffffffffu, v, 1);
    int c = __shfl_down_sync(0xffffffffu, v, 2);
    int d = __shfl_xor_sync(0xffffffffu, v, 5);
    int e = __shfl_sync(0xffffffffu, v, threadIdx.x ^ 7, 8);
    out[i] = a + 3 * b + 5 * c + 7 * d + 11 * e;
}

__global__ void shfl_64bit(const double* in, double* out, const long long* lin, long long* lout) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    double v = in[i];
    long long w = lin[i];
    for (int m = 16; m > 0; m >>= 1) {
        v += __shfl_xor_sync(0xffffffffu, v, m);
        w ^= __shfl_xor_sync(0xffffffffu, w, m);
    }
    out[i] = v;
    lout[i] = w;
}

__global__ void votes(const int* in, unsigned* ballots, int* flags) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int pred = in[i] > 0;
    unsigned b = __ballot_sync(0xffffffffu, pred);
    int all = __all_sync(0xffffffffu, pred);
    int any = __any_sync(0xffffffffu, pred);
    int uni = __uni_sync(0xffffffffu, pred);
    if ((threadIdx.x & 31) == 0) {
        ballots[i / 32] = b;
        flags[i / 32] = all | (any << 1) | (uni << 2);
    }
}

__global__ void compact(const float* in, float* out, int* count, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    bool keep = i < n && in[i] > 0.5f;
    unsigned mask = __ballot_sync(0xffffffffu, keep);
    int base = 0;
    if (lane == 0) base = atomicAdd(count, __popc(mask));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (keep) out[base + __popc(mask & ((1u << lane) - 1))] = in[i];
}

__global__ void active_mask_divergent(const int* in, unsigned* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (in[i] & 1) {
        unsigned m = __activemask();
        out[i] = m;
    } else {
        out[i] = __activemask() ^ 0xffffffffu;
    }
}

__global__ void match_any(const int* keys, unsigned* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = __match_any_sync(0xffffffffu, keys[i]);
}

__global__ void match_all(const int* keys, unsigned* out, int* pred_out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int pred;
    out[i] = __match_all_sync(0xffffffffu, keys[i], &pred);
    pred_out[i] = pred;
}

__global__ void warp_transpose8(const float* in, float* out) {
    int lane = threadIdx.x & 31;
    float v[8];
#pragma unroll
    for (int k = 0; k < 8; ++k) v[k] = in[(blockIdx.x * 32 + lane) * 8 + k];
    float r = 0.f;
#pragma unroll
    for (int k = 0; k < 8; ++k) r += __shfl_sync(0xffffffffu, v[k], (lane + k) & 31) * (k + 1);
    out[blockIdx.x * 32 + lane] = r;
}

__global__ void partial_warp_shfl(const int* in, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned mask = __ballot_sync(__activemask(), 1);
    int v = in[i];
    int leader = __ffs(mask) - 1;
    out[i] = v + __shfl_sync(mask, v, leader);
}

__global__ void warp_size_use(int* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = (threadIdx.x % warpSize) + warpSize * (threadIdx.x / warpSize);
}
