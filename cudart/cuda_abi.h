// SPDX-License-Identifier: Apache-2.0
// The parts of the CUDA runtime's binary interface (CUDA 13) that programs pass to the library.
#pragma once
#include <cstddef>
#include <cstdint>

// Declared here from the public CUDA runtime API reference: the library is built without CUDA's
// headers (a user's machine may have no CUDA toolkit). Values and layouts are those of CUDA 13.
extern "C" {

using cudaError_t = int;
using cudaStream_t = struct CUstream_st*;
using cudaEvent_t = struct CUevent_st*;
using cudaKernel_t = struct CUkern_st*;
using cudaGraph_t = struct CUgraph_st*;
using cudaGraphNode_t = struct CUgraphNode_st*;
using cudaGraphExec_t = struct CUgraphExec_st*;

struct dim3 {
    unsigned x, y, z;
};

enum : int {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorCudartUnloading = 4,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidHostPointer = 16,
    cudaErrorInvalidTexture = 18,
    cudaErrorInvalidChannelDescriptor = 20,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorMissingConfiguration = 52,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidKernelImage = 200,
    cudaErrorNoKernelImageForDevice = 209,
    cudaErrorInvalidPtx = 218,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorIllegalState = 401,
    cudaErrorSymbolNotFound = 500,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorAssert = 710,
    cudaErrorHostMemoryAlreadyRegistered = 712,
    cudaErrorHostMemoryNotRegistered = 713,
    cudaErrorLaunchFailure = 719,
    cudaErrorCooperativeLaunchTooLarge = 720,
    cudaErrorNotSupported = 801,
    cudaErrorStreamCaptureUnsupported = 900,
    cudaErrorStreamCaptureInvalidated = 901,
    cudaErrorStreamCaptureMerge = 902,
    cudaErrorStreamCaptureUnmatched = 903,
    cudaErrorStreamCaptureUnjoined = 904,
    cudaErrorStreamCaptureIsolation = 905,
    cudaErrorStreamCaptureImplicit = 906,
    cudaErrorCapturedEvent = 907,
    cudaErrorUnknown = 999,
};

enum cudaMemcpyKind : int {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

/// cudaStreamNonBlocking, cudaEventDisableTiming.
constexpr unsigned kStreamNonBlocking = 1;
constexpr unsigned kEventDisableTiming = 2;

struct cudaUUID_t {
    char bytes[16];
};

/// CUDA 13's cudaDeviceProp (CUDA 12's differs: it has clockRate and others, removed in 13).
struct cudaDeviceProp {
    char name[256];
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int multiProcessorCount;
    int integrated;
    int canMapHostMemory;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int deviceNumaConfig;
    int deviceNumaId;
    int mpsEnabled;
    int hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};

struct cudaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth;
    int requiredClusterHeight;
    int requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
};

enum cudaChannelFormatKind : int {
    cudaChannelFormatKindSigned = 0,
    cudaChannelFormatKindUnsigned = 1,
    cudaChannelFormatKindFloat = 2,
    cudaChannelFormatKindNone = 3,
};

struct cudaChannelFormatDesc {
    int x, y, z, w;  ///< bits per component
    int f;           ///< cudaChannelFormatKind
};

enum cudaResourceType : int {
    cudaResourceTypeArray = 0,
    cudaResourceTypeMipmappedArray = 1,
    cudaResourceTypeLinear = 2,
    cudaResourceTypePitch2D = 3,
};

struct cudaResourceDesc {
    int resType;  ///< cudaResourceType
    union {
        struct {
            void* array;
        } array;
        struct {
            void* mipmap;
        } mipmap;
        struct {
            void* devPtr;
            cudaChannelFormatDesc desc;
            size_t sizeInBytes;
        } linear;
        struct {
            void* devPtr;
            cudaChannelFormatDesc desc;
            size_t width;
            size_t height;
            size_t pitchInBytes;
        } pitch2D;
        struct {
            int reserved[32];
        } reserved;
    } res;
    unsigned int flags;
};

struct cudaTextureDesc {
    int addressMode[3];  ///< cudaTextureAddressMode: wrap, clamp, mirror, border
    int filterMode;      ///< cudaTextureFilterMode: point, linear
    int readMode;        ///< cudaTextureReadMode: element type, normalized float
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned int maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int seamlessCubemap;
};

using cudaTextureObject_t = unsigned long long;

enum cudaMemoryType : int {
    cudaMemoryTypeUnregistered = 0,
    cudaMemoryTypeHost = 1,
    cudaMemoryTypeDevice = 2,
    cudaMemoryTypeManaged = 3,
};

struct cudaPointerAttributes {
    int type;  ///< cudaMemoryType
    int device;
    void* devicePointer;
    void* hostPointer;
    long reserved[8];
};

using cudaHostFn_t = void (*)(void*);
using cudaStreamCallback_t = void (*)(cudaStream_t, cudaError_t, void*);

/// cudaLaunchAttribute: an attribute id and a 64-byte value (cooperative: an int; cluster
/// dimension: three unsigned).
struct cudaLaunchAttribute {
    int id;
    char pad[4];
    union {
        char bytes[64];
        int cooperative;
        struct {
            unsigned x, y, z;
        } clusterDim;
    } val;
};

/// cudaLaunchConfig_t (cudaLaunchKernelEx).
struct cudaLaunchConfig_t {
    dim3 gridDim;
    dim3 blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute* attrs;
    unsigned numAttrs;
};

// Graphs and stream capture (cudart/api_graph.cpp, cudart/api_capture.cpp).

struct cudaPos {
    size_t x, y, z;
};

/// make_cudaPitchedPtr: `pitch` bytes per row; `xsize`, `ysize` in elements (informative).
struct cudaPitchedPtr {
    void* ptr;
    size_t pitch;
    size_t xsize;
    size_t ysize;
};

/// make_cudaExtent: `width` in bytes for linear memory, `height` rows, `depth` slices.
struct cudaExtent {
    size_t width, height, depth;
};

struct cudaMemcpy3DParms {
    void* srcArray;  ///< cudaArray_t
    cudaPos srcPos;
    cudaPitchedPtr srcPtr;
    void* dstArray;  ///< cudaArray_t
    cudaPos dstPos;
    cudaPitchedPtr dstPtr;
    cudaExtent extent;
    int kind;  ///< cudaMemcpyKind
};

struct cudaKernelNodeParams {
    void* func;
    dim3 gridDim;
    dim3 blockDim;
    unsigned int sharedMemBytes;
    void** kernelParams;
    void** extra;
};

struct cudaMemsetParams {
    void* dst;
    size_t pitch;  ///< bytes per row; unused when height is 1
    unsigned int value;
    unsigned int elementSize;  ///< 1, 2 or 4 bytes
    size_t width;              ///< elements per row
    size_t height;
};

struct cudaHostNodeParams {
    cudaHostFn_t fn;
    void* userData;
};

/// Annotation of an edge (CUDA 12.3+): all zero is a full dependency, the only kind served.
struct cudaGraphEdgeData {
    unsigned char from_port;
    unsigned char to_port;
    unsigned char type;
    unsigned char reserved[5];
};

struct cudaGraphInstantiateParams {
    unsigned long long flags;
    cudaStream_t uploadStream;
    cudaGraphNode_t errNode_out;
    int result_out;  ///< cudaGraphInstantiateResult
};

enum cudaGraphNodeType : int {
    cudaGraphNodeTypeKernel = 0,
    cudaGraphNodeTypeMemcpy = 1,
    cudaGraphNodeTypeMemset = 2,
    cudaGraphNodeTypeHost = 3,
    cudaGraphNodeTypeGraph = 4,
    cudaGraphNodeTypeEmpty = 5,
};

enum cudaStreamCaptureStatus : int {
    cudaStreamCaptureStatusNone = 0,
    cudaStreamCaptureStatusActive = 1,
    cudaStreamCaptureStatusInvalidated = 2,
};

enum cudaStreamCaptureMode : int {
    cudaStreamCaptureModeGlobal = 0,
    cudaStreamCaptureModeThreadLocal = 1,
    cudaStreamCaptureModeRelaxed = 2,
};

// Stream-ordered memory pools and prefetch locations (cudart/api_mempool.cpp, api_memory.cpp).

enum cudaMemPoolAttr : int {
    cudaMemPoolReuseFollowEventDependencies = 1,
    cudaMemPoolReuseAllowOpportunistic = 2,
    cudaMemPoolReuseAllowInternalDependencies = 3,
    cudaMemPoolAttrReleaseThreshold = 4,
    cudaMemPoolAttrReservedMemCurrent = 5,
    cudaMemPoolAttrReservedMemHigh = 6,
    cudaMemPoolAttrUsedMemCurrent = 7,
    cudaMemPoolAttrUsedMemHigh = 8,
};

enum cudaMemLocationType : int {
    cudaMemLocationTypeInvalid = 0,
    cudaMemLocationTypeDevice = 1,
    cudaMemLocationTypeHost = 2,
};

/// Passed by value to cudaMemPrefetchAsync (CUDA 13).
struct cudaMemLocation {
    int type;  ///< cudaMemLocationType
    int id;
};

constexpr int cudaMemAccessFlagsProtReadWrite = 3;

/// The wrapper nvcc passes to __cudaRegisterFatBinary.
struct FatBinaryWrapper {
    int magic;    ///< 0x466243b1
    int version;  ///< 1
    const unsigned long long* data;  ///< the fatbinary container
    void* filename_or_fatbins;
};

}  // extern "C"
