// SPDX-License-Identifier: Apache-2.0
// __device__ / __constant__ variables: cudaMemcpyToSymbol, cudaMemcpyFromSymbol (and their
// Async forms, synchronous like every copy here), cudaGetSymbolAddress, cudaGetSymbolSize.
// A symbol is the host shadow variable nvcc registered with __cudaRegisterVar; the simulator
// finds the variable by its module's source name and PTX name (HostApi::copy_to_symbol ...),
// placing it in device memory with its initial value on first use.
#include <cstring>

#include "cudart/api_common.h"
#include "cudart/stream_capture.h"

using stacksim::cudart::Runtime;
using namespace stacksim;

namespace {

uint64_t addr(const void* p) { return reinterpret_cast<uint64_t>(p); }

/// The registered variable of `symbol` with its module loaded, or null with the error set.
const cudart::Variable* find(Runtime& rt, const void* symbol, cudaError_t& err) {
    const cudart::Variable* v = symbol ? rt.variable(symbol) : nullptr;
    if (!v) {
        err = rt.set_error(cudaErrorInvalidSymbol);
        return nullptr;
    }
    err = rt.load_module(*v->module);
    return err ? nullptr : v;
}

/// Copies between `symbol` + offset and `other` (host memory, or device memory for
/// cudaMemcpyDeviceToDevice; cudaMemcpyDefault tells them apart by the device allocations).
cudaError_t symbol_copy(const void* symbol, void* other, size_t bytes, size_t offset, int kind, bool to_symbol) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    cudaError_t err = cudaSuccess;
    const cudart::Variable* v = find(rt, symbol, err);
    if (!v) return err;
    if (offset > v->bytes || bytes > v->bytes - offset) return rt.set_error(cudaErrorInvalidValue);
    if (bytes == 0) return cudaSuccess;
    if (!other) return rt.set_error(cudaErrorInvalidValue);
    const bool other_device = rt.is_device_range(addr(other), bytes);
    const int host_kind = to_symbol ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
    if (kind == cudaMemcpyDefault) kind = other_device ? cudaMemcpyDeviceToDevice : host_kind;
    if (kind != host_kind && kind != cudaMemcpyDeviceToDevice) return rt.set_error(cudaErrorInvalidMemcpyDirection);
    if (kind == cudaMemcpyDeviceToDevice && !other_device) return rt.set_error(cudaErrorInvalidValue);
    const cudart::Module& m = *v->module;
    const bool mirrored = !to_symbol && kind != cudaMemcpyDeviceToDevice && rt.is_mirrored(addr(other), bytes);
    return rt.call([&](workloads::HostApi& h) {
        h.load_ptx_source(m.source_name, m.ptx);
        if (kind == cudaMemcpyDeviceToDevice) {
            const workloads::DevPtr s = h.symbol_address(m.source_name, v->name) + offset;
            if (to_symbol) h.memcpy_d2d(s, addr(other), bytes);
            else h.memcpy_d2d(addr(other), s, bytes);
        } else if (to_symbol) {
            h.copy_to_symbol(m.source_name, v->name, other, bytes, offset);
        } else {
            h.copy_from_symbol(other, m.source_name, v->name, bytes, offset);
            if (mirrored) h.poke(addr(other), other, bytes);  // into managed or mapped memory
        }
    }, cudaErrorInvalidSymbol);
}

}  // namespace

extern "C" {

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t bytes, size_t offset, int kind) {
    return symbol_copy(symbol, const_cast<void*>(src), bytes, offset, kind, true);
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t bytes, size_t offset, int kind) {
    return symbol_copy(symbol, dst, bytes, offset, kind, false);
}

cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t bytes, size_t offset, int kind,
                                    cudaStream_t stream) {
    // Synchronous, like every copy of this runtime (docs/cuda_programs.md); not captured.
    if (cudaError_t e = cudart::refuse_if_capturing(Runtime::get(), stream, "cudaMemcpyToSymbolAsync")) return e;
    return symbol_copy(symbol, const_cast<void*>(src), bytes, offset, kind, true);
}

cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t bytes, size_t offset, int kind,
                                      cudaStream_t stream) {
    if (cudaError_t e = cudart::refuse_if_capturing(Runtime::get(), stream, "cudaMemcpyFromSymbolAsync")) return e;
    return symbol_copy(symbol, dst, bytes, offset, kind, false);
}

cudaError_t cudaGetSymbolAddress(void** dev_ptr, const void* symbol) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!dev_ptr) return rt.set_error(cudaErrorInvalidValue);
    cudaError_t err = cudaSuccess;
    const cudart::Variable* v = find(rt, symbol, err);
    if (!v) return err;
    const cudart::Module& m = *v->module;
    workloads::DevPtr p = 0;
    err = rt.call([&](workloads::HostApi& h) {
        h.load_ptx_source(m.source_name, m.ptx);
        p = h.symbol_address(m.source_name, v->name);
    }, cudaErrorInvalidSymbol);
    if (err == cudaSuccess) {
        // The variable's memory counts as device memory for the copies that take its address.
        rt.device_allocations().emplace(p, v->bytes);
        *dev_ptr = reinterpret_cast<void*>(p);
    }
    return err;
}

cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!size) return rt.set_error(cudaErrorInvalidValue);
    cudaError_t err = cudaSuccess;
    const cudart::Variable* v = find(rt, symbol, err);
    if (!v) return err;
    *size = v->bytes;
    return cudaSuccess;
}

}  // extern "C"
