// SPDX-License-Identifier: Apache-2.0
// One application of a multi-application run ([[app]] tables, or --app on the command line).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "host/host_program.h"
#include "sim/config.h"
#include "sim/param.h"
#include "sim/policy_catalog.h"

namespace stacksim::top {

/// The most applications one run may have (--app and [[app]] together): each is also simulated
/// alone for its slowdown, so this bounds the work before it starts.
constexpr size_t kMaxApplications = 64;
/// The largest problem size of an application (app.size, and --app NAME:SIZE).
constexpr uint32_t kMaxAppSize = 1u << 30;

/// An application: a library workload with its own host program, start time and priority.
struct AppConfig {
    sim::PolicySpec workload{"vecadd"};  ///< with its parameters ([synthetic], [pchase])
    uint32_t size = 0;                   ///< 0: the workload's default size
    uint64_t seed = 0;                   ///< 0: run.seed + the application's index
    double start_us = 0.0;               ///< its host program starts then
    int64_t priority = 0;                ///< of its kernels: larger may preempt smaller
    double launch_latency_us = -1.0;     ///< negative: host.launch_latency_us
    host::Idempotence idempotent = host::Idempotence::Auto;  ///< may its CTAs be flushed
    static const sim::Params<AppConfig>& params();
};

/// Reads every [[app]] table of `doc` (none: an empty list).
std::vector<AppConfig> read_app_configs(sim::ConfigDoc& doc);

/// Turns `--app` SPECs (NAME[:SIZE][@START][^PRIORITY], START with a unit: 25us, 3ms,
/// 500ns; plain numbers are us) into [[app]] tables of `doc`. Throws sim::InputError naming
/// the bad spec.
void add_app_specs(sim::ConfigDoc& doc, const std::vector<std::string>& specs);

/// Documentation of the [[app]] table.
std::vector<sim::SectionDoc> app_config_docs();

}  // namespace stacksim::top
