// SPDX-License-Identifier: Apache-2.0
// A 3-D seven-point stencil on pitched memory, written as a benchmark would: cudaMalloc3D,
// cudaMemcpy3D from a host volume, cudaMemset3D of the output, the stencil on a pitched
// pointer, cudaMemcpy3DAsync back on a stream, and a sub-box copied with positions; each result
// checked against the CPU.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                          \
    do {                                                                                     \
        cudaError_t e_ = (call);                                                             \
        if (e_ != cudaSuccess) {                                                             \
            std::printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_));                 \
            return 1;                                                                        \
        }                                                                                    \
    } while (0)

__global__ void stencil(cudaPitchedPtr in, cudaPitchedPtr out, int nx, int ny, int nz) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= nx - 1 || y >= ny - 1) return;
    const size_t slice = in.pitch * ny;
    for (int z = 1; z < nz - 1; ++z) {
        const char* base = static_cast<const char*>(in.ptr) + z * slice + y * in.pitch;
        const float* row = reinterpret_cast<const float*>(base);
        const float* up = reinterpret_cast<const float*>(base - in.pitch);
        const float* down = reinterpret_cast<const float*>(base + in.pitch);
        const float* front = reinterpret_cast<const float*>(base - slice);
        const float* back = reinterpret_cast<const float*>(base + slice);
        float* o = reinterpret_cast<float*>(static_cast<char*>(out.ptr) + z * out.pitch * ny + y * out.pitch);
        o[x] = 0.4f * row[x] + 0.1f * (row[x - 1] + row[x + 1] + up[x] + down[x] + front[x] + back[x]);
    }
}

int main() {
    const int nx = 40, ny = 24, nz = 12;
    std::vector<float> h(size_t(nx) * ny * nz), r(h.size()), want(h.size(), -1.0f);
    for (size_t i = 0; i < h.size(); ++i) h[i] = static_cast<float>(i % 97) * 0.03125f;
    const cudaExtent extent = make_cudaExtent(nx * sizeof(float), ny, nz);
    cudaPitchedPtr din, dout;
    CHECK(cudaMalloc3D(&din, extent));
    CHECK(cudaMalloc3D(&dout, extent));
    if (din.pitch < nx * sizeof(float)) return std::printf("FAILED: pitch %zu\n", din.pitch), 1;

    cudaMemcpy3DParms up = {};
    up.srcPtr = make_cudaPitchedPtr(h.data(), nx * sizeof(float), nx, ny);
    up.dstPtr = din;
    up.extent = extent;
    up.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&up));
    CHECK(cudaMemset3D(dout, 0xff, extent));  // -NaN bytes: the border keeps them

    dim3 block(16, 8), grid((nx + 15) / 16, (ny + 7) / 8);
    stencil<<<grid, block>>>(din, dout, nx, ny, nz);
    CHECK(cudaGetLastError());

    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    cudaMemcpy3DParms down = {};
    down.srcPtr = dout;
    down.dstPtr = make_cudaPitchedPtr(r.data(), nx * sizeof(float), nx, ny);
    down.extent = extent;
    down.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3DAsync(&down, s));
    CHECK(cudaStreamSynchronize(s));

    auto idx = [&](int x, int y, int z) { return (size_t(z) * ny + y) * nx + x; };
    for (int z = 0; z < nz; ++z)
        for (int y = 0; y < ny; ++y)
            for (int x = 0; x < nx; ++x) {
                const size_t i = idx(x, y, z);
                if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) {
                    if (!std::isnan(r[i])) return std::printf("FAILED: border (%d,%d,%d) = %f\n", x, y, z, r[i]), 1;
                    continue;
                }
                const float s6 = h[idx(x - 1, y, z)] + h[idx(x + 1, y, z)] + h[idx(x, y - 1, z)] + h[idx(x, y + 1, z)] +
                                 h[idx(x, y, z - 1)] + h[idx(x, y, z + 1)];
                const float w = 0.4f * h[i] + 0.1f * s6;
                if (std::fabs(r[i] - w) > 1e-5f * (1.0f + std::fabs(w)))
                    return std::printf("FAILED: (%d,%d,%d) = %f, expected %f\n", x, y, z, r[i], w), 1;
            }

    // A 5 x 4 x 3 box at (2, 3, 4) of the input volume, into a small host volume.
    std::vector<float> box(5 * 4 * 3, 0.0f);
    cudaMemcpy3DParms part = {};
    part.srcPtr = din;
    part.srcPos = make_cudaPos(2 * sizeof(float), 3, 4);
    part.dstPtr = make_cudaPitchedPtr(box.data(), 5 * sizeof(float), 5, 4);
    part.extent = make_cudaExtent(5 * sizeof(float), 4, 3);
    part.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&part));
    for (int z = 0; z < 3; ++z)
        for (int y = 0; y < 4; ++y)
            for (int x = 0; x < 5; ++x)
                if (box[(z * 4 + y) * 5 + x] != h[idx(x + 2, y + 3, z + 4)])
                    return std::printf("FAILED: box (%d,%d,%d)\n", x, y, z), 1;

    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(din.ptr));
    CHECK(cudaFree(dout.ptr));
    std::printf("PASSED stencil3d\n");
    return 0;
}
