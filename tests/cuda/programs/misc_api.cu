// SPDX-License-Identifier: Apache-2.0
// Assorted runtime calls an SDK-sample-style program makes: cudaPointerGetAttributes on each
// kind of memory, managed memory touched by host and kernel, cudaMemcpyDefault, stream-ordered
// allocation, vector types and structs passed by value, kernel-argument arrays through
// cudaLaunchKernel, cudaFuncGetAttributes, error values and strings.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define EXPECT(c)                                                       \
    do {                                                                \
        if (!(c)) {                                                     \
            printf("check failed: %s (line %d)\n", #c, __LINE__);       \
            failures++;                                                 \
        }                                                               \
    } while (0)
#define CUDA_CALL(x) EXPECT((x) == cudaSuccess)

struct Particle {
    float3 pos;
    float mass;
};

struct Transform {
    float m[3][3];
    float3 offset;
    int flags;
};

__global__ void move(Particle *p, int n, float3 velocity, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        p[i].pos.x += velocity.x * dt;
        p[i].pos.y += velocity.y * dt;
        p[i].pos.z += velocity.z * dt * p[i].mass;
    }
}

__global__ void apply(float3 *out, const float3 *in, Transform t, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float3 v = in[i];
        float3 r;
        r.x = t.m[0][0] * v.x + t.m[0][1] * v.y + t.m[0][2] * v.z + t.offset.x;
        r.y = t.m[1][0] * v.x + t.m[1][1] * v.y + t.m[1][2] * v.z + t.offset.y;
        r.z = t.m[2][0] * v.x + t.m[2][1] * v.y + t.m[2][2] * v.z + t.offset.z;
        if (t.flags & 1) r.x = -r.x;
        out[i] = r;
    }
}

__global__ void scale_managed(double *x, int n, double a, char tag, short s16) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = x[i] * a + tag + s16;
}

__device__ int d_counter;

__global__ void count(int n) {
    if (blockIdx.x * blockDim.x + threadIdx.x < n) atomicAdd(&d_counter, 1);
}

int main() {
    const int n = 300;
    // Pointer attributes.
    float *dev, *host_pinned;
    double *managed;
    CUDA_CALL(cudaMalloc(&dev, n * sizeof(float)));
    CUDA_CALL(cudaMallocHost(&host_pinned, n * sizeof(float)));
    CUDA_CALL(cudaMallocManaged(&managed, n * sizeof(double)));
    float *pageable = (float *)malloc(n * sizeof(float));
    cudaPointerAttributes a;
    CUDA_CALL(cudaPointerGetAttributes(&a, dev + 5));
    EXPECT(a.type == cudaMemoryTypeDevice && a.device == 0 && a.devicePointer == dev + 5);
    CUDA_CALL(cudaPointerGetAttributes(&a, host_pinned));
    EXPECT(a.type == cudaMemoryTypeHost && a.hostPointer == host_pinned);
    CUDA_CALL(cudaPointerGetAttributes(&a, managed));
    EXPECT(a.type == cudaMemoryTypeManaged && a.devicePointer == managed && a.hostPointer == managed);
    CUDA_CALL(cudaPointerGetAttributes(&a, pageable));
    EXPECT(a.type == cudaMemoryTypeUnregistered);

    // Managed memory written by the host, scaled by a kernel, read by the host.
    for (int i = 0; i < n; i++) managed[i] = i;
    scale_managed<<<(n + 63) / 64, 64>>>(managed, n, 0.5, (char)3, (short)-7);
    CUDA_CALL(cudaDeviceSynchronize());
    for (int i = 0; i < n; i++) EXPECT(managed[i] == i * 0.5 + 3 - 7);

    // Structs and vector types by value.
    Particle *hp = (Particle *)malloc(n * sizeof(Particle)), *dp;
    for (int i = 0; i < n; i++) hp[i] = Particle{make_float3(i, 2 * i, 3 * i), 1.0f + (i % 3)};
    CUDA_CALL(cudaMalloc(&dp, n * sizeof(Particle)));
    CUDA_CALL(cudaMemcpy(dp, hp, n * sizeof(Particle), cudaMemcpyDefault));
    move<<<(n + 127) / 128, 128>>>(dp, n, make_float3(1.0f, -2.0f, 0.5f), 0.25f);
    CUDA_CALL(cudaGetLastError());
    Particle *rp = (Particle *)malloc(n * sizeof(Particle));
    CUDA_CALL(cudaMemcpy(rp, dp, n * sizeof(Particle), cudaMemcpyDefault));
    for (int i = 0; i < n; i++)
        EXPECT(rp[i].pos.x == i + 0.25f && rp[i].pos.y == 2 * i - 0.5f && rp[i].pos.z == 3 * i + 0.125f * hp[i].mass);

    Transform t;
    memset(&t, 0, sizeof t);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) t.m[r][c] = (r == c) ? 2.0f : (r < c ? 1.0f : 0.0f);
    t.offset = make_float3(10, 20, 30);
    t.flags = 1;
    float3 *din, *dout, hin[64], hout[64];
    for (int i = 0; i < 64; i++) hin[i] = make_float3(i, i + 1, i + 2);
    CUDA_CALL(cudaMalloc(&din, sizeof hin));
    CUDA_CALL(cudaMalloc(&dout, sizeof hout));
    CUDA_CALL(cudaMemcpy(din, hin, sizeof hin, cudaMemcpyHostToDevice));
    // Through cudaLaunchKernel with an argument array.
    int nn = 64;
    void *args[] = {&dout, &din, &t, &nn};
    CUDA_CALL(cudaLaunchKernel((const void *)apply, dim3(2), dim3(32), args, 0, 0));
    CUDA_CALL(cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++) {
        float3 v = hin[i];
        EXPECT(hout[i].x == -(2 * v.x + v.y + v.z + 10));
        EXPECT(hout[i].y == 2 * v.y + v.z + 20);
        EXPECT(hout[i].z == 2 * v.z + 30);
    }

    // Stream-ordered allocation and asynchronous memset.
    cudaStream_t s;
    CUDA_CALL(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int *tmp = nullptr;
    CUDA_CALL(cudaMallocAsync((void **)&tmp, 1024, s));
    CUDA_CALL(cudaMemsetAsync(tmp, 0x01, 1024, s));
    int hv[256];
    CUDA_CALL(cudaMemcpyAsync(hv, tmp, sizeof hv, cudaMemcpyDeviceToHost, s));
    CUDA_CALL(cudaStreamSynchronize(s));
    EXPECT(hv[0] == 0x01010101 && hv[255] == 0x01010101);
    CUDA_CALL(cudaFreeAsync(tmp, s));
    CUDA_CALL(cudaStreamSynchronize(s));

    // A __device__ counter through its address.
    int zero = 0, counted = 0;
    CUDA_CALL(cudaMemcpyToSymbol(d_counter, &zero, sizeof zero));
    count<<<4, 100>>>(333);
    CUDA_CALL(cudaMemcpyFromSymbol(&counted, d_counter, sizeof counted));
    EXPECT(counted == 333);
    int *counter_addr = nullptr;
    CUDA_CALL(cudaGetSymbolAddress((void **)&counter_addr, d_counter));
    CUDA_CALL(cudaPointerGetAttributes(&a, counter_addr));
    EXPECT(a.type == cudaMemoryTypeDevice);

    cudaFuncAttributes fa;
    CUDA_CALL(cudaFuncGetAttributes(&fa, apply));
    EXPECT(fa.maxThreadsPerBlock >= 32 && fa.numRegs > 0);

    // Error paths: values and strings.
    move<<<1, 2048>>>(dp, n, make_float3(0, 0, 0), 0);
    cudaError_t e = cudaGetLastError();
    EXPECT(e == cudaErrorInvalidConfiguration);
    printf("oversized block: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(cudaFree((void *)0x1234) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    EXPECT(cudaFree(nullptr) == cudaSuccess);
    EXPECT(strcmp(cudaGetErrorString(cudaSuccess), "no error") == 0);
    EXPECT(strcmp(cudaGetErrorName(cudaErrorMemoryAllocation), "cudaErrorMemoryAllocation") == 0);

    CUDA_CALL(cudaStreamDestroy(s));
    cudaFree(dev), cudaFree(dp), cudaFree(din), cudaFree(dout), cudaFree(managed);
    cudaFreeHost(host_pinned);
    free(pageable), free(hp), free(rp);
    if (failures) {
        printf("FAILED misc_api: %d\n", failures);
        return 1;
    }
    printf("PASSED misc_api\n");
    return 0;
}
