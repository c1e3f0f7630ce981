// SPDX-License-Identifier: Apache-2.0
// Parts of a run's summary: kernel busy time and the per-application table (turnaround, STP, ANTT).
#pragma once
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "host/kernel_record.h"
#include "top/applications.h"
#include "top/gpu_system.h"
#include "workloads/workload.h"

namespace stacksim::top {

/// Cycles in which at least one of `kernels` ran (the union of their intervals).
uint64_t busy_cycles(const std::vector<host::KernelRecord>& kernels);

/// The "applications" part of summary.json: per application its workload, start, end,
/// turnaround, verification and (with `alone` turnarounds, ps) its normalised turnaround;
/// adds "stp" and "antt" to `summary` when `alone` is given.
nlohmann::json applications_json(const Applications& apps, GpuSystem& gpu,
                                  const std::vector<workloads::VerifyResult>& results,
                                  const std::vector<double>& alone, nlohmann::json& summary);

/// Prints the per-application lines of `summary`.
void print_applications(const nlohmann::json& summary);

}  // namespace stacksim::top
