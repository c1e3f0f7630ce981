// Dynamic shared memory: extern arrays, a typed view over raw bytes, templated dynamic shared,
// padded transposes.
template <typename T>
struct SharedMemory {
    __device__ T* get() { extern __shared__ __align__(sizeof(T)) unsigned char smem_raw[]; return reinterpret_cast<T*>(smem_raw); }
};

template <typename T>
__global__ void dyn_reverse(const T* in, T* out, int n) {
    T* s = SharedMemory<T>().get();
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    if (i < n) s[t] = in[i];
    __syncthreads();
    int j = blockIdx.x * blockDim.x + (blockDim.x - 1 - t);
    if (j < n) out[i] = s[blockDim.x - 1 - t];
}

__global__ void dyn_two_arrays(const float* a, const int* b, float* out, int n) {
    extern __shared__ float dyn[];
    float* fa = dyn;
    int* ib = (int*)&fa[blockDim.x];
    int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    fa[t] = i < n ? a[i] : 0.f;
    ib[t] = i < n ? b[i] : 0;
    __syncthreads();
    if (i < n) out[i] = fa[(t + 1) % blockDim.x] * ib[(t + blockDim.x - 1) % blockDim.x];
}

template <int TILE>
__global__ void transpose_padded(const float* in, float* out, int w, int h) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += blockDim.y)
        if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void dyn_static_mix(const double* in, double* out) {
    __shared__ double stat[32];
    extern __shared__ double dyn2[];
    int t = threadIdx.x;
    if (t < 32) stat[t] = 1.0 + t;
    dyn2[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = dyn2[t] * stat[t & 31];
}

template __global__ void dyn_reverse<int>(const int*, int*, int);
template __global__ void dyn_reverse<double>(const double*, double*, int);
template __global__ void dyn_reverse<char>(const char*, char*, int);
template __global__ void transpose_padded<32>(const float*, float*, int, int);
template __global__ void transpose_padded<16>(const float*, float*, int, int);
