// SPDX-License-Identifier: Apache-2.0
// The device as the preset describes it, versions, errors, and the calls stacksim does not serve.
#include <fmt/format.h>

#include <cstring>
#include <iterator>

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

// Names and texts of CUDA 13's cudaError_t values (as its runtime gives them).
const ErrorText kErrors[] = {
    {0, "cudaSuccess", "no error"},
    {1, "cudaErrorInvalidValue", "invalid argument"},
    {2, "cudaErrorMemoryAllocation", "out of memory"},
    {3, "cudaErrorInitializationError", "initialization error"},
    {4, "cudaErrorCudartUnloading", "driver shutting down"},
    {5, "cudaErrorProfilerDisabled", "profiler disabled while using external profiling tool"},
    {6, "cudaErrorProfilerNotInitialized", "profiler not initialized: call cudaProfilerInitialize()"},
    {7, "cudaErrorProfilerAlreadyStarted", "profiler already started"},
    {8, "cudaErrorProfilerAlreadyStopped", "profiler already stopped"},
    {9, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {12, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {13, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {16, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {17, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {18, "cudaErrorInvalidTexture", "invalid texture reference"},
    {19, "cudaErrorInvalidTextureBinding", "texture is not bound to a pointer"},
    {20, "cudaErrorInvalidChannelDescriptor", "invalid channel descriptor"},
    {21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {22, "cudaErrorAddressOfConstant", "invalid address of constant"},
    {23, "cudaErrorTextureFetchFailed", "fetch from texture failed"},
    {24, "cudaErrorTextureNotBound", "cannot fetch from a texture that is not bound"},
    {25, "cudaErrorSynchronizationError", "incorrect use of __syncthreads()"},
    {26, "cudaErrorInvalidFilterSetting", "linear filtering not supported for non-float type"},
    {27, "cudaErrorInvalidNormSetting", "read as normalized float not supported for data type"},
    {28, "cudaErrorMixedDeviceExecution", "device emulation mode and device execution mode cannot be mixed"},
    {31, "cudaErrorNotYetImplemented", "feature not yet implemented"},
    {32, "cudaErrorMemoryValueTooLarge", "memory size or pointer value too large to fit in 32 bit"},
    {34, "cudaErrorStubLibrary", "CUDA driver is a stub library"},
    {35, "cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version"},
    {36, "cudaErrorCallRequiresNewerDriver", "API call is not supported in the installed CUDA driver"},
    {37, "cudaErrorInvalidSurface", "invalid surface reference"},
    {43, "cudaErrorDuplicateVariableName", "duplicate global variable looked up by string name"},
    {44, "cudaErrorDuplicateTextureName", "duplicate texture looked up by string name"},
    {45, "cudaErrorDuplicateSurfaceName", "duplicate surface looked up by string name"},
    {46, "cudaErrorDevicesUnavailable", "CUDA-capable device(s) is/are busy or unavailable"},
    {49, "cudaErrorIncompatibleDriverContext", "incompatible driver context"},
    {52, "cudaErrorMissingConfiguration", "__global__ function call is not configured"},
    {53, "cudaErrorPriorLaunchFailure", "unspecified launch failure in prior launch"},
    {65, "cudaErrorLaunchMaxDepthExceeded", "launch would exceed maximum depth of nested launches"},
    {66, "cudaErrorLaunchFileScopedTex", "launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)"},
    {67, "cudaErrorLaunchFileScopedSurf", "launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)"},
    {68, "cudaErrorSyncDepthExceeded", "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth"},
    {69, "cudaErrorLaunchPendingCountExceeded", "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount"},
    {98, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {100, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {101, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {102, "cudaErrorDeviceNotLicensed", "device doesn't have valid Grid license"},
    {103, "cudaErrorSoftwareValidityNotEstablished", "integrity checks failed"},
    {127, "cudaErrorStartupFailure", "startup failure in cuda runtime"},
    {200, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {201, "cudaErrorDeviceUninitialized", "invalid device context"},
    {205, "cudaErrorMapBufferObjectFailed", "mapping of buffer object failed"},
    {206, "cudaErrorUnmapBufferObjectFailed", "unmapping of buffer object failed"},
    {207, "cudaErrorArrayIsMapped", "array is mapped"},
    {208, "cudaErrorAlreadyMapped", "resource already mapped"},
    {209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
    {210, "cudaErrorAlreadyAcquired", "resource already acquired"},
    {211, "cudaErrorNotMapped", "resource not mapped"},
    {212, "cudaErrorNotMappedAsArray", "resource not mapped as array"},
    {213, "cudaErrorNotMappedAsPointer", "resource not mapped as pointer"},
    {214, "cudaErrorECCUncorrectable", "uncorrectable ECC error encountered"},
    {215, "cudaErrorUnsupportedLimit", "limit is not supported on this architecture"},
    {216, "cudaErrorDeviceAlreadyInUse", "exclusive-thread device already in use by a different thread"},
    {217, "cudaErrorPeerAccessUnsupported", "peer access is not supported between these two devices"},
    {218, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {219, "cudaErrorInvalidGraphicsContext", "invalid OpenGL or DirectX context"},
    {220, "cudaErrorNvlinkUncorrectable", "uncorrectable NVLink error detected during the execution"},
    {221, "cudaErrorJitCompilerNotFound", "PTX JIT compiler library not found"},
    {222, "cudaErrorUnsupportedPtxVersion", "the provided PTX was compiled with an unsupported toolchain."},
    {223, "cudaErrorJitCompilationDisabled", "PTX JIT compilation was disabled"},
    {224, "cudaErrorUnsupportedExecAffinity", "the provided execution affinity is not supported"},
    {225, "cudaErrorUnsupportedDevSideSync", "the provided PTX contains unsupported call to cudaDeviceSynchronize"},
    {226, "cudaErrorContained", "Invalid access of peer GPU memory over nvlink or a hardware error"},
    {300, "cudaErrorInvalidSource", "device kernel image is invalid"},
    {301, "cudaErrorFileNotFound", "file not found"},
    {302, "cudaErrorSharedObjectSymbolNotFound", "shared object symbol not found"},
    {303, "cudaErrorSharedObjectInitFailed", "shared object initialization failed"},
    {304, "cudaErrorOperatingSystem", "OS call failed or operation not supported on this OS"},
    {400, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {401, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {402, "cudaErrorLossyQuery", "attempted introspection would be semantically lossy"},
    {500, "cudaErrorSymbolNotFound", "named symbol not found"},
    {600, "cudaErrorNotReady", "device not ready"},
    {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {702, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {703, "cudaErrorLaunchIncompatibleTexturing", "launch uses incompatible texturing mode"},
    {704, "cudaErrorPeerAccessAlreadyEnabled", "peer access is already enabled"},
    {705, "cudaErrorPeerAccessNotEnabled", "peer access has not been enabled"},
    {708, "cudaErrorSetOnActiveProcess", "cannot set while device is active in this process"},
    {709, "cudaErrorContextIsDestroyed", "context is destroyed"},
    {710, "cudaErrorAssert", "device-side assert triggered"},
    {711, "cudaErrorTooManyPeers", "peer mapping resources exhausted"},
    {712, "cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"},
    {713, "cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"},
    {714, "cudaErrorHardwareStackError", "hardware stack error"},
    {715, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {716, "cudaErrorMisalignedAddress", "misaligned address"},
    {717, "cudaErrorInvalidAddressSpace", "operation not supported on global/shared address space"},
    {718, "cudaErrorInvalidPc", "invalid program counter"},
    {719, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {720, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
    {721, "cudaErrorTensorMemoryLeak", "tensor memory not completely freed"},
    {800, "cudaErrorNotPermitted", "operation not permitted"},
    {801, "cudaErrorNotSupported", "operation not supported"},
    {802, "cudaErrorSystemNotReady", "system not yet initialized"},
    {803, "cudaErrorSystemDriverMismatch", "system has unsupported display driver / cuda driver combination"},
    {804, "cudaErrorCompatNotSupportedOnDevice", "forward compatibility was attempted on non supported HW"},
    {805, "cudaErrorMpsConnectionFailed", "MPS client failed to connect to the MPS control daemon or the MPS server"},
    {806, "cudaErrorMpsRpcFailure", "the remote procedural call between the MPS server and the MPS client failed"},
    {807, "cudaErrorMpsServerNotReady", "MPS server is not ready to accept new MPS client requests"},
    {808, "cudaErrorMpsMaxClientsReached", "the hardware resources required to create MPS client have been exhausted"},
    {809, "cudaErrorMpsMaxConnectionsReached", "the hardware resources required to support device connections have been exhausted"},
    {810, "cudaErrorMpsClientTerminated", "the MPS client has been terminated by the server"},
    {811, "cudaErrorCdpNotSupported", "is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it"},
    {812, "cudaErrorCdpVersionMismatch", "unsupported interaction between different versions of CUDA Dynamic Parallelism"},
    {900, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
    {901, "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture"},
    {902, "cudaErrorStreamCaptureMerge", "operation would result in a merge of separate capture sequences"},
    {903, "cudaErrorStreamCaptureUnmatched", "capture was not ended in the same stream as it began"},
    {904, "cudaErrorStreamCaptureUnjoined", "capturing stream has unjoined work"},
    {905, "cudaErrorStreamCaptureIsolation", "dependency created on uncaptured work in another stream"},
    {906, "cudaErrorStreamCaptureImplicit", "operation would make the legacy stream depend on a capturing blocking stream"},
    {907, "cudaErrorCapturedEvent", "operation not permitted on an event last recorded in a capturing stream"},
    {908, "cudaErrorStreamCaptureWrongThread", "attempt to terminate a thread-local capture sequence from another thread"},
    {909, "cudaErrorTimeout", "wait operation timed out"},
    {910, "cudaErrorGraphExecUpdateFailure", "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"},
    {911, "cudaErrorExternalDevice", "an async error has occured in external entity outside of CUDA"},
    {912, "cudaErrorInvalidClusterSize", "a kernel launch error has occurred due to cluster misconfiguration"},
    {913, "cudaErrorFunctionNotLoaded", "the function handle is not loaded when calling an API that requires a loaded function"},
    {914, "cudaErrorInvalidResourceType", "one or more resources passed in are not valid resource types for the operation"},
    {915, "cudaErrorInvalidResourceConfiguration", "one or more resources are insufficient or non-applicable for the operation"},
    {999, "cudaErrorUnknown", "unknown error"},
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
    case 19: return 1;  // can map host memory (cudaHostAllocMapped)
    case 31: return 1;  // concurrent kernels
    case 36:  // cudaDevAttrMemoryClockRate, kHz
        return c.mem.model == top::MemoryModel::Simple || c.dram.name == "fixed"
                   ? 1000 * 1000
                   : static_cast<long>(c.dram.clock_mhz * 1000);
    case 37:  // cudaDevAttrGlobalMemoryBusWidth, bits (of all partitions)
        return c.mem.model == top::MemoryModel::Simple || c.dram.name == "fixed"
                   ? static_cast<long>(c.memory.bandwidth_gbps * 4)  // DDR at 1 GHz
                   : static_cast<long>(c.dram.bus_bits * c.address_map.partitions);
    case 38: return static_cast<long>(c.l2.size_bytes * c.address_map.partitions);  // L2 bytes
    case 39: return sm.max_threads;
    case 40: return 1;  // async engines
    case 41: return 1;  // unified addressing
    case 75: return kMajor;
    case 76: return kMinor;
    case 81: return sm.shared_memory_bytes;
    case 82: return sm.registers;
    case 83: return 1;  // managed memory: cudaMallocManaged works in every uvm.mode (plain memory when off)
    case 89: return c.uvm.mode != memory::UvmMode::Off;  // concurrent managed access: demand paging
    case 95: return 1;  // cooperative launch (cudaLaunchCooperativeKernel)
    case 97: return sm.shared_memory_bytes;
    case 106: return sm.max_ctas;
    default: return -1;
    }
}

/// cudaLimit values as CUDA's defaults: stack size, printf FIFO, malloc heap, device-runtime
/// sync depth, pending launches, L2 fetch granularity, persisting L2 size.
size_t g_limits[] = {1024, 1 << 20, 8 << 20, 2, 2048, 64, 0};

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
    p->managedMemory = 1;
    p->concurrentManagedAccess = c.uvm.mode != memory::UvmMode::Off;
    p->computePreemptionSupported = 1;
    p->sharedMemPerBlockOptin = c.sm.shared_memory_bytes;
    p->maxBlocksPerMultiProcessor = static_cast<int>(c.sm.max_ctas);
    p->globalL1CacheSupported = 1;
    p->cooperativeLaunch = 1;
    p->canMapHostMemory = 1;
    p->memoryBusWidth = static_cast<int>(attribute(c, 37));
    p->pciBusID = 1;
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
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!value || limit < 0 || limit >= static_cast<int>(std::size(g_limits))) return rt.set_error(cudaErrorInvalidValue);
    *value = g_limits[limit];
    return cudaSuccess;
}

cudaError_t cudaDeviceSetLimit(int limit, size_t value) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (limit < 0 || limit >= static_cast<int>(std::size(g_limits))) return rt.set_error(cudaErrorInvalidValue);
    g_limits[limit] = value;  // remembered and reported; the simulator has no such limits (docs)
    return cudaSuccess;
}

cudaError_t cudaDeviceGetCacheConfig(int* config) {
    if (!config) return Runtime::get().set_error(cudaErrorInvalidValue);
    *config = 0;  // cudaFuncCachePreferNone
    return cudaSuccess;
}

cudaError_t cudaDeviceGetSharedMemConfig(int* config) {
    if (!config) return Runtime::get().set_error(cudaErrorInvalidValue);
    *config = 1;  // cudaSharedMemBankSizeFourByte
    return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(int config) {
    (void)config;
    return cudaSuccess;  // a preference (deprecated in CUDA)
}

cudaError_t cudaFuncSetSharedMemConfig(const void* func, int config) {
    (void)func, (void)config;
    return cudaSuccess;  // a preference (deprecated in CUDA)
}

cudaError_t cudaInitDevice(int device, unsigned device_flags, unsigned flags) {
    (void)device_flags, (void)flags;
    return cudaSetDevice(device);
}

cudaError_t cudaSetValidDevices(int* devices, int n) {
    if (n < 0 || (n > 0 && !devices)) return Runtime::get().set_error(cudaErrorInvalidValue);
    for (int i = 0; i < n; ++i)
        if (devices[i] != 0) return Runtime::get().set_error(cudaErrorInvalidDevice);
    return cudaSuccess;
}

cudaError_t cudaDeviceGetPCIBusId(char* id, int len, int device) {
    if (!id || len <= 0) return Runtime::get().set_error(cudaErrorInvalidValue);
    if (device != 0) return Runtime::get().set_error(cudaErrorInvalidDevice);
    copy_name(id, static_cast<size_t>(len), "0000:01:00.0");  // the pciBusID cudaGetDeviceProperties reports
    return cudaSuccess;
}

cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* id) {
    if (!device || !id) return Runtime::get().set_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer) {
    auto& rt = Runtime::get();
    if (!can) return rt.set_error(cudaErrorInvalidValue);
    if (device != 0 || peer != 0) return rt.set_error(cudaErrorInvalidDevice);
    *can = 0;  // one device
    return cudaSuccess;
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
STACKSIM_UNSUPPORTED(cudaMemcpyPeer)
STACKSIM_UNSUPPORTED(cudaMemcpyPeerAsync)
STACKSIM_UNSUPPORTED(cudaMalloc3DArray)
STACKSIM_UNSUPPORTED(cudaCreateSurfaceObject)
STACKSIM_UNSUPPORTED(cudaDestroySurfaceObject)
STACKSIM_UNSUPPORTED(cudaDeviceEnablePeerAccess)
STACKSIM_UNSUPPORTED(cudaGetDeviceProperties_v2)
STACKSIM_UNSUPPORTED(cudaGetFuncBySymbol)
STACKSIM_UNSUPPORTED(cudaGetDriverEntryPoint)
STACKSIM_UNSUPPORTED(cudaGetDriverEntryPointByVersion)
STACKSIM_UNSUPPORTED(cudaIpcGetMemHandle)
STACKSIM_UNSUPPORTED(cudaIpcOpenMemHandle)
STACKSIM_UNSUPPORTED(cudaIpcCloseMemHandle)

cudaError_t cudaProfilerStart() { return cudaSuccess; }  // the whole run is recorded
cudaError_t cudaProfilerStop() { return cudaSuccess; }

}  // extern "C"
