// SPDX-License-Identifier: Apache-2.0
// The configuration of `stacksim noc`: the network, the traffic and measurement, trace replay.
#pragma once
#include <string>
#include <vector>

#include "noc/netrace_replay.h"
#include "noc/network_config.h"
#include "noc/noc_run.h"
#include "noc/traffic.h"
#include "sim/config.h"
#include "sim/param_doc.h"

namespace stacksim::top {

/// Every section `stacksim noc` reads.
struct NocRunConfig {
    noc::NetworkConfig net;       ///< [noc]
    noc::TrafficConfig traffic;   ///< [traffic]
    noc::MeasureConfig measure;   ///< [traffic], measurement keys
    noc::ReplayConfig replay;     ///< [trace]
};

/// Reads and validates `doc` (`pattern`, if not empty, replaces traffic.pattern) and rejects
/// unknown keys. Throws ConfigError naming file, line and key.
NocRunConfig read_noc_config(sim::ConfigDoc& doc, const std::string& pattern);

/// Every section `stacksim noc` reads, documented.
std::vector<sim::SectionDoc> noc_config_docs();

}  // namespace stacksim::top
