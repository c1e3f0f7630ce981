// SPDX-License-Identifier: Apache-2.0
// `stacksim plot`: figures from sweep tables, NoC curves and timelines (scripts/plot.py, matplotlib).
#include "top/plot_command.h"

#include <fcntl.h>
#include <signal.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

#include "sim/error.h"
#include "top/embedded_scripts.h"
#include "top/sweep_slurm.h"

namespace stacksim::top {

namespace {

std::string find_python() {
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("STACKSIM_PYTHON"); env && *env) candidates = {env};
    else candidates = {"python3", "/usr/bin/python3"};
    for (const auto& py : candidates)
        if (run_command_line({py, "-c", "import matplotlib"}).exit_code == 0) return py;
    throw sim::InputError(fmt::format(
        "plot: no Python 3 with matplotlib found (tried {}); install it (Debian: apt-get install python3-matplotlib) "
        "or set STACKSIM_PYTHON",
        candidates.size() == 1 ? candidates[0] : "python3, /usr/bin/python3"));
}

}  // namespace

int plot_command(const std::vector<std::string>& args) {
    std::string_view script;
    for (const auto& f : embedded_scripts())
        if (f.file_name == "plot.py") script = f.text;
    if (script.empty()) throw sim::InputError("plot: scripts/plot.py was not embedded in this build");
    const std::string python = find_python();
    std::vector<std::string> argv = {python, "-", "--prog", "stacksim plot"};
    argv.insert(argv.end(), args.begin() + 1, args.end());
    std::vector<char*> cargs;
    for (auto& a : argv) cargs.push_back(a.data());
    cargs.push_back(nullptr);
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) throw sim::InputError("plot: cannot create a pipe");
    const pid_t pid = ::fork();
    if (pid < 0) throw sim::InputError("plot: cannot start Python");
    if (pid == 0) {
        ::dup2(fds[0], 0);
        ::execvp(cargs[0], cargs.data());
        ::_exit(127);
    }
    ::close(fds[0]);
    struct sigaction ignore {}, old {};
    ignore.sa_handler = SIG_IGN;
    ::sigaction(SIGPIPE, &ignore, &old);  // Python ending early is its exit code, not our death
    // The script goes in on stdin (python3 -), so the binary needs no file beside it.
    for (size_t done = 0; done < script.size();) {
        const ssize_t n = ::write(fds[1], script.data() + done, script.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        done += static_cast<size_t>(n);
    }
    ::close(fds[1]);
    ::sigaction(SIGPIPE, &old, nullptr);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 3;
}

}  // namespace stacksim::top
