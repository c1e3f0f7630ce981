// SPDX-License-Identifier: Apache-2.0
// The local process pool of `stacksim sweep`: each point a `stacksim run` child process.
#include "top/sweep_pool.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace stacksim::top {

namespace {

volatile std::sig_atomic_t g_stop = 0;
extern "C" void on_stop_signal(int s) { g_stop = s; }

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string clock_text(double seconds) {
    const auto s = static_cast<long long>(std::llround(std::max(0.0, seconds)));
    if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
    return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

SweepPool::SweepPool(SweepStore& store, const SweepPlan& plan, std::string exe, unsigned jobs)
    : m_store(store), m_plan(plan), m_exe(std::move(exe)), m_jobs(jobs ? jobs : 1) {}

void SweepPool::start(size_t point) {
    const SweepPoint& p = m_plan.points()[point];
    Child c{-1, point, m_store.begin(p), {m_exe}, now_seconds()};
    c.command.insert(c.command.end(), p.args.begin(), p.args.end());
    c.command.insert(c.command.end(), {"--out", c.attempt.out, "--quiet"});
    if (!p.program.empty()) {
        c.command.push_back("--");
        c.command.insert(c.command.end(), p.program.begin(), p.program.end());
    }
    std::vector<char*> argv;
    for (auto& a : c.command) argv.push_back(a.data());
    argv.push_back(nullptr);
    const int log = m_store.open_log(c.attempt);
    const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (log < 0 || null < 0) throw std::runtime_error(c.attempt.log + ": cannot create: " + std::strerror(errno));
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(std::string("fork failed: ") + std::strerror(errno));
    if (pid == 0) {
        // The point dies with the sweep, so a killed sweep leaves no run behind to finish later.
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(127);
        ::dup2(null, 0);
        ::dup2(log, 1);
        ::dup2(log, 2);
        ::execv(m_exe.c_str(), argv.data());
        const char* msg = "stacksim sweep: cannot execute the stacksim binary\n";
        [[maybe_unused]] auto n = ::write(2, msg, std::strlen(msg));
        ::_exit(127);
    }
    ::close(log);
    ::close(null);
    c.pid = pid;
    m_running.push_back(std::move(c));
}

void SweepPool::finish(Child& c, int status) {
    const SweepPoint& p = m_plan.points()[c.point];
    PointOutcome o;
    o.host_seconds = now_seconds() - c.started;
    o.timed_out = c.timed_out;
    if (WIFEXITED(status)) o.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) o.signal = WTERMSIG(status);
    // Interrupted (by us, or by the Ctrl-C that reached the whole process group): stays pending.
    if ((c.stopped || g_stop) && o.exit_code != 0) {
        std::error_code ec;
        std::filesystem::remove_all(c.attempt.dir, ec);
        return;
    }
    const PointRecord r = m_store.publish(p, c.attempt, o, c.command);
    const bool ok = r.state == PointRecord::State::Done;
    ++(ok ? m_done : m_failed);
    ++m_finished;
    const size_t n = m_before + m_failed_before + m_done + m_failed;
    const std::string width = std::to_string(std::to_string(m_total).size());
    const std::string line =
        ok ? fmt::format("sweep: [{:>{}}/{}] done   {} {:7.2f} s  {}", n, std::stoul(width), m_total, p.hash,
                         o.host_seconds, p.label)
           : fmt::format("sweep: [{:>{}}/{}] FAILED {} {:7.2f} s  {}: {}", n, std::stoul(width), m_total, p.hash,
                         o.host_seconds, p.label, r.error);
    if (m_lines) {
        std::fprintf(stdout, "%s\n", line.c_str());
        std::fflush(stdout);
    }
    if (m_tty && !ok) {
        std::fprintf(stderr, "\r\x1b[K%s\n", line.c_str());
        show_progress(true);
    }
}

void SweepPool::show_progress(bool force) {
    if (!m_tty) return;
    const double now = now_seconds();
    if (!force && now - m_last_draw < 0.25) return;
    m_last_draw = now;
    const size_t done = m_before + m_done, failed = m_failed_before + m_failed, running = m_running.size();
    const size_t pending = m_total - std::min(m_total, done + failed + running);
    const double elapsed = now - m_t0;
    const std::string eta =
        m_finished ? clock_text(static_cast<double>(pending + running) * elapsed / static_cast<double>(m_finished))
                   : std::string("--");
    std::fprintf(stderr, "\rsweep: %zu/%zu done, %zu failed, %zu running, %zu pending | %s elapsed, ETA %s\x1b[K", done,
                 m_total, failed, running, pending, clock_text(elapsed).c_str(), eta.c_str());
    std::fflush(stderr);
}

bool SweepPool::run(const std::vector<size_t>& todo, size_t done_before, size_t failed_before) {
    m_total = m_plan.points().size();
    m_before = done_before;
    m_failed_before = failed_before;
    m_tty = ::isatty(STDERR_FILENO) != 0;
    m_lines = ::isatty(STDOUT_FILENO) == 0;
    m_t0 = now_seconds();
    g_stop = 0;
    struct sigaction act {}, old_int {}, old_term {};
    act.sa_handler = on_stop_signal;
    sigemptyset(&act.sa_mask);
    ::sigaction(SIGINT, &act, &old_int);
    ::sigaction(SIGTERM, &act, &old_term);
    const double timeout = m_plan.timeout_seconds();
    size_t next = 0;
    while (next < todo.size() || !m_running.empty()) {
        while (!g_stop && m_running.size() < m_jobs && next < todo.size()) start(todo[next++]);
        if (m_running.empty()) break;
        int status = 0;
        const pid_t pid = ::waitpid(-1, &status, WNOHANG);
        if (pid > 0) {
            for (size_t i = 0; i < m_running.size(); ++i)
                if (m_running[i].pid == pid) {
                    Child c = std::move(m_running[i]);
                    m_running.erase(m_running.begin() + static_cast<std::ptrdiff_t>(i));
                    finish(c, status);
                    break;
                }
            continue;
        }
        const double now = now_seconds();
        for (Child& c : m_running) {
            if (timeout > 0 && !c.timed_out && now - c.started > timeout) {
                c.timed_out = true;
                ::kill(c.pid, SIGKILL);
            }
            if (g_stop && !c.stopped) {
                c.stopped = true;
                ::kill(c.pid, SIGTERM);
            }
        }
        show_progress(false);
        ::usleep(20000);
    }
    ::sigaction(SIGINT, &old_int, nullptr);
    ::sigaction(SIGTERM, &old_term, nullptr);
    if (m_tty) {
        std::fprintf(stderr, "\r\x1b[K");
        std::fflush(stderr);
    }
    return g_stop == 0;
}

}  // namespace stacksim::top
