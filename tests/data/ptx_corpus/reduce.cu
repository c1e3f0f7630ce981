// Block-wide reductions in the styles of the well-known libraries: shared-memory tree,
// warp-shuffle tree, a BlockReduce template with a functor, grid-stride accumulation.
#include <cstdint>

struct Sum { template <typename T> __device__ T operator()(T a, T b) const { return a + b; } };
struct Max { template <typename T> __device__ T operator()(T a, T b) const { return a > b ? a : b; } };
struct Min { template <typename T> __device__ T operator()(T a, T b) const { return a < b ? a : b; } };

template <typename T, typename Op>
__device__ __forceinline__ T warp_reduce(T v, Op op) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v = op(v, __shfl_down_sync(0xffffffffu, v, offset));
    return v;
}

template <typename T, int BLOCK, typename Op>
struct BlockReduce {
    struct TempStorage { T warp[BLOCK / 32]; };
    TempStorage& tmp;
    __device__ BlockReduce(TempStorage& t) : tmp(t) {}
    __device__ T reduce(T v, Op op) {
        const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
        v = warp_reduce(v, op);
        if (lane == 0) tmp.warp[warp] = v;
        __syncthreads();
        v = threadIdx.x < BLOCK / 32 ? tmp.warp[lane] : tmp.warp[0];
        if (warp == 0) v = warp_reduce(v, op);
        return v;
    }
};

template <typename T, int BLOCK, typename Op>
__global__ void __launch_bounds__(BLOCK) block_reduce(const T* __restrict__ in, T* __restrict__ out, int n, T init) {
    __shared__ typename BlockReduce<T, BLOCK, Op>::TempStorage tmp;
    Op op;
    T acc = init;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) acc = op(acc, in[i]);
    acc = BlockReduce<T, BLOCK, Op>(tmp).reduce(acc, op);
    if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

template <typename T, int BLOCK>
__global__ void tree_reduce(const T* in, T* out, int n) {
    __shared__ T s[BLOCK];
    int tid = threadIdx.x;
    int i = blockIdx.x * (BLOCK * 2) + tid;
    T v = 0;
    if (i < n) v = in[i];
    if (i + BLOCK < n) v += in[i + BLOCK];
    s[tid] = v;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 32; stride >>= 1) {
        if (tid < stride) s[tid] = v = v + s[tid + stride];
        __syncthreads();
    }
    if (tid < 32) {
        if (BLOCK >= 64) v += s[tid + 32];
        for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(0xffffffff, v, offset);
    }
    if (tid == 0) out[blockIdx.x] = v;
}

template <typename T>
__global__ void atomic_reduce(const T* in, T* out, int n) {
    T v = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) v += in[i];
    v = warp_reduce(v, Sum());
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}

__global__ void argmax_reduce(const float* in, int* out_idx, float* out_val, int n) {
    __shared__ float sv[256];
    __shared__ int si[256];
    float best = -3.402823466e38f;
    int idx = -1;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        if (in[i] > best) { best = in[i]; idx = i; }
    sv[threadIdx.x] = best;
    si[threadIdx.x] = idx;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s && (sv[threadIdx.x + s] > sv[threadIdx.x] ||
                                (sv[threadIdx.x + s] == sv[threadIdx.x] && si[threadIdx.x + s] < si[threadIdx.x]))) {
            sv[threadIdx.x] = sv[threadIdx.x + s];
            si[threadIdx.x] = si[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) { out_val[blockIdx.x] = sv[0]; out_idx[blockIdx.x] = si[0]; }
}

template __global__ void block_reduce<int, 256, Sum>(const int*, int*, int, int);
template __global__ void block_reduce<float, 256, Sum>(const float*, float*, int, float);
template __global__ void block_reduce<double, 128, Sum>(const double*, double*, int, double);
template __global__ void block_reduce<unsigned long long, 512, Sum>(const unsigned long long*, unsigned long long*, int, unsigned long long);
template __global__ void block_reduce<float, 256, Max>(const float*, float*, int, float);
template __global__ void block_reduce<int, 1024, Min>(const int*, int*, int, int);
template __global__ void block_reduce<double, 256, Max>(const double*, double*, int, double);
template __global__ void tree_reduce<int, 256>(const int*, int*, int);
template __global__ void tree_reduce<float, 512>(const float*, float*, int);
template __global__ void tree_reduce<double, 128>(const double*, double*, int);
template __global__ void atomic_reduce<int>(const int*, int*, int);
template __global__ void atomic_reduce<float>(const float*, float*, int);
template __global__ void atomic_reduce<unsigned long long>(const unsigned long long*, unsigned long long*, int);
template __global__ void atomic_reduce<double>(const double*, double*, int);
