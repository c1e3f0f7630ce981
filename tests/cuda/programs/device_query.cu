// SPDX-License-Identifier: Apache-2.0
// deviceQuery-style: prints the device's properties and attributes and checks that the two
// agree and are plausible.
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

int main(int argc, char **argv) {
    printf("%s Starting...\n\n", argv[0]);
    printf(" CUDA Device Query (Runtime API) version (CUDART static linking)\n\n");
    int deviceCount = 0;
    cudaError_t error_id = cudaGetDeviceCount(&deviceCount);
    if (error_id != cudaSuccess) {
        printf("cudaGetDeviceCount returned %d\n-> %s\n", (int)error_id, cudaGetErrorString(error_id));
        printf("Result = FAIL\n");
        exit(EXIT_FAILURE);
    }
    if (deviceCount == 0) printf("There are no available device(s) that support CUDA\n");
    else printf("Detected %d CUDA Capable device(s)\n", deviceCount);

    int dev, driverVersion = 0, runtimeVersion = 0;
    for (dev = 0; dev < deviceCount; ++dev) {
        cudaSetDevice(dev);
        cudaDeviceProp deviceProp;
        cudaGetDeviceProperties(&deviceProp, dev);
        printf("\nDevice %d: \"%s\"\n", dev, deviceProp.name);
        cudaDriverGetVersion(&driverVersion);
        cudaRuntimeGetVersion(&runtimeVersion);
        printf("  CUDA Driver Version / Runtime Version          %d.%d / %d.%d\n", driverVersion / 1000,
               (driverVersion % 100) / 10, runtimeVersion / 1000, (runtimeVersion % 100) / 10);
        printf("  CUDA Capability Major/Minor version number:    %d.%d\n", deviceProp.major, deviceProp.minor);
        printf("  Total amount of global memory:                 %.0f MBytes (%llu bytes)\n",
               static_cast<float>(deviceProp.totalGlobalMem / 1048576.0f), (unsigned long long)deviceProp.totalGlobalMem);
        printf("  (%03d) Multiprocessors\n", deviceProp.multiProcessorCount);
        int clockRate = 0, memoryClock = 0, memBusWidth = 0;
        cudaDeviceGetAttribute(&clockRate, cudaDevAttrClockRate, dev);
        cudaDeviceGetAttribute(&memoryClock, cudaDevAttrMemoryClockRate, dev);
        cudaDeviceGetAttribute(&memBusWidth, cudaDevAttrGlobalMemoryBusWidth, dev);
        printf("  GPU Max Clock rate:                            %.0f MHz (%0.2f GHz)\n", clockRate * 1e-3f,
               clockRate * 1e-6f);
        printf("  Memory Clock rate:                             %.0f Mhz\n", memoryClock * 1e-3f);
        printf("  Memory Bus Width:                              %d-bit\n", memBusWidth);
        if (deviceProp.l2CacheSize) printf("  L2 Cache Size:                                 %d bytes\n", deviceProp.l2CacheSize);
        printf("  Total amount of constant memory:               %zu bytes\n", deviceProp.totalConstMem);
        printf("  Total amount of shared memory per block:       %zu bytes\n", deviceProp.sharedMemPerBlock);
        printf("  Total shared memory per multiprocessor:        %zu bytes\n", deviceProp.sharedMemPerMultiprocessor);
        printf("  Total number of registers available per block: %d\n", deviceProp.regsPerBlock);
        printf("  Warp size:                                     %d\n", deviceProp.warpSize);
        printf("  Maximum number of threads per multiprocessor:  %d\n", deviceProp.maxThreadsPerMultiProcessor);
        printf("  Maximum number of threads per block:           %d\n", deviceProp.maxThreadsPerBlock);
        printf("  Max dimension size of a thread block (x,y,z): (%d, %d, %d)\n", deviceProp.maxThreadsDim[0],
               deviceProp.maxThreadsDim[1], deviceProp.maxThreadsDim[2]);
        printf("  Max dimension size of a grid size    (x,y,z): (%d, %d, %d)\n", deviceProp.maxGridSize[0],
               deviceProp.maxGridSize[1], deviceProp.maxGridSize[2]);
        printf("  Maximum memory pitch:                          %zu bytes\n", deviceProp.memPitch);
        printf("  Texture alignment:                             %zu bytes\n", deviceProp.textureAlignment);
        printf("  Concurrent copy and kernel execution:          %s with %d copy engine(s)\n",
               (deviceProp.asyncEngineCount ? "Yes" : "No"), deviceProp.asyncEngineCount);
        printf("  Device has ECC support:                        %s\n", deviceProp.ECCEnabled ? "Enabled" : "Disabled");
        printf("  Device supports Unified Addressing (UVA):      %s\n", deviceProp.unifiedAddressing ? "Yes" : "No");
        printf("  Device supports Managed Memory:                %s\n", deviceProp.managedMemory ? "Yes" : "No");
        printf("  Supports Cooperative Kernel Launch:            %s\n", deviceProp.cooperativeLaunch ? "Yes" : "No");
        printf("  Device PCI Domain ID / Bus ID / location ID:   %d / %d / %d\n", deviceProp.pciDomainID,
               deviceProp.pciBusID, deviceProp.pciDeviceID);

        // Properties and attributes agree.
        int v;
        EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess &&
               v == deviceProp.multiProcessorCount);
        EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, dev) == cudaSuccess &&
               v == deviceProp.maxThreadsPerBlock);
        EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMajor, dev) == cudaSuccess && v == deviceProp.major);
        EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrComputeCapabilityMinor, dev) == cudaSuccess && v == deviceProp.minor);
        EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, dev) == cudaSuccess && v == 32);
        EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, dev) == cudaSuccess &&
               (size_t)v == deviceProp.sharedMemPerBlock);
        EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerMultiProcessor, dev) == cudaSuccess &&
               v == deviceProp.maxThreadsPerMultiProcessor);
        EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, dev) == cudaSuccess && v == deviceProp.l2CacheSize);
        EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrCooperativeLaunch, dev) == cudaSuccess &&
               v == deviceProp.cooperativeLaunch);
        EXPECT(cudaDeviceGetAttribute(&v, cudaDevAttrManagedMemory, dev) == cudaSuccess && v == deviceProp.managedMemory);
        EXPECT(deviceProp.multiProcessorCount > 0 && deviceProp.warpSize == 32 && deviceProp.major >= 3);
        EXPECT(clockRate > 0 && memoryClock > 0 && memBusWidth > 0);
        EXPECT(deviceProp.totalGlobalMem > 0 && strlen(deviceProp.name) > 0);
        EXPECT(driverVersion >= runtimeVersion && runtimeVersion >= 12000);
        size_t freeMem = 0, totalMem = 0;
        EXPECT(cudaMemGetInfo(&freeMem, &totalMem) == cudaSuccess && totalMem == deviceProp.totalGlobalMem &&
               freeMem <= totalMem);
        int least = 0, greatest = 0;
        EXPECT(cudaDeviceGetStreamPriorityRange(&least, &greatest) == cudaSuccess && greatest <= least);
        size_t stack = 0, heap = 0;
        EXPECT(cudaDeviceGetLimit(&stack, cudaLimitStackSize) == cudaSuccess && stack > 0);
        EXPECT(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize) == cudaSuccess);
        EXPECT(cudaDeviceSetLimit(cudaLimitStackSize, 4096) == cudaSuccess);
        EXPECT(cudaDeviceGetLimit(&stack, cudaLimitStackSize) == cudaSuccess && stack == 4096);
        int canAccessPeer = 1;
        EXPECT(cudaDeviceCanAccessPeer(&canAccessPeer, 0, 0) == cudaSuccess && canAccessPeer == 0);
    }
    EXPECT(cudaSetDevice(deviceCount) == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaErrorInvalidDevice);
    EXPECT(cudaGetLastError() == cudaSuccess);
    printf("\ndeviceQuery, CUDA Driver = CUDART, CUDA Driver Version = %d.%d, NumDevs = %d\n", driverVersion / 1000,
           (driverVersion % 100) / 10, deviceCount);
    if (failures) {
        printf("Result = FAIL (%d)\n", failures);
        return 1;
    }
    printf("Result = PASS\nPASSED device_query\n");
    return 0;
}
