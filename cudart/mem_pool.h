// SPDX-License-Identifier: Apache-2.0
// Stream-ordered memory pools (cudaMemPool_t): the device's default pool, created pools, their
// attributes and the bytes allocated from each (cudart/api_mempool.cpp).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <set>

namespace stacksim::cudart {

/// One pool. The simulator allocates and frees device memory directly, so the memory a pool
/// reserves is the memory in use from it (nothing is cached for reuse).
struct MemPool {
    uint64_t release_threshold = 0;  ///< cudaMemPoolAttrReleaseThreshold, bytes (remembered)
    int reuse_follow_events = 1;     ///< cudaMemPoolReuseFollowEventDependencies (remembered)
    int reuse_opportunistic = 1;     ///< cudaMemPoolReuseAllowOpportunistic (remembered)
    int reuse_internal = 1;          ///< cudaMemPoolReuseAllowInternalDependencies (remembered)
    uint64_t used = 0, used_high = 0;  ///< bytes allocated from the pool now / at most
};

/// The program's pools: handles are pointers to MemPool objects.
class MemPools {
public:
    static MemPools& get();
    MemPool* default_pool() { return &m_default; }
    /// The pool cudaMallocAsync draws from (cudaDeviceSetMemPool; the default pool at first).
    MemPool* current() { return m_current; }
    void set_current(MemPool* p) { m_current = p; }
    MemPool* create();
    /// False when `p` is no pool, or the default one (which cannot be destroyed).
    bool destroy(MemPool* p);
    /// `p` if it is a pool of this program, else null.
    MemPool* find(void* handle);
    /// Device memory `ptr` of `bytes` was allocated from `pool`.
    void allocated(MemPool* pool, uint64_t ptr, uint64_t bytes);
    /// Device memory `ptr` was freed (nothing when it came from no pool).
    void freed(uint64_t ptr);

private:
    MemPool m_default;
    MemPool* m_current = &m_default;
    std::set<std::unique_ptr<MemPool>> m_created;
    std::map<uint64_t, std::pair<MemPool*, uint64_t>> m_blocks;  ///< pointer -> (pool, bytes)
};

}  // namespace stacksim::cudart
