// SPDX-License-Identifier: Apache-2.0
// What a memory-side controller (ETC's classifier and SM throttling) may read of an SM.
#pragma once
#include <cstdint>

namespace stacksim::core {

/// An SM's activity counters and state, read-only. Orders to the SM (stop fetch, resume) go
/// through its CTA manager's command port (core/cta_port.h), never through this view.
class SmActivity {
public:
    virtual ~SmActivity() = default;
    /// Warp instructions issued so far.
    virtual uint64_t warp_instructions() const = 0;
    /// Global-memory warp instructions issued so far (loads, stores, atomics).
    virtual uint64_t global_memory_instructions() const = 0;
    /// Cache-line requests those instructions coalesced into.
    virtual uint64_t coalesced_requests() const = 0;
    /// Whether a CTA is resident.
    virtual bool busy() const = 0;
    /// Whether fetch is stopped (CtaCommandKind::StopFetch).
    virtual bool fetch_stopped() const = 0;
};

}  // namespace stacksim::core
