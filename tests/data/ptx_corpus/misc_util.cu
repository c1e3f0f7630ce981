// Utility kernels every CUDA code base has: fill, iota, grid-stride copy, gather, scatter,
// stream compaction by flags, 2-D index math, boundary-checked element-wise ops.
template <typename T>
__global__ void fill(T* p, T v, size_t n) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = v;
}
template <typename T>
__global__ void iota(T* p, T start, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = start + T(i);
}
__global__ void grid_copy(const char* src, char* dst, size_t bytes) {
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < bytes; i += (size_t)gridDim.x * blockDim.x) dst[i] = src[i];
}
template <typename T>
__global__ void gather(const T* src, const int* idx, T* dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = src[idx[i]];
}
template <typename T>
__global__ void scatter(const T* src, const int* idx, T* dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[idx[i]] = src[i];
}
__global__ void index_3d(int* out, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y, z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < nx && y < ny && z < nz) out[(z * ny + y) * nx + x] = x + 1000 * y + 1000000 * z;
}
__global__ void clamp_relu(float* x, float lo, float hi, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = fminf(fmaxf(x[i], lo), hi) * (x[i] > 0.f);
}
__global__ void select_by_flag(const float* a, const float* b, const bool* f, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = f[i] ? a[i] : b[i];
}
template __global__ void fill<float>(float*, float, size_t);
template __global__ void fill<int>(int*, int, size_t);
template __global__ void fill<double>(double*, double, size_t);
template __global__ void fill<unsigned char>(unsigned char*, unsigned char, size_t);
template __global__ void iota<int>(int*, int, int);
template __global__ void iota<long long>(long long*, long long, int);
template __global__ void iota<float>(float*, float, int);
template __global__ void gather<float>(const float*, const int*, float*, int);
template __global__ void gather<double>(const double*, const int*, double*, int);
template __global__ void gather<short>(const short*, const int*, short*, int);
template __global__ void scatter<int>(const int*, const int*, int*, int);
template __global__ void scatter<float4>(const float4*, const int*, float4*, int);
