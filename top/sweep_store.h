// SPDX-License-Identifier: Apache-2.0
// A sweep's results folder: point folders published whole, their state, the lock, results.csv.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "top/sweep_plan.h"

namespace stacksim::top {

/// What the results folder says about one point.
struct PointRecord {
    enum class State { Pending, Done, Failed } state = State::Pending;
    std::string error;        ///< why it failed
    /// Why its files cannot be read ("points/HASH/summary.json: not valid JSON"); such a point
    /// is Pending (it is run again), and the report names the file.
    std::string corrupt;
    /// Why its results no longer hold ("input changed: PATH", "made by another simulator
    /// build"); such a point is Pending (it is run again). See result_identity().
    std::string stale;
    double host_seconds = 0;  ///< wall time of its run
};

/// One run of a point in progress, in a private folder with an unpredictable name (mkdtemp,
/// mode 0700), so that nothing planted in OUT/tmp can redirect its files.
struct PointAttempt {
    std::string dir;  ///< OUT/tmp/HASH.XXXXXX
    std::string out;  ///< DIR/run: where `stacksim run` writes (run creates it)
    std::string log;  ///< DIR/log.txt: its output (SweepStore::open_log)
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
///     OUT/.stacksim-results    the marker "sweep": nothing is written or deleted in a folder
///                              without it (a non-empty folder without it is refused)
///     OUT/plan.json            the points (SweepPlan)
///     OUT/points/HASH/         one folder per finished point, published with one rename:
///                              `stacksim run`'s files (summary.json, stats.json, config.toml, ...),
///                              log.txt (its output) and point.json (status, error, host time)
///     OUT/tmp/                 runs in progress (removed when a local sweep starts)
///     OUT/results.csv          one row per point
///     OUT/kernels.csv          one row per kernel launch of each done point
///
/// A point is done when its folder holds summary.json and stats.json and point.json does not
/// record a failure; failed when point.json records one; pending otherwise, and also when one of
/// those files is not what stacksim writes (PointRecord::corrupt). OUT/points/HASH is never
/// followed through a symbolic link.
class SweepStore {
public:
    explicit SweepStore(std::string out);

    /// Makes OUT a sweep's results folder before anything is written there: creates it (and its
    /// parents) with the marker when absent or empty; accepts it when it has the marker of a sweep.
    /// Throws InputError (one line) for a non-empty folder without the marker, a link, or a path
    /// ending in "." or "..". `option` names where OUT came from ("--out", "sweep.out").
    void claim(const std::string& option) const;
    /// Throws InputError unless OUT is a sweep's results folder (has the marker).
    void check_is_sweep_folder() const;
    /// Creates the attempt's log exclusively, never through a link; returns its descriptor.
    int open_log(const PointAttempt& a) const;
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
    /// kernels.csv text: one row per kernel launch of each done point (summary.json "kernels":
    /// name, application, priority, CTAs, call/start cycle, cycles, warp instructions, average
    /// CTA cycles, IPC), with the point's number, hash and value columns first.
    std::string kernels_csv(const SweepPlan& plan) const;
    /// Writes OUT/results.csv and OUT/kernels.csv atomically; returns the counts "N done, N failed, N pending".
    std::string write_results(const SweepPlan& plan) const;

private:
    std::string point_dir(const SweepPoint& p) const { return m_out + "/points/" + p.hash; }
    /// The current result identity of `p` (build and input hashes), computed once per process.
    const nlohmann::json& identity(const SweepPoint& p) const;
    /// OUT/NAME as a real folder (created when absent); throws InputError when it is a link.
    std::string own_folder(const std::string& name) const;
    std::string m_out;
    std::string m_host;
    mutable std::map<std::string, nlohmann::json> m_identities;
};

/// The last non-empty line of `text` (an error message from a run's output).
std::string last_line(const std::string& text);

}  // namespace stacksim::top
