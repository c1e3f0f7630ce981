// SPDX-License-Identifier: Apache-2.0
// A sweep's results folder: point folders published whole, their state, the lock, results.csv.
#pragma once
#include <string>
#include <vector>

#include "top/sweep_plan.h"

namespace stacksim::top {

/// What the results folder says about one point.
struct PointRecord {
    enum class State { Pending, Done, Failed } state = State::Pending;
    std::string error;        ///< why it failed
    double host_seconds = 0;  ///< wall time of its run
};

/// One run of a point in progress: where `stacksim run` writes (a folder that does not exist
/// yet: run creates it) and where its output goes.
struct PointAttempt {
    std::string out;  ///< OUT/tmp/HASH.HOST.PID.N
    std::string log;  ///< OUT/tmp/HASH.HOST.PID.N.log
};

/// How a point's run ended.
struct PointOutcome {
    int exit_code = -1;  ///< -1 when killed by a signal
    int signal = 0;
    bool timed_out = false;
    double host_seconds = 0;
};

/// The results folder of a sweep:
///
///     OUT/plan.json            the points (SweepPlan)
///     OUT/points/HASH/         one folder per finished point, published with one rename:
///                              `stacksim run`'s files (summary.json, stats.json, config.toml, ...),
///                              log.txt (its output) and point.json (status, error, host time)
///     OUT/tmp/                 runs in progress (removed when a local sweep starts)
///     OUT/results.csv          one row per point
///
/// A point is done when its folder holds summary.json and stats.json and point.json does not
/// record a failure; failed when point.json records one; pending otherwise.
class SweepStore {
public:
    explicit SweepStore(std::string out);

    const std::string& out() const { return m_out; }
    /// Takes OUT/.lock without waiting: exclusive for a local sweep (which may then clean
    /// OUT/tmp), shared for one point of a Slurm task. Returns false when another process holds
    /// it incompatibly. Held until the process exits.
    bool lock(bool exclusive);
    /// Removes every leftover of interrupted runs in OUT/tmp (call with the exclusive lock).
    void clean_attempts() const;
    /// Runs in progress or interrupted: the logs in OUT/tmp.
    size_t attempts_in_progress() const;

    PointRecord record(const SweepPoint& p) const;
    PointAttempt begin(const SweepPoint& p);
    /// Writes point.json and the log into the attempt's folder and renames it to
    /// OUT/points/HASH (replacing a failed record; a point already done is kept and the
    /// attempt discarded). Returns the record published.
    PointRecord publish(const SweepPoint& p, const PointAttempt& a, const PointOutcome& o,
                        const std::vector<std::string>& command) const;

    /// results.csv text: one row per point of `plan` (RFC 4180, header first).
    std::string results_csv(const SweepPlan& plan) const;
    /// Writes OUT/results.csv atomically; returns the counts "N done, N failed, N pending".
    std::string write_results(const SweepPlan& plan) const;

private:
    std::string point_dir(const SweepPoint& p) const { return m_out + "/points/" + p.hash; }
    std::string m_out;
    std::string m_host;
    unsigned m_seq = 0;
};

/// The last non-empty line of `text` (an error message from a run's output).
std::string last_line(const std::string& text);

}  // namespace stacksim::top
