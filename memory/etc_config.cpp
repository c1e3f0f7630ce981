// SPDX-License-Identifier: Apache-2.0
// Configuration of ETC: parameters and the policy engine's choice of techniques.
#include "memory/etc_config.h"

namespace stacksim::memory {

const sim::Params<EtcConfig>& EtcConfig::params() {
    using C = EtcConfig;
    static const auto p = [] {
        sim::Params<C> p;
        p.add("mode", &C::mode, "",
              "off: baseline; auto: the classifier's class picks the techniques; manual: the switches below")
            .names({{"off", EtcMode::Off}, {"auto", EtcMode::Auto}, {"manual", EtcMode::Manual}});
        p.add("proactive_eviction", &C::proactive_eviction, "", "manual: evict ahead of need while oversubscribed");
        p.add("throttling", &C::throttling, "", "manual: memory-aware SM throttling")
            .names({{"none", Throttling::None}, {"dynamic", Throttling::Dynamic}, {"static", Throttling::Static}});
        p.add("compression", &C::compression, "",
              "manual: capacity compression (the [uvm.compression] engine, switched on from the start)");
        p.add("sample_cycles", &C::sample_cycles, "cycles", "classifier sample length").range(1, uint64_t{1} << 40);
        p.add("coalescing_threshold", &C::coalescing_threshold, "lines",
              "coalesced line requests per (32-thread) warp memory instruction above which an app is irregular; the thesis's 10 per 64-thread warp")
            .range(0.0, 1e6);
        p.add("reclassify", &C::reclassify, "",
              "a later sample above the threshold turns an application found regular irregular (never back); "
              "not in the thesis, whose first sample decides");
        p.add("sharing", &C::sharing, "",
              "inter-kernel sharing: pointers (detected from kernel pointer arguments) or the annotation yes/no")
            .names({{"pointers", SharingSource::Pointers}, {"yes", SharingSource::Yes}, {"no", SharingSource::No}});
        p.add("proactive_free_bytes", &C::proactive_free_bytes, "bytes",
              "proactive eviction keeps this much GPU memory free")
            .range(0, uint64_t{1} << 40);
        p.add("throttle_step", &C::throttle_step, "SMs", "SMs stopped or released per adjustment").range(1, 1024);
        p.add("detection_cycles", &C::detection_cycles, "cycles",
              "detection epoch timeout: no fault in it releases throttle_step SMs")
            .range(1, uint64_t{1} << 40);
        p.add("execution_cycles", &C::execution_cycles, "cycles", "execution epoch: SMs run unadjusted")
            .range(1, uint64_t{1} << 40);
        return p;
    }();
    return p;
}

EtcTechniques etc_techniques(const EtcConfig& cfg, AppClass c) {
    EtcTechniques t;
    if (cfg.mode == EtcMode::Manual) return {cfg.proactive_eviction, cfg.throttling, cfg.compression};
    if (cfg.mode != EtcMode::Auto) return t;
    switch (c) {
    case AppClass::RegularNoSharing: t.proactive_eviction = true; break;
    case AppClass::RegularSharing:
        t.proactive_eviction = true;
        t.compression = true;
        break;
    case AppClass::Irregular:
        t.throttling = Throttling::Dynamic;
        t.compression = true;
        break;
    case AppClass::Unknown: break;
    }
    return t;
}

const char* app_class_name(AppClass c) {
    switch (c) {
    case AppClass::RegularNoSharing: return "regular_no_sharing";
    case AppClass::RegularSharing: return "regular_sharing";
    case AppClass::Irregular: return "irregular";
    case AppClass::Unknown: break;
    }
    return "unknown";
}

}  // namespace stacksim::memory
