// N-body and particle kernels: all-pairs forces (float, double) with shared tiles, particle
// update, BLAS-1 kernels.
template <typename T>
__global__ void nbody_tiled(const T* pos, const T* mass, T* acc, int n, T eps2) {
    extern __shared__ unsigned char raw[];
    T* sp = reinterpret_cast<T*>(raw);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T xi = i < n ? pos[3 * i] : T(0), yi = i < n ? pos[3 * i + 1] : T(0), zi = i < n ? pos[3 * i + 2] : T(0);
    T ax = 0, ay = 0, az = 0;
    for (int tile = 0; tile < n; tile += blockDim.x) {
        int j = tile + threadIdx.x;
        sp[4 * threadIdx.x] = j < n ? pos[3 * j] : T(0);
        sp[4 * threadIdx.x + 1] = j < n ? pos[3 * j + 1] : T(0);
        sp[4 * threadIdx.x + 2] = j < n ? pos[3 * j + 2] : T(0);
        sp[4 * threadIdx.x + 3] = j < n ? mass[j] : T(0);
        __syncthreads();
        for (int k = 0; k < blockDim.x; ++k) {
            T dx = sp[4 * k] - xi, dy = sp[4 * k + 1] - yi, dz = sp[4 * k + 2] - zi;
            T d2 = dx * dx + dy * dy + dz * dz + eps2;
            T inv = rsqrt(d2);
            T s = sp[4 * k + 3] * inv * inv * inv;
            ax += dx * s; ay += dy * s; az += dz * s;
        }
        __syncthreads();
    }
    if (i < n) { acc[3 * i] = ax; acc[3 * i + 1] = ay; acc[3 * i + 2] = az; }
}
__global__ void integrate(float4* pos, float4* vel, const float4* acc, float dt, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float4 v = vel[i], a = acc[i], p = pos[i];
    v.x += a.x * dt; v.y += a.y * dt; v.z += a.z * dt;
    p.x += v.x * dt; p.y += v.y * dt; p.z += v.z * dt;
    vel[i] = v;
    pos[i] = p;
}
__global__ void saxpy(int n, float a, const float* x, float* y) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}
__global__ void daxpy(int n, double a, const double* x, double* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void dnrm2_partial(const double* x, double* out, int n) {
    __shared__ double s[256];
    double v = 0;
    for (int i = blockIdx.x * 256 + threadIdx.x; i < n; i += gridDim.x * 256) v += x[i] * x[i];
    s[threadIdx.x] = v;
    __syncthreads();
    for (int k = 128; k; k >>= 1) { if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k]; __syncthreads(); }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
__global__ void sscal_iamax(float* x, float a, int* imax, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        x[i] *= a;
        if (fabsf(x[i]) > 100.f) atomicMin(imax, i);
    }
}
template __global__ void nbody_tiled<float>(const float*, const float*, float*, int, float);
template __global__ void nbody_tiled<double>(const double*, const double*, double*, int, double);
