// SPDX-License-Identifier: Apache-2.0
// The device as the preset describes it, versions, errors, and the calls stacksim does not serve.
#include <fmt/format.h>

#include <cstring>

#include "cudart/api_common.h"

using stacksim::cudart::Runtime;
using namespace stacksim;

namespace {

/// Compute capability reported: nvcc 13's oldest target, whose PTX every preset runs.
constexpr int kMajor = 7, kMinor = 5;
constexpr int kRuntimeVersion = 13000;

struct ErrorText {
    cudaError_t code;
    const char* name;
    const char* text;
};

const ErrorText kErrors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {cudaErrorMissingConfiguration, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorInvalidKernelImage, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {cudaErrorInvalidPtx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorSymbolNotFound, "cudaErrorSymbolNotFound", "named symbol not found"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

const ErrorText* find_error(cudaError_t e) {
    for (const auto& x : kErrors)
        if (x.code == e) return &x;
    return nullptr;
}

void copy_name(char* dst, size_t n, const std::string& s) {
    std::memset(dst, 0, n);
    std::memcpy(dst, s.data(), std::min(n - 1, s.size()));
}

/// Value of a cudaDeviceAttr, or -1 for one the preset does not describe.
long attribute(const top::RunConfig& c, int attr) {
    const auto& sm = c.sm;
    switch (attr) {
    case 1: return 1024;  // cudaDevAttrMaxThreadsPerBlock
    case 2: case 3: return 1024;
    case 4: return 64;
    case 5: return 0x7fffffff;
    case 6: case 7: return 65535;
    case 8: return 48 * 1024;  // cudaDevAttrMaxSharedMemoryPerBlock
    case 9: return 64 * 1024;  // cudaDevAttrTotalConstantMemory
    case 10: return 32;        // cudaDevAttrWarpSize
    case 12: return sm.registers;
    case 13: return static_cast<long>(c.gpu.core_clock_mhz * 1000);  // cudaDevAttrClockRate, kHz
    case 16: return c.gpu.num_sms;
    case 18: return 0;  // integrated
    case 31: return 1;  // concurrent kernels
    case 38: return static_cast<long>(c.l2.size_bytes * c.address_map.partitions);  // L2 bytes
    case 39: return sm.max_threads;
    case 40: return 1;  // async engines
    case 41: return 1;  // unified addressing
    case 75: return kMajor;
    case 76: return kMinor;
    case 81: return sm.shared_memory_bytes;
    case 82: return sm.registers;
    case 83: return c.uvm.mode != memory::UvmMode::Off;  // managed memory
    case 95: return 0;  // cooperative launch
    case 97: return sm.shared_memory_bytes;
    case 106: return sm.max_ctas;
    default: return -1;
    }
}

}  // namespace

extern "C" {

cudaError_t cudaGetDeviceCount(int* count) {
    if (!count) return Runtime::get().set_error(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
    return device == 0 ? cudaSuccess : Runtime::get().set_error(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDevice(int* device) {
    if (!device) return Runtime::get().set_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDeviceFlags(unsigned flags) {
    (void)flags;
    return cudaSuccess;
}

cudaError_t cudaGetDeviceFlags(unsigned* flags) {
    if (!flags) return Runtime::get().set_error(cudaErrorInvalidValue);
    *flags = 0;
    return cudaSuccess;
}

cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp* prop) {
    (void)prop;
    return cudaGetDevice(device);
}

cudaError_t cudaDeviceGetAttribute(int* value, int attr, int device) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!value) return rt.set_error(cudaErrorInvalidValue);
    if (device != 0) return rt.set_error(cudaErrorInvalidDevice);
    const top::RunConfig* cfg = rt.config();
    if (!cfg) return rt.set_error(cudaErrorInitializationError);
    const long v = attribute(*cfg, attr);
    *value = v < 0 ? 0 : static_cast<int>(v);
    return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* p, int device) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!p) return rt.set_error(cudaErrorInvalidValue);
    if (device != 0) return rt.set_error(cudaErrorInvalidDevice);
    const top::RunConfig* cfg = rt.config();
    if (!cfg) return rt.set_error(cudaErrorInitializationError);
    const top::RunConfig& c = *cfg;
    std::memset(p, 0, sizeof *p);
    copy_name(p->name, sizeof p->name, fmt::format("stacksim {}", rt.config_name()));
    p->totalGlobalMem = cudart::kDeviceMemoryBytes;
    p->sharedMemPerBlock = 48 * 1024;
    p->regsPerBlock = static_cast<int>(c.sm.registers);
    p->warpSize = 32;
    p->memPitch = 0x7fffffff;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 0x7fffffff;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->totalConstMem = 64 * 1024;
    p->major = kMajor;
    p->minor = kMinor;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = static_cast<int>(c.gpu.num_sms);
    p->concurrentKernels = 1;
    p->asyncEngineCount = 1;
    p->unifiedAddressing = 1;
    p->l2CacheSize = static_cast<int>(attribute(c, 38));
    p->maxThreadsPerMultiProcessor = static_cast<int>(c.sm.max_threads);
    p->sharedMemPerMultiprocessor = c.sm.shared_memory_bytes;
    p->regsPerMultiprocessor = static_cast<int>(c.sm.registers);
    p->managedMemory = c.uvm.mode != memory::UvmMode::Off;
    p->concurrentManagedAccess = p->managedMemory;
    p->computePreemptionSupported = 1;
    p->sharedMemPerBlockOptin = c.sm.shared_memory_bytes;
    p->maxBlocksPerMultiProcessor = static_cast<int>(c.sm.max_ctas);
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    return cudaSuccess;
}

cudaError_t cudaDeviceReset() {
    cudaError_t e = cudaDeviceSynchronize();
    return e;  // one simulated context per process: the state stays (docs)
}

cudaError_t cudaDriverGetVersion(int* v) {
    if (!v) return Runtime::get().set_error(cudaErrorInvalidValue);
    *v = kRuntimeVersion;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int* v) { return cudaDriverGetVersion(v); }

cudaError_t cudaGetLastError() {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    return rt.take_error();
}

cudaError_t cudaPeekAtLastError() {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    return rt.peek_error();
}

const char* cudaGetErrorString(cudaError_t e) {
    const ErrorText* t = find_error(e);
    return t ? t->text : "unrecognized error code";
}

const char* cudaGetErrorName(cudaError_t e) {
    const ErrorText* t = find_error(e);
    return t ? t->name : "cudaErrorUnknown";
}

cudaError_t cudaDeviceSetCacheConfig(int config) {
    (void)config;
    return cudaSuccess;  // a preference; the simulated L1/shared split is the preset's
}

cudaError_t cudaDeviceGetLimit(size_t* value, int limit) {
    (void)limit;
    if (!value) return Runtime::get().set_error(cudaErrorInvalidValue);
    *value = 0;
    return Runtime::get().unsupported("cudaDeviceGetLimit");
}

/// The simulator's SystemC library calls sc_main from its own main(), which a CUDA program
/// replaces; the symbol must exist for the library to load.
int sc_main(int, char**) {
    Runtime::say("sc_main called: stacksim's runtime library has no main program");
    return 1;
}

#define STACKSIM_UNSUPPORTED(name)                 \
    cudaError_t name() {                           \
        auto& rt = Runtime::get();                 \
        auto lk = rt.lock();                       \
        return rt.unsupported(#name);              \
    }

// Textures arrive with the texture work (HostApi::create_texture_object); the rest is not
// modelled. The symbol calls are in api_symbol.cpp.
STACKSIM_UNSUPPORTED(cudaLaunchCooperativeKernel)
STACKSIM_UNSUPPORTED(cudaLaunchHostFunc)
STACKSIM_UNSUPPORTED(cudaStreamAddCallback)
STACKSIM_UNSUPPORTED(cudaMemcpy3D)
STACKSIM_UNSUPPORTED(cudaMemcpy3DAsync)
STACKSIM_UNSUPPORTED(cudaMemcpyPeer)
STACKSIM_UNSUPPORTED(cudaMemcpyPeerAsync)
STACKSIM_UNSUPPORTED(cudaMemcpyToArray)
STACKSIM_UNSUPPORTED(cudaMemcpy2DToArray)
STACKSIM_UNSUPPORTED(cudaMemcpyFromArray)
STACKSIM_UNSUPPORTED(cudaMemcpy2DFromArray)
STACKSIM_UNSUPPORTED(cudaMallocArray)
STACKSIM_UNSUPPORTED(cudaMalloc3D)
STACKSIM_UNSUPPORTED(cudaMalloc3DArray)
STACKSIM_UNSUPPORTED(cudaFreeArray)
STACKSIM_UNSUPPORTED(cudaCreateChannelDesc)
STACKSIM_UNSUPPORTED(cudaCreateTextureObject)
STACKSIM_UNSUPPORTED(cudaDestroyTextureObject)
STACKSIM_UNSUPPORTED(cudaCreateSurfaceObject)
STACKSIM_UNSUPPORTED(cudaDestroySurfaceObject)
STACKSIM_UNSUPPORTED(cudaHostRegister)
STACKSIM_UNSUPPORTED(cudaHostUnregister)
STACKSIM_UNSUPPORTED(cudaHostGetDevicePointer)
STACKSIM_UNSUPPORTED(cudaPointerGetAttributes)
STACKSIM_UNSUPPORTED(cudaMallocAsync)
STACKSIM_UNSUPPORTED(cudaFreeAsync)
STACKSIM_UNSUPPORTED(cudaDeviceSetLimit)
STACKSIM_UNSUPPORTED(cudaDeviceEnablePeerAccess)
STACKSIM_UNSUPPORTED(cudaDeviceCanAccessPeer)
STACKSIM_UNSUPPORTED(cudaGetDeviceProperties_v2)
STACKSIM_UNSUPPORTED(cudaStreamBeginCapture)
STACKSIM_UNSUPPORTED(cudaStreamEndCapture)
STACKSIM_UNSUPPORTED(cudaGraphCreate)
STACKSIM_UNSUPPORTED(cudaGraphInstantiate)
STACKSIM_UNSUPPORTED(cudaGraphLaunch)
STACKSIM_UNSUPPORTED(cudaGraphDestroy)
STACKSIM_UNSUPPORTED(cudaGraphExecDestroy)
STACKSIM_UNSUPPORTED(cudaLaunchKernelExC)
STACKSIM_UNSUPPORTED(cudaFuncGetName)
STACKSIM_UNSUPPORTED(cudaGetFuncBySymbol)
STACKSIM_UNSUPPORTED(cudaGetDriverEntryPoint)
STACKSIM_UNSUPPORTED(cudaGetDriverEntryPointByVersion)
STACKSIM_UNSUPPORTED(cudaIpcGetMemHandle)
STACKSIM_UNSUPPORTED(cudaIpcOpenMemHandle)
STACKSIM_UNSUPPORTED(cudaIpcCloseMemHandle)

cudaError_t cudaProfilerStart() { return cudaSuccess; }  // the whole run is recorded
cudaError_t cudaProfilerStop() { return cudaSuccess; }

}  // extern "C"
