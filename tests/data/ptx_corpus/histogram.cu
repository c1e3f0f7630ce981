// Histograms: global atomics, per-block shared privatisation, warp-aggregated increments, byte
// histograms with packed counters.
__global__ void hist_global(const unsigned char* in, unsigned* hist, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&hist[in[i]], 1u);
}
template <int BINS>
__global__ void hist_shared(const int* in, unsigned* hist, int n, int lo, int hi) {
    __shared__ unsigned s[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) s[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        int v = in[i];
        if (v >= lo && v < hi) atomicAdd(&s[(long long)(v - lo) * BINS / (hi - lo)], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < BINS; b += blockDim.x) if (s[b]) atomicAdd(&hist[b], s[b]);
}
__global__ void hist_warp_aggregated(const int* in, int* hist, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int key = in[i] & 255;
    unsigned active = __activemask();
    unsigned peers = __match_any_sync(active, key);
    int leader = __ffs(peers) - 1;
    if ((threadIdx.x & 31) == leader) atomicAdd(&hist[key], __popc(peers));
}
__global__ void hist_float_weights(const int* bins, const float* w, float* hist, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&hist[bins[i]], w[i]);
}
template __global__ void hist_shared<256>(const int*, unsigned*, int, int, int);
template __global__ void hist_shared<1024>(const int*, unsigned*, int, int, int);
template __global__ void hist_shared<64>(const int*, unsigned*, int, int, int);
