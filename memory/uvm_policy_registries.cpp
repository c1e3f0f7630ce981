// SPDX-License-Identifier: Apache-2.0
// The registries of unified-memory policies: migration mechanisms, eviction, prefetchers.
#include "memory/eviction_policy.h"
#include "memory/migration_mechanism.h"
#include "memory/prefetcher.h"

namespace stacksim::memory {

MigrationRegistry& migration_mechanisms() {
    static MigrationRegistry r("migration mechanism", "page migration mechanisms: what a far fault moves to GPU memory");
    return r;
}

EvictionRegistry& eviction_policies() {
    static EvictionRegistry r("eviction policy", "page eviction policies: which pages leave a full GPU memory");
    return r;
}

PrefetcherRegistry& prefetchers() {
    static PrefetcherRegistry r("prefetcher", "page prefetchers: pages migrated ahead of a fault");
    return r;
}

}  // namespace stacksim::memory
