// SPDX-License-Identifier: Apache-2.0
// The local process pool of `stacksim sweep`: each point a `stacksim run` child process.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "top/sweep_plan.h"
#include "top/sweep_store.h"

namespace stacksim::top {

/// Runs points as child processes, at most `jobs` at a time, and publishes each into the
/// store when it ends. A child dies with the pool (PR_SET_PDEATHSIG), so a sweep killed with
/// SIGKILL leaves only unpublished attempts behind. SIGINT / SIGTERM stop the pool: running
/// points are killed and stay pending.
class SweepPool {
public:
    /// `exe`: the stacksim executable the points run.
    SweepPool(SweepStore& store, const SweepPlan& plan, std::string exe, unsigned jobs);

    /// Runs the points with these indices. `done_before` / `failed_before` (already recorded)
    /// count towards the progress display. On a terminal (stderr) a progress line shows points
    /// done / failed / running, elapsed time and ETA; when stdout is not a terminal one line per
    /// finished point is printed there. Returns false when interrupted.
    bool run(const std::vector<size_t>& todo, size_t done_before, size_t failed_before);

    size_t done() const { return m_done; }
    size_t failed() const { return m_failed; }

private:
    struct Child {
        int pid;
        size_t point;
        PointAttempt attempt;
        std::vector<std::string> command;
        double started;
        bool timed_out = false;  ///< killed for exceeding sweep.timeout
        bool stopped = false;    ///< killed because the sweep was interrupted
    };
    void start(size_t point);
    void finish(Child& c, int status);
    void show_progress(bool force);

    SweepStore& m_store;
    const SweepPlan& m_plan;
    std::string m_exe;
    unsigned m_jobs;
    std::vector<Child> m_running;
    size_t m_done = 0, m_failed = 0, m_total = 0, m_before = 0, m_failed_before = 0, m_finished = 0;
    double m_t0 = 0, m_last_draw = 0;
    bool m_tty = false, m_lines = false;
};

}  // namespace stacksim::top
