// SPDX-License-Identifier: Apache-2.0
// A sweep's points, each checked and resolved to the `stacksim run` that computes it (plan.json).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "top/sweep_file.h"

namespace stacksim::top {

/// One point: an ordinary `stacksim run` with its own results folder.
struct SweepPoint {
    size_t index = 0;
    /// 12 hex digits of a hash of the effective configuration (plus trace and PTX folder):
    /// the name of the point's folder, the same in every sweep that has the point.
    std::string hash;
    /// Arguments of the stacksim executable: "run", CONFIG, "--set", "KEY=VALUE", ...
    /// (the runner adds --out and --quiet); "cuda", CONFIG, ... for a CUDA program.
    std::vector<std::string> args;
    /// A CUDA program (absolute path) and its arguments, given after the runner's options and
    /// "--"; empty for a simulator workload.
    std::vector<std::string> program;
    /// results.csv value columns (SweepPlan::columns()) -> effective value.
    std::vector<std::string> values;
    std::string label;  ///< what the point's axes set: "workload=vecadd:256 seed=2"
    std::string where;  ///< "FILE:LINE" of the point in the sweep file
};

/// Every point of a sweep, checked before anything runs, and saved in the results folder as
/// plan.json so that Slurm tasks, merges and status reports need only that folder.
class SweepPlan {
public:
    /// Resolves and checks every point of `file` (each point's configuration is read exactly as
    /// `stacksim run` reads it). Throws sim::InputError naming the sweep file, line and key of
    /// the value at fault, or the point and the config file's own line.
    static SweepPlan build(const SweepFile& file);
    /// Reads `out_dir`/plan.json. Throws sim::InputError when it is missing or malformed.
    static SweepPlan load(const std::string& out_dir);
    /// Writes `out()`/plan.json atomically (creating the folder).
    void save() const;

    const std::string& sweep_file() const { return m_sweep_file; }
    /// The results folder (absolute).
    const std::string& out() const { return m_out; }
    const std::vector<SweepPoint>& points() const { return m_points; }
    /// The value columns of results.csv: config, workload, size, seed, [trace], [ptx_dir], then
    /// every config key an axis or point varies.
    const std::vector<std::string>& columns() const { return m_columns; }
    const std::vector<std::string>& stats() const { return m_stats; }
    double timeout_seconds() const { return m_timeout; }

private:
    std::string m_sweep_file, m_out;
    std::vector<SweepPoint> m_points;
    std::vector<std::string> m_columns;
    std::vector<std::string> m_stats;
    double m_timeout = 0;
};

}  // namespace stacksim::top
