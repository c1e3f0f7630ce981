// SPDX-License-Identifier: Apache-2.0
// What a CTA scheduler needs from an SM.
#pragma once
#include <cstdint>

#include "core/kernel_launch.h"

namespace stacksim::core {

/// An SM as the CTA dispatcher sees it.
class CtaHost {
public:
    virtual ~CtaHost() = default;
    /// True when threads, warps, registers, shared memory and CTA slots allow one more CTA.
    virtual bool can_accept(const KernelLaunch& launch) const = 0;
    /// Starts CTA `cta_index` of `launch`; precondition can_accept(launch).
    virtual void start_cta(KernelLaunch& launch, uint64_t cta_index) = 0;
    virtual uint32_t sm_id() const = 0;
};

}  // namespace stacksim::core
