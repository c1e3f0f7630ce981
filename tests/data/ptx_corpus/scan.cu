// Block and warp scans: Hillis-Steele, Blelloch (work-efficient), warp-shuffle scans composed
// into a block scan, a decoupled single-pass style with a flag array.
template <typename T>
__device__ __forceinline__ T warp_inclusive_scan(T v) {
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        T u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += u;
    }
    return v;
}

template <typename T, int BLOCK>
__device__ T block_exclusive_scan(T v, T* total) {
    __shared__ T warp_sums[BLOCK / 32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    T inc = warp_inclusive_scan(v);
    if (lane == 31) warp_sums[warp] = inc;
    __syncthreads();
    if (warp == 0) {
        T s = lane < BLOCK / 32 ? warp_sums[lane] : T(0);
        s = warp_inclusive_scan(s);
        if (lane < BLOCK / 32) warp_sums[lane] = s;
    }
    __syncthreads();
    T prefix = warp ? warp_sums[warp - 1] : T(0);
    *total = warp_sums[BLOCK / 32 - 1];
    return prefix + inc - v;
}

template <typename T, int BLOCK>
__global__ void block_scan(const T* in, T* out, T* block_totals, int n) {
    int i = blockIdx.x * BLOCK + threadIdx.x;
    T v = i < n ? in[i] : T(0);
    T total;
    T ex = block_exclusive_scan<T, BLOCK>(v, &total);
    if (i < n) out[i] = ex;
    if (threadIdx.x == 0 && block_totals) block_totals[blockIdx.x] = total;
}

template <typename T>
__global__ void add_block_offsets(T* data, const T* offsets, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && blockIdx.x > 0) data[i] += offsets[blockIdx.x];
}

__global__ void hillis_steele(const float* in, float* out, int n) {
    extern __shared__ float buf[];
    int tid = threadIdx.x;
    int pout = 0, pin = 1;
    buf[tid] = tid < n ? in[tid] : 0.0f;
    __syncthreads();
    for (int off = 1; off < n; off <<= 1) {
        pout = 1 - pout;
        pin = 1 - pout;
        float v = buf[pin * n + tid];
        if (tid >= off) v += buf[pin * n + tid - off];
        buf[pout * n + tid] = v;
        __syncthreads();
    }
    if (tid < n) out[tid] = buf[pout * n + tid];
}

__global__ void blelloch(const int* in, int* out, int n) {
    extern __shared__ int temp[];
    int tid = threadIdx.x, offset = 1;
    temp[2 * tid] = in[2 * tid];
    temp[2 * tid + 1] = in[2 * tid + 1];
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (tid == 0) temp[n - 1] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (tid < d) {
            int ai = offset * (2 * tid + 1) - 1, bi = offset * (2 * tid + 2) - 1;
            int t = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += t;
        }
    }
    __syncthreads();
    out[2 * tid] = temp[2 * tid];
    out[2 * tid + 1] = temp[2 * tid + 1];
}

__global__ void segmented_warp_scan(const int* in, const int* flags, int* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = i < n ? in[i] : 0;
    int f = i < n ? flags[i] : 1;
    unsigned heads = __ballot_sync(0xffffffffu, f);
    unsigned mask = heads & ((2u << lane) - 1);
    int seg_start = 31 - __clz(mask | 1u);
    for (int d = 1; d < 32; d <<= 1) {
        int u = __shfl_up_sync(0xffffffffu, v, d);
        if (lane - d >= seg_start) v += u;
    }
    if (i < n) out[i] = v;
}

__global__ void single_pass_scan(const int* in, int* out, volatile int* flags, volatile int* aggregates, int n) {
    __shared__ int prefix;
    int i = blockIdx.x * 256 + threadIdx.x;
    int v = i < n ? in[i] : 0;
    int total;
    int ex = block_exclusive_scan<int, 256>(v, &total);
    if (threadIdx.x == 0) {
        int p = 0;
        if (blockIdx.x > 0) {
            while (flags[blockIdx.x - 1] == 0) {}
            p = aggregates[blockIdx.x - 1];
        }
        aggregates[blockIdx.x] = p + total;
        __threadfence();
        flags[blockIdx.x] = 1;
        prefix = p;
    }
    __syncthreads();
    if (i < n) out[i] = prefix + ex;
}

template __global__ void block_scan<int, 256>(const int*, int*, int*, int);
template __global__ void block_scan<float, 256>(const float*, float*, float*, int);
template __global__ void block_scan<unsigned, 512>(const unsigned*, unsigned*, unsigned*, int);
template __global__ void block_scan<double, 128>(const double*, double*, double*, int);
template __global__ void block_scan<long long, 1024>(const long long*, long long*, long long*, int);
template __global__ void add_block_offsets<int>(int*, const int*, int);
template __global__ void add_block_offsets<float>(float*, const float*, int);
