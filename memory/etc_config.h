// SPDX-License-Identifier: Apache-2.0
// Configuration of ETC, the oversubscription management framework (thesis chapter 3): [uvm.etc].
#pragma once
#include <cstdint>

#include "sim/param.h"

namespace stacksim::memory {

/// How the policy engine chooses techniques.
enum class EtcMode : uint8_t {
    Off,     ///< no classifier, no technique (the baseline)
    Auto,    ///< the classifier's class picks the techniques (thesis §3.6.1)
    Manual,  ///< the switches below, each on its own; the classifier still reports
};

/// Memory-aware SM throttling.
enum class Throttling : uint8_t {
    None,
    Dynamic,  ///< half the SMs stopped at the trigger, then adjusted by detection/execution epochs
    Static,   ///< half the SMs stopped at the trigger, for good (the thesis's comparison point)
};

/// Where inter-kernel data sharing comes from.
enum class SharingSource : uint8_t {
    Pointers,  ///< detected: two different kernels get pointers into the same 2 MB region
    Yes,       ///< annotated: the application shares data between kernels
    No,        ///< annotated: it does not
};

/// Application class (thesis §3.6.1); the numeric value is what stats report.
enum class AppClass : uint8_t { Unknown = 0, RegularNoSharing = 1, RegularSharing = 2, Irregular = 3 };

/// Section [uvm.etc]. Times in core cycles; sizes in bytes.
struct EtcConfig {
    EtcMode mode = EtcMode::Off;
    bool proactive_eviction = false;          ///< manual mode
    Throttling throttling = Throttling::None;  ///< manual mode
    /// Capacity compression (manual mode; auto picks it by class): switches on the
    /// [uvm.compression] engine (its keys set its latencies and metadata cache).
    bool compression = false;
    uint64_t sample_cycles = 50000;       ///< classifier sample length
    double coalescing_threshold = 5.0;    ///< lines per 32-thread warp memory instruction: above = irregular
    bool reclassify = false;              ///< a later irregular sample turns a regular app irregular (not in the thesis)
    SharingSource sharing = SharingSource::Pointers;
    uint64_t proactive_free_bytes = 2097152;  ///< proactive eviction keeps this much GPU memory free
    uint32_t throttle_step = 1;               ///< SMs stopped or released per adjustment
    uint64_t detection_cycles = 50000;        ///< detection epoch timeout (no fault: release SMs)
    uint64_t execution_cycles = 50000;        ///< execution epoch: no adjustment

    bool enabled() const { return mode != EtcMode::Off; }
    /// The declared parameters ([uvm.etc]).
    static const sim::Params<EtcConfig>& params();
    void validate() const {}
};

/// Which techniques the policy engine applies.
struct EtcTechniques {
    bool proactive_eviction = false;
    Throttling throttling = Throttling::None;
    bool compression = false;
};

/// The policy engine: the techniques for class `c` (auto mode) or the switches (manual).
EtcTechniques etc_techniques(const EtcConfig& cfg, AppClass c);
/// Stat-friendly name of a class ("regular_no_sharing", ...).
const char* app_class_name(AppClass c);

}  // namespace stacksim::memory
