// SPDX-License-Identifier: Apache-2.0
// A sweep file (`stacksim sweep SWEEP.toml`): its settings, base values and axes, expanded into points.
#pragma once
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace stacksim::top {

/// One value a point gives one axis, as written in the sweep file.
struct AxisValue {
    /// "config", "workload", "apps", "cuda", "size", "seed", "trace", "ptx_dir", or a config key
    /// ("gpu.num_sms").
    std::string axis;
    std::string toml;     ///< the value as TOML text ("\"gto\"", "16", "0.5", "true")
    std::string display;  ///< the value for tables and logs (strings without quotes; apps joined by '+')
    std::vector<std::string> apps;  ///< axis "apps": one `--app` spec per application
    std::vector<std::string> command;  ///< axis "cuda": the CUDA program and its arguments
    std::string where;    ///< "FILE:LINE" of the value
};

/// The values one point sets, in the order they apply: [base] first, then its axes.
struct SweepPointSpec {
    std::vector<AxisValue> values;
    size_t first_axis = 0;  ///< values before this index come from [base]
    std::string where;  ///< "FILE:LINE" naming the point: its [[point]] table or its first axis value
};

/// Most points one sweep may have; SweepFile::read refuses more (counted, not made).
inline constexpr size_t kMaxSweepPoints = 100000;

/// A parsed sweep file. Layout (all tables optional):
///
///     [sweep]  out = "DIR", stats = ["gpu.l2_0.hit_rate", ...], timeout = SECONDS
///     [base]   config = "small", workload = "vecadd:4096", seed = 1, "gpu.num_sms" = 8, ...
///              (apps = ["matmul:64", "bfs:2000@5us"] instead of workload: a multi-application run;
///              cuda = ["./prog", "ARG", ...] instead of workload: a CUDA program under `stacksim cuda`)
///     [grid]   every key a non-empty array: the points are the product of all of them
///     [[zip]]  arrays of one length advancing together (one axis of the product per table)
///     [[point]] one explicit point per table (added after the product)
///
/// Keys are axis names (see AxisValue::axis); a config key may be quoted ("gpu.sm.x") or dotted.
/// Relative paths (config files, traces, PTX folders, out) are relative to the sweep file.
class SweepFile {
public:
    /// Parses and structurally checks `path`. Throws sim::InputError "FILE:LINE: key: message"
    /// (exit 2) for a TOML syntax error, an unknown table or setting, an empty axis, zipped arrays
    /// of different lengths, an axis given twice, or a value of the wrong kind.
    static SweepFile read(const std::string& path);

    const std::string& path() const { return m_path; }
    /// The folder of the sweep file (relative paths in it are relative to this).
    const std::string& dir() const { return m_dir; }
    /// The results folder: [sweep] out, else the sweep file's path without ".toml".
    const std::string& out() const { return m_out; }
    /// "FILE:LINE" of [sweep] out (FILE alone when out comes from the file's name).
    const std::string& out_where() const { return m_out_where; }
    /// Replaces the results folder (`--out`).
    void set_out(std::string out) { m_out = std::move(out); }
    /// Stats of stats.json that results.csv gets a column for.
    const std::vector<std::string>& stats() const { return m_stats; }
    /// "FILE:LINE" of each entry of stats().
    const std::vector<std::string>& stats_where() const { return m_stats_where; }
    /// Seconds a point may run before it is killed and recorded as failed; 0 = no limit.
    double timeout_seconds() const { return m_timeout; }
    /// The config keys the axes and points vary, in the order they first appear.
    const std::vector<std::string>& varied_keys() const { return m_varied; }
    /// Every point: the product of [grid] and [[zip]] (first axis outermost), then [[point]]s;
    /// the [base] values alone when there are none.
    std::vector<SweepPointSpec> expand() const;
    /// The number of points expand() makes (at most kMaxSweepPoints), without making them.
    size_t point_count() const;

private:
    struct Axis {
        std::vector<AxisValue> values;  ///< one per position (zip tables: several axes per position)
        size_t width = 1;               ///< axes that advance together (a [[zip]] table)
        std::string where, key;         ///< "FILE:LINE" and "grid.KEY" / "zip.KEY" of the axis
    };
    std::string m_path, m_dir, m_out, m_out_where;
    std::vector<std::string> m_stats, m_stats_where;
    double m_timeout = 0;
    std::vector<AxisValue> m_base;
    std::vector<Axis> m_axes;                       ///< [grid] axes, then [[zip]] tables
    std::vector<SweepPointSpec> m_points;           ///< [[point]] tables
    std::vector<std::string> m_varied;
};

/// True for the axes that are not config keys: config, workload, apps, size, seed, trace, ptx_dir.
bool is_run_axis(const std::string& axis);

}  // namespace stacksim::top
