// SPDX-License-Identifier: Apache-2.0
// Error paths: bad launch configurations, bad pointers, bad devices, error strings, the sticky
// last error, an unsupported call; device properties from the preset (argument: its SM count).
#include <cstring>

#include "check.h"

__global__ void touch(int* x) { x[threadIdx.x] = threadIdx.x; }

__global__ void big_shared(int* x) {
    extern __shared__ int buf[];
    buf[threadIdx.x] = threadIdx.x;
    __syncthreads();
    x[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}


int main(int argc, char** argv) {
    int count = 0;
    CHECK(cudaGetDeviceCount(&count));
    EXPECT(count == 1);
    EXPECT(cudaSetDevice(1) == cudaErrorInvalidDevice);
    CHECK(cudaSetDevice(0));
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, 0));
    if (argc > 1) EXPECT(p.multiProcessorCount == std::atoi(argv[1]));
    EXPECT(p.warpSize == 32 && p.maxThreadsPerBlock == 1024 && p.major >= 7);
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    EXPECT(sms == p.multiProcessorCount);
    int version = 0;
    CHECK(cudaRuntimeGetVersion(&version));
    EXPECT(version >= 13000);

    int* d;
    CHECK(cudaMalloc(&d, 1024 * sizeof(int)));
    // A block of 2048 threads is an invalid configuration; the error is sticky until read.
    touch<<<1, 2048>>>(d);
    EXPECT(cudaPeekAtLastError() == cudaErrorInvalidConfiguration);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    EXPECT(cudaGetLastError() == cudaSuccess);
    EXPECT(std::strcmp(cudaGetErrorString(cudaErrorInvalidConfiguration), "invalid configuration argument") == 0);
    EXPECT(std::strcmp(cudaGetErrorName(cudaErrorInvalidValue), "cudaErrorInvalidValue") == 0);
    touch<<<0, 32>>>(d);
    EXPECT(cudaGetLastError() == cudaErrorInvalidConfiguration);
    // Too much dynamic shared memory (1 MB).
    big_shared<<<1, 32, 1 << 20>>>(d);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    // A fitting launch still works after the failed ones.
    big_shared<<<1, 64, 64 * sizeof(int)>>>(d);
    CHECK(cudaGetLastError());
    int h[64];
    CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; ++i) EXPECT(h[i] == 63 - i);

    // Bad pointers and directions.
    int host[4] = {1, 2, 3, 4};
    EXPECT(cudaMemcpy(host, host + 1, 4, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
    EXPECT(cudaMemcpy(d + 1020, host, sizeof host + 16, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    EXPECT(cudaMemcpy(d, host, 4, static_cast<cudaMemcpyKind>(7)) == cudaErrorInvalidMemcpyDirection);
    EXPECT(cudaFree(host) == cudaErrorInvalidValue);
    EXPECT(cudaMemset(host, 0, 4) == cudaErrorInvalidValue);
    cudaStream_t bogus = reinterpret_cast<cudaStream_t>(0x1234);
    EXPECT(cudaStreamSynchronize(bogus) == cudaErrorInvalidResourceHandle);
    cudaGetLastError();
    // An unsupported call answers cudaErrorNotSupported (and says so on stderr).
    EXPECT(cudaMemcpyPeer(d, 0, d, 0, 4) == cudaErrorNotSupported);
    EXPECT(cudaGetLastError() == cudaErrorNotSupported);
    // Also an entry point of the generated stubs (cudart/api_unsupported.cpp).
    EXPECT(cudaDeviceFlushGPUDirectRDMAWrites(cudaFlushGPUDirectRDMAWritesTargetCurrentDevice,
                                              cudaFlushGPUDirectRDMAWritesToOwner) == cudaErrorNotSupported);
    EXPECT(cudaGetLastError() == cudaErrorNotSupported);
    CHECK(cudaFree(d));
    std::printf("PASSED errors\n");
    return 0;
}
