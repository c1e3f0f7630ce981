// SPDX-License-Identifier: Apache-2.0
// Stream-ordered allocation in the style of the SDK's streamOrderedAllocation: the default pool
// with a release threshold, cudaMallocAsync/cudaFreeAsync around a kernel in a loop, the pool's
// used-memory attributes, and a pool of its own with cudaMallocFromPoolAsync.
#include <cstdint>
#include <cstdio>
#include <vector>

#define CHECK(call)                                                              \
    do {                                                                         \
        cudaError_t e_ = (call);                                                 \
        if (e_ != cudaSuccess) {                                                 \
            std::printf("FAILED: %s: %s\n", #call, cudaGetErrorString(e_));     \
            return 1;                                                            \
        }                                                                        \
    } while (0)
#define EXPECT(c)                                                \
    do {                                                         \
        if (!(c)) {                                              \
            std::printf("FAILED: %s (line %d)\n", #c, __LINE__); \
            return 1;                                            \
        }                                                        \
    } while (0)

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main() {
    const int n = 4096;
    const size_t bytes = n * sizeof(float);
    std::vector<float> a(n), b(n), c(n);
    for (int i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i);
        b[i] = static_cast<float>(2 * i);
    }
    cudaStream_t stream;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    cudaMemPool_t pool;
    CHECK(cudaDeviceGetDefaultMemPool(&pool, 0));
    uint64_t threshold = UINT64_MAX;
    CHECK(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &threshold));
    uint64_t got = 0;
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &got));
    EXPECT(got == UINT64_MAX);

    for (int iter = 0; iter < 3; ++iter) {
        float *da, *db, *dc;
        CHECK(cudaMallocAsync(&da, bytes, stream));
        CHECK(cudaMallocAsync(&db, bytes, stream));
        CHECK(cudaMallocAsync(&dc, bytes, stream));
        uint64_t used = 0;
        CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
        EXPECT(used >= 3 * bytes);
        CHECK(cudaMemcpyAsync(da, a.data(), bytes, cudaMemcpyHostToDevice, stream));
        CHECK(cudaMemcpyAsync(db, b.data(), bytes, cudaMemcpyHostToDevice, stream));
        vector_add<<<(n + 255) / 256, 256, 0, stream>>>(da, db, dc, n);
        CHECK(cudaMemcpyAsync(c.data(), dc, bytes, cudaMemcpyDeviceToHost, stream));
        CHECK(cudaFreeAsync(da, stream));
        CHECK(cudaFreeAsync(db, stream));
        CHECK(cudaFreeAsync(dc, stream));
        CHECK(cudaStreamSynchronize(stream));
        for (int i = 0; i < n; ++i) EXPECT(c[i] == a[i] + b[i]);
    }
    uint64_t used = 1, high = 0;
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &high));
    EXPECT(used == 0);
    EXPECT(high >= 3 * bytes);
    CHECK(cudaMemPoolTrimTo(pool, 0));

    // A pool of its own.
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t own;
    CHECK(cudaMemPoolCreate(&own, &props));
    float* dx;
    CHECK(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&dx), bytes, own, stream));
    uint64_t own_used = 0, default_used = 1;
    CHECK(cudaMemPoolGetAttribute(own, cudaMemPoolAttrUsedMemCurrent, &own_used));
    CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &default_used));
    EXPECT(own_used == bytes && default_used == 0);
    CHECK(cudaMemsetAsync(dx, 0, bytes, stream));
    CHECK(cudaMemcpyAsync(c.data(), dx, bytes, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaFreeAsync(dx, stream));
    CHECK(cudaStreamSynchronize(stream));
    for (int i = 0; i < n; ++i) EXPECT(c[i] == 0.0f);
    cudaMemPool_t current;
    CHECK(cudaDeviceGetMemPool(&current, 0));
    EXPECT(current == pool);
    CHECK(cudaMemPoolDestroy(own));
    EXPECT(cudaMemPoolDestroy(pool) == cudaErrorInvalidValue);  // the default pool stays
    CHECK(cudaStreamDestroy(stream));
    std::printf("PASSED stream_ordered_alloc\n");
    return 0;
}
