// SPDX-License-Identifier: Apache-2.0
// The stats dictionary: every statistic name pattern of `stacksim run` with its unit and meaning.
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace stacksim::top {

/// One statistic, or a family of per-instance ones ("gpu.smN.warp_instructions").
struct StatPattern {
    std::string pattern;      ///< the name with instance numbers replaced by N
    std::string kind;         ///< "counter", "average", "histogram" or "formula"
    std::string unit;
    std::string description;
    std::vector<std::string> systems;  ///< the representative systems that have it (all: empty)
};

/// Every statistic pattern, sorted by pattern. Built once from the stats registry of
/// representative systems elaborated in-process (never run): the default preset (memory
/// hierarchy with crossbar, GDDR5, PCIe), the simple memory model, unified memory with demand
/// paging, the mesh and the 2.5D stacked interconnect, and HBM2 with per-bank refresh. Per-instance names are collapsed where the instance number varies.
const std::vector<StatPattern>& stats_dictionary();

/// The representative systems of the dictionary: short name and what it sets.
std::vector<std::pair<std::string, std::string>> stats_dictionary_systems();

/// True when `name` is a statistic of the dictionary ("gpu.sm3.warp_instructions" matches
/// "gpu.smN.warp_instructions"; the pattern itself names no statistic).
bool stat_is_known(const std::string& name);

/// docs/stats.md (`stacksim stats --markdown`).
std::string stats_markdown();
/// `stacksim stats --list [PREFIX]`: one line per pattern starting with PREFIX.
std::string stats_text(const std::string& prefix);

/// `stacksim stats --list [PREFIX] | --markdown`; returns the exit code, throws InputError.
int stats_command(const std::vector<std::string>& args);

}  // namespace stacksim::top
