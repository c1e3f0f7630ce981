// Stencils: 1-D with halo in shared memory, 2-D Jacobi, 3-D 7-point, heat equation step.
template <int RADIUS, int BLOCK>
__global__ void stencil1d(const float* in, float* out, int n) {
    __shared__ float s[BLOCK + 2 * RADIUS];
    int g = blockIdx.x * BLOCK + threadIdx.x, l = threadIdx.x + RADIUS;
    s[l] = g < n ? in[g] : 0.f;
    if (threadIdx.x < RADIUS) {
        s[l - RADIUS] = g >= RADIUS ? in[g - RADIUS] : 0.f;
        s[l + BLOCK] = g + BLOCK < n ? in[g + BLOCK] : 0.f;
    }
    __syncthreads();
    float r = 0.f;
#pragma unroll
    for (int k = -RADIUS; k <= RADIUS; ++k) r += s[l + k];
    if (g < n) out[g] = r / (2 * RADIUS + 1);
}
__global__ void jacobi2d(const float* a, float* b, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x > 0 && y > 0 && x < w - 1 && y < h - 1)
        b[y * w + x] = 0.25f * (a[y * w + x - 1] + a[y * w + x + 1] + a[(y - 1) * w + x] + a[(y + 1) * w + x]);
}
__global__ void stencil7(const double* in, double* out, int nx, int ny, int nz) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
    for (int z = 1; z < nz - 1; ++z) {
        size_t i = ((size_t)z * ny + y) * nx + x;
        out[i] = -6.0 * in[i] + in[i - 1] + in[i + 1] + in[i - nx] + in[i + nx] + in[i - (size_t)nx * ny] + in[i + (size_t)nx * ny];
    }
}
__global__ void heat_step(const float* t, float* tn, const float* power, int w, int h, float cap, float rx, float ry) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int xl = max(x - 1, 0), xr = min(x + 1, w - 1), yu = max(y - 1, 0), yd = min(y + 1, h - 1);
    float c = t[y * w + x];
    tn[y * w + x] = c + cap * (power[y * w + x] + (t[y * w + xl] + t[y * w + xr] - 2.f * c) * rx + (t[yu * w + x] + t[yd * w + x] - 2.f * c) * ry);
}
template __global__ void stencil1d<3, 256>(const float*, float*, int);
template __global__ void stencil1d<8, 128>(const float*, float*, int);
template __global__ void stencil1d<1, 512>(const float*, float*, int);
