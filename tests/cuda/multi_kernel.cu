// SPDX-License-Identifier: Apache-2.0
// Several kernels in a row: scale, a shared-memory block reduction (static and dynamic shared
// memory), a 2-D kernel, device-to-device copy and memset; each result checked on the CPU.
#include <vector>

#include "check.h"

__global__ void scale(float* x, float s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] *= s;
}

__global__ void block_sum(const float* x, float* sums, int n) {
    __shared__ float part[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    part[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) sums[blockIdx.x] = part[0];
}

__global__ void block_max_dyn(const int* x, int* out, int n) {
    extern __shared__ int buf[];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? x[i] : -1;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] = max(buf[threadIdx.x], buf[threadIdx.x + s]);
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
}

__global__ void transpose(const int* in, int* out, int rows, int cols) {
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[c * rows + r] = in[r * cols + c];
}

int main() {
    const int n = 4096, blocks = n / 256;
    std::vector<float> x(n);
    for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 7);
    float *dx, *dsum;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dsum, blocks * sizeof(float)));
    CHECK(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    scale<<<blocks, 256>>>(dx, 2.0f, n);
    block_sum<<<blocks, 256>>>(dx, dsum, n);
    std::vector<float> sums(blocks);
    CHECK(cudaMemcpy(sums.data(), dsum, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
        float want = 0;
        for (int i = b * 256; i < (b + 1) * 256; ++i) want += 2.0f * x[i];
        EXPECT(sums[b] == want);
    }

    std::vector<int> v(n);
    for (int i = 0; i < n; ++i) v[i] = (i * 37) % 1001;
    int *dv, *dmax, *dcopy;
    CHECK(cudaMalloc(&dv, n * sizeof(int)));
    CHECK(cudaMalloc(&dcopy, n * sizeof(int)));
    CHECK(cudaMalloc(&dmax, blocks * sizeof(int)));
    CHECK(cudaMemcpy(dv, v.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dcopy, dv, n * sizeof(int), cudaMemcpyDeviceToDevice));
    block_max_dyn<<<blocks, 256, 256 * sizeof(int)>>>(dcopy, dmax, n);
    std::vector<int> maxes(blocks);
    CHECK(cudaMemcpy(maxes.data(), dmax, blocks * sizeof(int), cudaMemcpyDeviceToHost));
    for (int b = 0; b < blocks; ++b) {
        int want = -1;
        for (int i = b * 256; i < (b + 1) * 256; ++i) want = v[i] > want ? v[i] : want;
        EXPECT(maxes[b] == want);
    }

    const int rows = 48, cols = 80;
    int* dt;
    CHECK(cudaMalloc(&dt, rows * cols * sizeof(int)));
    CHECK(cudaMemset(dt, 0xff, rows * cols * sizeof(int)));
    dim3 block(16, 16), grid((cols + 15) / 16, (rows + 15) / 16);
    transpose<<<grid, block>>>(dv, dt, rows, cols);
    std::vector<int> t(rows * cols);
    CHECK(cudaMemcpy(t.data(), dt, t.size() * sizeof(int), cudaMemcpyDeviceToHost));
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) EXPECT(t[c * rows + r] == v[r * cols + c]);
    CHECK(cudaDeviceSynchronize());
    std::printf("PASSED multi_kernel\n");
    return 0;
}
