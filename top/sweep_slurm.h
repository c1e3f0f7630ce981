// SPDX-License-Identifier: Apache-2.0
// `stacksim sweep --slurm`: the points as Slurm job arrays plus a merge job that depends on them.
#pragma once
#include <string>
#include <vector>

#include "top/sweep_plan.h"

namespace stacksim::top {

/// Options of a Slurm submission.
struct SlurmOptions {
    unsigned throttle = 0;                 ///< at most this many tasks at once (sbatch --array=...%K); 0: no limit
    std::vector<std::string> sbatch_args;  ///< passed to every sbatch (--partition=..., --time=...)
};

/// Writes OUT/slurm/array-N.sh (task i runs point i of its list with `stacksim sweep OUT --point`)
/// and OUT/slurm/merge.sh (`stacksim sweep OUT --merge`), submits the points `todo` as one job
/// array (several when there are more than the cluster's MaxArraySize) and the merge job with
/// --dependency=afterany on them, and records the job ids in OUT/slurm/jobs.json. Returns what
/// to tell the user. Throws sim::InputError when sbatch fails.
std::string submit_to_slurm(const SweepPlan& plan, const std::vector<size_t>& todo, const std::string& exe,
                            const SlurmOptions& options);

/// Checks, before anything is written, that the paths of `plan`'s results folder and of `exe`
/// can be given to sbatch and the job scripts (script_text.h). Throws sim::InputError.
void check_slurm_paths(const SweepPlan& plan, const std::string& exe);

/// Jobs of the last submission to `out` that squeue still lists (empty if none, or no Slurm).
std::vector<std::string> queued_slurm_jobs(const std::string& out);

/// Output of a command run without a shell: exit code (-1 if it could not start) and stdout.
struct CommandOutput {
    int exit_code = -1;
    std::string out;  ///< stdout; stderr too when asked
};
CommandOutput run_command_line(const std::vector<std::string>& argv, bool with_stderr = false);

}  // namespace stacksim::top
