// SPDX-License-Identifier: Apache-2.0
// Stream-ordered memory pools: cudaDeviceGetDefaultMemPool, cudaDeviceGet/SetMemPool,
// cudaMemPoolCreate/Destroy, attributes (reuse flags and the release threshold are remembered;
// used and reserved bytes are counted), access (one device: read-write), cudaMemPoolTrimTo and
// cudaMallocFromPoolAsync. cudaMallocAsync and cudaFreeAsync count in the current pool.
#include "cudart/mem_pool.h"

#include <algorithm>
#include <cstring>

#include "cudart/api_common.h"

using stacksim::cudart::MemPool;
using stacksim::cudart::MemPools;
using stacksim::cudart::Runtime;

namespace stacksim::cudart {

MemPools& MemPools::get() {
    static MemPools pools;
    return pools;
}

MemPool* MemPools::create() {
    auto p = std::make_unique<MemPool>();
    MemPool* raw = p.get();
    m_created.insert(std::move(p));
    return raw;
}

bool MemPools::destroy(MemPool* p) {
    for (auto it = m_created.begin(); it != m_created.end(); ++it)
        if (it->get() == p) {
            if (m_current == p) m_current = &m_default;
            for (auto b = m_blocks.begin(); b != m_blocks.end();) b = b->second.first == p ? m_blocks.erase(b) : std::next(b);
            m_created.erase(it);
            return true;
        }
    return false;
}

MemPool* MemPools::find(void* handle) {
    auto* p = static_cast<MemPool*>(handle);
    if (p == &m_default) return p;
    for (const auto& c : m_created)
        if (c.get() == p) return p;
    return nullptr;
}

void MemPools::allocated(MemPool* pool, uint64_t ptr, uint64_t bytes) {
    m_blocks[ptr] = {pool, bytes};
    pool->used += bytes;
    pool->used_high = std::max(pool->used_high, pool->used);
}

void MemPools::freed(uint64_t ptr) {
    auto it = m_blocks.find(ptr);
    if (it == m_blocks.end()) return;
    it->second.first->used -= it->second.second;
    m_blocks.erase(it);
}

}  // namespace stacksim::cudart

namespace {
cudaError_t bad(cudaError_t e) { return Runtime::get().set_error(e); }
}  // namespace

extern "C" {
cudaError_t cudaMallocAsync(void**, size_t, cudaStream_t);

cudaError_t cudaDeviceGetDefaultMemPool(void** pool, int device) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!pool) return bad(cudaErrorInvalidValue);
    if (device != 0) return bad(cudaErrorInvalidDevice);
    *pool = MemPools::get().default_pool();
    return cudaSuccess;
}

cudaError_t cudaDeviceGetMemPool(void** pool, int device) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!pool) return bad(cudaErrorInvalidValue);
    if (device != 0) return bad(cudaErrorInvalidDevice);
    *pool = MemPools::get().current();
    return cudaSuccess;
}

cudaError_t cudaDeviceSetMemPool(int device, void* pool) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (device != 0) return bad(cudaErrorInvalidDevice);
    MemPool* p = MemPools::get().find(pool);
    if (!p) return bad(cudaErrorInvalidValue);
    MemPools::get().set_current(p);
    return cudaSuccess;
}

cudaError_t cudaMemPoolCreate(void** pool, const void* props) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!pool || !props) return bad(cudaErrorInvalidValue);
    *pool = MemPools::get().create();  // the properties (pinned, on device 0) are what it does anyway
    return cudaSuccess;
}

cudaError_t cudaMemPoolDestroy(void* pool) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    return MemPools::get().destroy(static_cast<MemPool*>(pool)) ? cudaSuccess : bad(cudaErrorInvalidValue);
}

cudaError_t cudaMemPoolSetAttribute(void* pool, int attr, void* value) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    MemPool* p = MemPools::get().find(pool);
    if (!p || !value) return bad(cudaErrorInvalidValue);
    uint64_t v64 = 0;
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies: std::memcpy(&p->reuse_follow_events, value, sizeof(int)); return cudaSuccess;
    case cudaMemPoolReuseAllowOpportunistic: std::memcpy(&p->reuse_opportunistic, value, sizeof(int)); return cudaSuccess;
    case cudaMemPoolReuseAllowInternalDependencies: std::memcpy(&p->reuse_internal, value, sizeof(int)); return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: std::memcpy(&p->release_threshold, value, sizeof(uint64_t)); return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh:  // only resets (to the current value) are allowed
    case cudaMemPoolAttrUsedMemHigh:
        std::memcpy(&v64, value, sizeof(v64));
        if (v64 != 0) return bad(cudaErrorInvalidValue);
        p->used_high = p->used;
        return cudaSuccess;
    default: return bad(cudaErrorInvalidValue);
    }
}

cudaError_t cudaMemPoolGetAttribute(void* pool, int attr, void* value) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    MemPool* p = MemPools::get().find(pool);
    if (!p || !value) return bad(cudaErrorInvalidValue);
    uint64_t v = 0;
    switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies: std::memcpy(value, &p->reuse_follow_events, sizeof(int)); return cudaSuccess;
    case cudaMemPoolReuseAllowOpportunistic: std::memcpy(value, &p->reuse_opportunistic, sizeof(int)); return cudaSuccess;
    case cudaMemPoolReuseAllowInternalDependencies: std::memcpy(value, &p->reuse_internal, sizeof(int)); return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: v = p->release_threshold; break;
    case cudaMemPoolAttrReservedMemCurrent:  // nothing is cached: reserved = used
    case cudaMemPoolAttrUsedMemCurrent: v = p->used; break;
    case cudaMemPoolAttrReservedMemHigh:
    case cudaMemPoolAttrUsedMemHigh: v = p->used_high; break;
    default: return bad(cudaErrorInvalidValue);
    }
    std::memcpy(value, &v, sizeof(v));
    return cudaSuccess;
}

cudaError_t cudaMemPoolSetAccess(void* pool, const void* descs, size_t count) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!MemPools::get().find(pool) || (count && !descs)) return bad(cudaErrorInvalidValue);
    return cudaSuccess;  // one device, which always has read-write access
}

cudaError_t cudaMemPoolGetAccess(int* flags, void* pool, const cudaMemLocation* location) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    if (!flags || !location || !MemPools::get().find(pool)) return bad(cudaErrorInvalidValue);
    *flags = cudaMemAccessFlagsProtReadWrite;
    return cudaSuccess;
}

cudaError_t cudaMemPoolTrimTo(void* pool, size_t min_bytes_to_keep) {
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    (void)min_bytes_to_keep;  // nothing is cached
    return MemPools::get().find(pool) ? cudaSuccess : bad(cudaErrorInvalidValue);
}

cudaError_t cudaMallocFromPoolAsync(void** ptr, size_t bytes, void* pool, cudaStream_t stream) {
    MemPool* previous = nullptr;
    {
        auto& rt = Runtime::get();
        auto lk = rt.lock();
        MemPool* p = MemPools::get().find(pool);
        if (!p) return bad(cudaErrorInvalidValue);
        previous = MemPools::get().current();
        MemPools::get().set_current(p);
    }
    const cudaError_t e = cudaMallocAsync(ptr, bytes, stream);
    auto& rt = Runtime::get();
    auto lk = rt.lock();
    MemPools::get().set_current(previous);
    return e;
}

cudaError_t cudaMallocFromPoolAsync_ptsz(void** ptr, size_t bytes, void* pool, cudaStream_t stream) {
    return cudaMallocFromPoolAsync(ptr, bytes, pool, stream);
}

}  // extern "C"
