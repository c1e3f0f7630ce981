// Sorting: bitonic sort in shared memory, odd-even transposition, a radix-sort pass (count,
// scan, scatter), merge path partition.
template <typename K>
__global__ void bitonic_shared(K* data) {
    extern __shared__ unsigned char raw[];
    K* s = reinterpret_cast<K*>(raw);
    unsigned t = threadIdx.x, n = blockDim.x;
    s[t] = data[blockIdx.x * n + t];
    __syncthreads();
    for (unsigned k = 2; k <= n; k <<= 1)
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
            unsigned p = t ^ j;
            if (p > t) {
                bool up = (t & k) == 0;
                if ((s[t] > s[p]) == up) { K x = s[t]; s[t] = s[p]; s[p] = x; }
            }
            __syncthreads();
        }
    data[blockIdx.x * n + t] = s[t];
}
__global__ void odd_even_step(int* a, int n, int phase) {
    int i = 2 * (blockIdx.x * blockDim.x + threadIdx.x) + (phase & 1);
    if (i + 1 < n && a[i] > a[i + 1]) { int t = a[i]; a[i] = a[i + 1]; a[i + 1] = t; }
}
__global__ void radix_count(const unsigned* keys, unsigned* counts, int n, int shift) {
    __shared__ unsigned s[16];
    if (threadIdx.x < 16) s[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&s[(keys[i] >> shift) & 15], 1u);
    __syncthreads();
    if (threadIdx.x < 16) counts[threadIdx.x * gridDim.x + blockIdx.x] = s[threadIdx.x];
}
__global__ void radix_scatter_stable(const unsigned* keys, unsigned* out, const unsigned* offsets, int n, int shift) {
    if (threadIdx.x != 0) return;
    unsigned local[16];
    for (int d = 0; d < 16; ++d) local[d] = offsets[d * gridDim.x + blockIdx.x];
    int per = (n + gridDim.x - 1) / gridDim.x;
    for (int i = blockIdx.x * per; i < min(n, (int)(blockIdx.x + 1) * per); ++i) {
        unsigned k = keys[i];
        out[local[(k >> shift) & 15]++] = k;
    }
}
__global__ void merge_path(const int* a, int na, const int* b, int nb, int* split, int parts) {
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p > parts) return;
    int diag = (int)((long long)(na + nb) * p / parts);
    int lo = max(0, diag - nb), hi = min(diag, na);
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (a[mid] <= b[diag - mid - 1]) lo = mid + 1; else hi = mid;
    }
    split[p] = lo;
}
template __global__ void bitonic_shared<int>(int*);
template __global__ void bitonic_shared<float>(float*);
template __global__ void bitonic_shared<unsigned long long>(unsigned long long*);
