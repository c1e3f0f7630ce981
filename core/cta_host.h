// SPDX-License-Identifier: Apache-2.0
// What a CTA scheduler needs from an SM.
#pragma once
#include <cstdint>
#include <memory>

#include "core/kernel_launch.h"
#include "core/saved_cta.h"

namespace stacksim::core {

/// An SM as the CTA dispatcher sees it.
class CtaHost {
public:
    virtual ~CtaHost() = default;
    /// True when threads, warps, registers, shared memory and CTA slots allow one more CTA.
    virtual bool can_accept(const KernelLaunch& launch) const = 0;
    /// Starts CTA `cta_index` of `launch`; precondition can_accept(launch).
    virtual void start_cta(KernelLaunch& launch, uint64_t cta_index) = 0;
    /// Resumes a context-switched CTA of `launch` (its context is read back first);
    /// precondition can_accept(launch).
    virtual void restore_cta(KernelLaunch& launch, std::unique_ptr<SavedCta> saved) = 0;
    virtual uint32_t sm_id() const = 0;
};

}  // namespace stacksim::core
