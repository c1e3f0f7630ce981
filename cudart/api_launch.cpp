// SPDX-License-Identifier: Apache-2.0
// Registration of the program's device code (nvcc's static constructors) and kernel launches.
#include <fmt/format.h>

#include <cstring>

#include "core/occupancy.h"
#include "cudart/api_common.h"
#include "cudart/stream_capture.h"

using stacksim::cudart::Runtime;

static_assert(sizeof(cudaLaunchAttribute) == 72 && sizeof(cudaLaunchConfig_t) == 56, "CUDA 13's launch config");
using namespace stacksim;

extern "C" {

void** __cudaRegisterFatBinary(void* fat_cubin) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    return reinterpret_cast<void**>(rt.register_module(static_cast<const FatBinaryWrapper*>(fat_cubin)));
}

void __cudaRegisterFatBinaryEnd(void** handle) { (void)handle; }

void __cudaUnregisterFatBinary(void** handle) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    rt.unregister_module(reinterpret_cast<cudart::Module*>(handle));
}

void __cudaRegisterFunction(void** handle, const char* host_fn, char* device_fn, const char* device_name,
                            int thread_limit, void* tid, void* bid, void* bdim, void* gdim, int* wsize) {
    (void)device_fn, (void)thread_limit, (void)tid, (void)bid, (void)bdim, (void)gdim, (void)wsize;
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    rt.register_function(reinterpret_cast<cudart::Module*>(handle), host_fn, device_name);
}

void __cudaRegisterVar(void** handle, char* host_var, char* device_address, const char* device_name, int ext,
                       size_t size, int constant, int global) {
    (void)device_address, (void)ext, (void)global;
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    rt.register_variable(reinterpret_cast<cudart::Module*>(handle), host_var, device_name, size, constant != 0);
}

void __cudaRegisterManagedVar(void** handle, void** host_var_ptr, char* device_address, const char* device_name,
                              int ext, size_t size, int constant, int global) {
    (void)device_address, (void)ext, (void)constant, (void)global;
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    rt.register_managed_variable(reinterpret_cast<cudart::Module*>(handle), host_var_ptr, device_name, size);
}

void __cudaRegisterTexture(void** handle, const void* host_var, const void** device_address, const char* name,
                           int dim, int norm, int ext) {
    (void)handle, (void)host_var, (void)device_address, (void)dim, (void)norm, (void)ext;
    Runtime::say(fmt::format("texture reference {} is not supported by stacksim", name ? name : "?"));
}

void __cudaRegisterSurface(void** handle, const void* host_var, const void** device_address, const char* name,
                           int dim, int ext) {
    (void)handle, (void)host_var, (void)device_address, (void)dim, (void)ext;
    Runtime::say(fmt::format("surface reference {} is not supported by stacksim", name ? name : "?"));
}

char __cudaInitModule(void** handle) {
    // nvcc's code calls it before the program first touches a __managed__ variable.
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    return rt.init_managed_variables(reinterpret_cast<cudart::Module*>(handle)) ? 1 : 0;
}

cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* host_fn) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!kernel) return rt.set_error(cudaErrorInvalidValue);
    // The handle is the stub's address: __cudaLaunchKernel looks the function up by it.
    *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(host_fn));
    return rt.function(host_fn) ? cudaSuccess : rt.set_error(cudaErrorInvalidDeviceFunction);
}

unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared, cudaStream_t stream) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    rt.configs().push_back({grid, block, shared, stream});
    return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* grid, dim3* block, size_t* shared, void* stream) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (rt.configs().empty()) return rt.set_error(cudaErrorMissingConfiguration);
    const cudart::CallConfig c = rt.configs().back();
    rt.configs().pop_back();
    *grid = c.grid;
    *block = c.block;
    *shared = c.shared;
    *static_cast<cudaStream_t*>(stream) = c.stream;
    return cudaSuccess;
}

}  // extern "C"

namespace {

/// cudaLaunchKernel and cudaLaunchCooperativeKernel: checks the configuration, packs the
/// arguments and hands the launch to the simulated host thread.
cudaError_t launch(const void* func, dim3 grid, dim3 block, void** args, size_t shared, cudaStream_t stream,
                   bool cooperative) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (rt.stopped()) return rt.set_error(cudaErrorCudartUnloading);
    cudart::Function* f = rt.function(func);
    if (!f) return rt.set_error(cudaErrorInvalidDeviceFunction);
    if (cudaError_t e = rt.load(*f)) return e;
    const top::RunConfig* cfg = rt.config();
    if (!cfg) return rt.set_error(cudaErrorInitializationError);
    const uint64_t threads = uint64_t{block.x} * block.y * block.z;
    if (threads == 0 || threads > 1024 || block.x > 1024 || block.y > 1024 || block.z > 64 || grid.x == 0 ||
        grid.y == 0 || grid.z == 0 || grid.x > 0x7fffffffu || grid.y > 65535 || grid.z > 65535)
        return rt.set_error(cudaErrorInvalidConfiguration);
    const core::Kernel& k = *f->kernel;
    if (k.max_threads_per_cta && threads > k.max_threads_per_cta) return rt.set_error(cudaErrorInvalidConfiguration);
    const uint64_t dynamic_limit =
        std::max<uint64_t>(48 * 1024, static_cast<uint64_t>(std::max(f->max_dynamic_shared, 0)));
    if (shared > dynamic_limit || k.static_shared_bytes + shared > cfg->sm.shared_memory_bytes)
        return rt.set_error(cudaErrorInvalidValue);
    const core::Occupancy occ = core::occupancy(cfg->sm, static_cast<uint32_t>(threads), cfg->sm.regs_per_thread,
                                                static_cast<uint32_t>(k.static_shared_bytes + shared));
    if (occ.ctas == 0) return rt.set_error(cudaErrorLaunchOutOfResources);
    // A cooperative grid must be resident at once (the simulator checks it again).
    if (cooperative && uint64_t{grid.x} * grid.y * grid.z > uint64_t{occ.ctas} * cfg->gpu.num_sms)
        return rt.set_error(cudaErrorCooperativeLaunchTooLarge);
    bool ok = false;
    cudart::StreamObject* so = rt.stream(stream, &ok);
    if (!ok) return rt.set_error(cudaErrorInvalidResourceHandle);
    bool captured = false;
    if (cudaError_t e = cudart::StreamCapture::get().enqueue(so, &captured)) return rt.set_error(e);
    if (captured) {  // a kernel node of the capture, its arguments copied now
        cudart::GraphNode node;
        node.type = cudaGraphNodeTypeKernel;
        if (cudaError_t e = cudart::make_kernel_launch(rt, func, grid, block, shared, args, node.kernel))
            return rt.set_error(e);
        node.kernel.cooperative = cooperative;
        cudart::StreamCapture::get().record(so, node);
        return cudaSuccess;
    }
    workloads::LaunchArgs la;
    for (size_t i = 0; i < k.params.size(); ++i) {
        const uint32_t n = k.params[i].bytes;
        if (!args || !args[i]) return rt.set_error(cudaErrorInvalidValue);
        if (n == 1 || n == 2 || n == 4 || n == 8) {
            uint64_t bits = 0;
            std::memcpy(&bits, args[i], n);
            la.raw(static_cast<uint8_t>(n), bits);
        } else {
            la.aggregate(args[i], n);  // a struct passed by value: its bytes as the program laid them out
        }
    }
    const cudart::Module& m = *f->module;
    return cudart::on_stream(rt, so, [&](workloads::HostApi& h) {
        if (cooperative) h.set_cooperative(true);
        try {
            h.launch_ptx_source(m.source_name, m.ptx, f->name, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z},
                                la, static_cast<uint32_t>(shared));
        } catch (...) {
            if (cooperative) h.set_cooperative(false);
            throw;
        }
        if (cooperative) h.set_cooperative(false);
    });
}

}  // namespace

extern "C" {

cudaError_t cudaLaunchKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                             cudaStream_t stream) {
    return launch(func, grid, block, args, shared, stream, false);
}

cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                        cudaStream_t stream) {
    return launch(func, grid, block, args, shared, stream, true);
}

/// cudaLaunchKernelEx: the cooperative attribute is served, a cluster of more than one CTA is
/// not (the simulated SMs have no distributed shared memory); the other attributes (priority,
/// access policy window, programmatic serialisation, ...) are hints without effect.
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
    if (!config || (config->numAttrs && !config->attrs)) return Runtime::get().set_error(cudaErrorInvalidValue);
    bool cooperative = false;
    for (unsigned i = 0; i < config->numAttrs; ++i) {
        const cudaLaunchAttribute& a = config->attrs[i];
        constexpr int kCooperative = 2, kClusterDimension = 4;
        if (a.id == kCooperative) cooperative = a.val.cooperative != 0;
        if (a.id == kClusterDimension &&
            uint64_t{a.val.clusterDim.x} * a.val.clusterDim.y * a.val.clusterDim.z > 1) {
            auto& rt = Runtime::get();
            auto lk = rt.lock();
            return rt.unsupported("cudaLaunchKernelEx with thread block clusters");
        }
    }
    return launch(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream,
                  cooperative);
}

cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t* config, const void* func, void** args) {
    return cudaLaunchKernelExC(config, func, args);
}

cudaError_t cudaLaunchCooperativeKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                             cudaStream_t stream) {
    return launch(func, grid, block, args, shared, stream, true);
}

cudaError_t cudaLaunchKernel_ptsz(const void* func, dim3 grid, dim3 block, void** args, size_t shared,
                                  cudaStream_t stream) {
    return cudaLaunchKernel(func, grid, block, args, shared, stream);
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                               cudaStream_t stream) {
    return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args, shared, stream);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, size_t shared,
                                    cudaStream_t stream) {
    return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args, shared, stream);
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!attr) return rt.set_error(cudaErrorInvalidValue);
    cudart::Function* f = rt.function(func);
    if (!f) return rt.set_error(cudaErrorInvalidDeviceFunction);
    if (cudaError_t e = rt.load(*f)) return e;
    const top::RunConfig* cfg = rt.config();
    *attr = cudaFuncAttributes{};
    attr->sharedSizeBytes = f->kernel->static_shared_bytes;
    attr->maxThreadsPerBlock = f->kernel->max_threads_per_cta ? static_cast<int>(f->kernel->max_threads_per_cta) : 1024;
    attr->numRegs = cfg ? static_cast<int>(cfg->sm.regs_per_thread) : 32;
    // The PTX the kernel runs from (CUB picks its tuning policy by it: it must be the version
    // the kernel was compiled for); the simulator runs that PTX, so it is also the binary.
    attr->ptxVersion = static_cast<int>(f->module->ptx_arch);
    attr->binaryVersion = attr->ptxVersion;
    attr->maxDynamicSharedSizeBytes = std::max(f->max_dynamic_shared, 48 * 1024 - static_cast<int>(attr->sharedSizeBytes));
    return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void* func, int attr, int value) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    cudart::Function* f = rt.function(func);
    if (!f) return rt.set_error(cudaErrorInvalidDeviceFunction);
    constexpr int kMaxDynamicSharedMemorySize = 8;
    if (attr == kMaxDynamicSharedMemorySize) {
        const top::RunConfig* cfg = rt.config();
        if (value < 0 || (cfg && static_cast<uint64_t>(value) > cfg->sm.shared_memory_bytes))
            return rt.set_error(cudaErrorInvalidValue);
        f->max_dynamic_shared = value;
    }
    return cudaSuccess;  // other attributes (carveout, cluster shape) do not change the simulation
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* blocks, const void* func, int block_size,
                                                                    size_t dynamic_shared, unsigned flags) {
    (void)flags;
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!blocks || block_size <= 0) return rt.set_error(cudaErrorInvalidValue);
    cudart::Function* f = rt.function(func);
    if (!f) return rt.set_error(cudaErrorInvalidDeviceFunction);
    if (cudaError_t e = rt.load(*f)) return e;
    const top::RunConfig* cfg = rt.config();
    if (!cfg) return rt.set_error(cudaErrorInitializationError);
    *blocks = static_cast<int>(core::occupancy(cfg->sm, static_cast<uint32_t>(block_size), cfg->sm.regs_per_thread,
                                               static_cast<uint32_t>(f->kernel->static_shared_bytes + dynamic_shared))
                                   .ctas);
    return cudaSuccess;
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, const void* func, int block_size,
                                                          size_t dynamic_shared) {
    return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks, func, block_size, dynamic_shared, 0);
}

cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* bytes, const void* func, int blocks, int block_size) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!bytes || blocks <= 0 || block_size <= 0) return rt.set_error(cudaErrorInvalidValue);
    cudart::Function* f = rt.function(func);
    if (!f) return rt.set_error(cudaErrorInvalidDeviceFunction);
    if (cudaError_t e = rt.load(*f)) return e;
    const top::RunConfig* cfg = rt.config();
    if (!cfg) return rt.set_error(cudaErrorInitializationError);
    // The largest dynamic size at which `blocks` CTAs still fit on an SM (by the occupancy rule).
    uint64_t lo = 0, hi = cfg->sm.shared_memory_bytes;
    auto fits = [&](uint64_t dyn) {
        return core::occupancy(cfg->sm, static_cast<uint32_t>(block_size), cfg->sm.regs_per_thread,
                               static_cast<uint32_t>(f->kernel->static_shared_bytes + dyn))
                   .ctas >= static_cast<uint32_t>(blocks);
    };
    if (!fits(0)) {
        *bytes = 0;
        return cudaSuccess;
    }
    while (lo < hi) {
        const uint64_t mid = (lo + hi + 1) / 2;
        if (fits(mid)) lo = mid;
        else hi = mid - 1;
    }
    *bytes = std::min<uint64_t>(lo, std::max<uint64_t>(48 * 1024, static_cast<uint64_t>(std::max(f->max_dynamic_shared, 0))));
    return cudaSuccess;
}

cudaError_t cudaFuncGetName(const char** name, const void* func) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!name) return rt.set_error(cudaErrorInvalidValue);
    cudart::Function* f = rt.function(func);
    if (!f) return rt.set_error(cudaErrorInvalidDeviceFunction);
    *name = f->name.c_str();  // the mangled name, as CUDA gives it
    return cudaSuccess;
}

cudaError_t cudaFuncSetCacheConfig(const void* func, int config) {
    (void)func, (void)config;
    return cudaSuccess;  // a preference; the simulated L1/shared split is the preset's
}

}  // extern "C"
