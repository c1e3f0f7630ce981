// SPDX-License-Identifier: Apache-2.0
// `stacksim sweep --slurm`: the points as Slurm job arrays plus a merge job that depends on them.
#include "top/sweep_slurm.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/atomic_file.h"
#include "sim/error.h"
#include "top/script_text.h"
#include "top/sweep_store.h"

namespace stacksim::top {

namespace {

namespace fs = std::filesystem;

/// The cluster's largest array index + 1 (scontrol show config), 1001 (Slurm's default) if unknown.
size_t max_array_size() {
    CommandOutput r = run_command_line({"scontrol", "show", "config"});
    std::istringstream in(r.out);
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("MaxArraySize", 0) != 0) continue;
        auto eq = line.find('=');
        if (eq != std::string::npos) {
            try {
                size_t n = std::stoul(line.substr(eq + 1));
                if (n > 1) return n;
            } catch (const std::exception&) {
            }
        }
    }
    return 1001;
}

/// sbatch --parsable: the job id ("123" or "123;cluster").
std::string sbatch(std::vector<std::string> args, const std::vector<std::string>& extra, const std::string& script) {
    std::vector<std::string> argv = {"sbatch", "--parsable"};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back(script);
    CommandOutput r = run_command_line(argv, true);
    std::string id = r.out.substr(0, r.out.find_first_of(";\n"));
    if (r.exit_code != 0 || id.empty() || id.find_first_not_of("0123456789") != std::string::npos) {
        std::string cmd;
        for (auto& a : argv) cmd += (cmd.empty() ? "" : " ") + a;
        throw sim::InputError(fmt::format("{} failed{}: {}", cmd, r.exit_code < 0 ? " (is Slurm installed?)" : "",
                                          last_line(r.out)));
    }
    return id;
}

void write_script(const std::string& path, const std::string& text) {
    sim::write_file_atomically(path, text);
    fs::permissions(path, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add);
}

}  // namespace

CommandOutput run_command_line(const std::vector<std::string>& argv, bool with_stderr) {
    CommandOutput r;
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return r;
    std::vector<char*> args;
    std::vector<std::string> copy = argv;
    for (auto& a : copy) args.push_back(a.data());
    args.push_back(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) {
        ::close(fds[0]);
        ::close(fds[1]);
        return r;
    }
    if (pid == 0) {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // sbatch / squeue die with stacksim
        ::dup2(fds[1], 1);
        if (with_stderr) ::dup2(fds[1], 2);
        const int null = ::open("/dev/null", O_RDWR);
        ::dup2(null, 0);
        if (!with_stderr) ::dup2(null, 2);
        ::execvp(args[0], args.data());
        ::_exit(127);
    }
    ::close(fds[1]);
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
        if (n > 0) r.out.append(buf, static_cast<size_t>(n));
    ::close(fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (r.exit_code == 127) r.exit_code = -1;
    return r;
}

std::vector<std::string> queued_slurm_jobs(const std::string& out) {
    std::ifstream in(out + "/slurm/jobs.json");
    if (!in) return {};
    nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (!j.is_object()) return {};
    std::string ids;
    for (auto& id : j.value("arrays", std::vector<std::string>{})) ids += (ids.empty() ? "" : ",") + id;
    if (j.contains("merge")) ids += (ids.empty() ? "" : ",") + j.value("merge", "");
    if (ids.empty()) return {};
    CommandOutput r = run_command_line({"squeue", "-h", "-j", ids, "-o", "%i"});
    std::vector<std::string> queued;
    if (r.exit_code != 0) return queued;
    std::istringstream lines(r.out);
    std::string line;
    while (std::getline(lines, line))
        if (!line.empty()) queued.push_back(line);
    return queued;
}

void check_slurm_paths(const SweepPlan& plan, const std::string& exe) {
    slurm_literal_path(plan.out() + "/slurm/logs", "sweep --slurm: the results folder's path");
    shell_word(exe, "the stacksim executable's path");
}

std::string submit_to_slurm(const SweepPlan& plan, const std::vector<size_t>& todo, const std::string& exe,
                            const SlurmOptions& o) {
    const std::string dir = plan.out() + "/slurm";
    fs::create_directories(dir + "/logs");
    // Every string from the user (the results folder's path, the executable's) reaches the
    // scripts only through shell_word, and sbatch's own options only as arguments (no shell).
    const std::string name = "stacksim-" + fs::path(plan.out()).filename().string();
    const std::string logs = slurm_literal_path(dir + "/logs", "sweep --slurm: the results folder's path");
    const std::string job_name = "--job-name=" + one_script_line(name, "sweep --slurm: the job name");
    const std::string exe_word = shell_word(exe, "the stacksim executable's path");
    const std::string out_word = shell_word(plan.out(), "sweep --slurm: the results folder's path");
    const size_t chunk = max_array_size();
    std::vector<std::string> arrays;
    for (size_t first = 0, n = 0; first < todo.size(); first += chunk, ++n) {
        const size_t count = std::min(chunk, todo.size() - first);
        std::string list;
        for (size_t i = first; i < first + count; ++i) list += (i > first ? " " : "") + std::to_string(todo[i]);
        const std::string script = fmt::format("{}/array-{}.sh", dir, n);
        write_script(script, fmt::format(
            "#!/bin/bash\n"
            "# Generated by stacksim sweep --slurm: array task i runs point ${{points[i]}} of the results\n"
            "# folder's plan.json (job name and log files are given to sbatch as arguments).\n"
            "#SBATCH --ntasks=1\n"
            "#SBATCH --cpus-per-task=1\n"
            "points=({})\n"
            "exec {} sweep {} --point \"${{points[$SLURM_ARRAY_TASK_ID]}}\"\n",
            list, exe_word, out_word));
        std::string array = fmt::format("--array=0-{}", count - 1);
        if (o.throttle) array += fmt::format("%{}", o.throttle);
        arrays.push_back(sbatch({array, job_name, "--output=" + logs + "/%A_%a.out"}, o.sbatch_args, script));
    }
    const std::string merge_script = dir + "/merge.sh";
    write_script(merge_script, fmt::format(
        "#!/bin/bash\n"
        "# Generated by stacksim sweep --slurm: writes results.csv once every array task has ended.\n"
        "#SBATCH --ntasks=1\n"
        "exec {} sweep {} --merge\n",
        exe_word, out_word));
    std::string after = "--dependency=afterany";
    for (auto& id : arrays) after += ":" + id;
    const std::string merge = sbatch({after, "--kill-on-invalid-dep=yes", job_name + "-merge",
                                      "--output=" + logs + "/merge-%j.out"},
                                     o.sbatch_args, merge_script);
    nlohmann::json jobs = {{"arrays", arrays}, {"merge", merge}, {"points", todo}};
    sim::write_file_atomically(dir + "/jobs.json", jobs.dump(2) + "\n");
    std::string ids;
    for (auto& id : arrays) ids += (ids.empty() ? "" : ", ") + id;
    return fmt::format("submitted {} point(s) as job array {}{} and merge job {} (afterany); follow with "
                       "stacksim sweep {} --status",
                       todo.size(), ids, o.throttle ? fmt::format(" (at most {} at once)", o.throttle) : "", merge,
                       plan.out());
}

}  // namespace stacksim::top
