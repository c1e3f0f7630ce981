// SPDX-License-Identifier: Apache-2.0
// Runs a measurement in a forked child process (SystemC elaborates once per process).
#include "sim/child_process.h"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "sim/error.h"

namespace stacksim::sim {

namespace {

enum Status : uint8_t { kOk = 0, kInput = 1, kSimulation = 2 };

bool write_all(int fd, const void* p, size_t n) {
    const char* c = static_cast<const char*>(p);
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w <= 0) return false;
        c += w;
        n -= static_cast<size_t>(w);
    }
    return true;
}

bool read_all(int fd, void* p, size_t n) {
    char* c = static_cast<char*>(p);
    while (n) {
        ssize_t r = read(fd, c, n);
        if (r <= 0) return false;
        c += r;
        n -= static_cast<size_t>(r);
    }
    return true;
}

[[noreturn]] void child(int fd, const std::function<std::string()>& measure) {
    uint8_t status = kOk;
    std::string message;
    std::string v;
    try {
        v = measure();
    } catch (const InputError& e) {
        status = kInput;
        message = e.what();
    } catch (const std::exception& e) {
        status = kSimulation;
        message = e.what();
    }
    const uint64_t n = status == kOk ? v.size() : message.size();
    const bool ok = write_all(fd, &status, 1) && write_all(fd, &n, sizeof n) &&
                    write_all(fd, status == kOk ? v.data() : message.data(), n);
    _exit(ok ? 0 : 1);
}

// A started child: its pid and the read end of its pipe.
struct Child {
    pid_t pid = -1;
    int fd = -1;
};

Child start_child(const std::function<std::string()>& measure) {
    int fds[2];
    if (pipe(fds) != 0) throw SimulationError("run_in_child: pipe failed");
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]);
        close(fds[1]);
        throw SimulationError("run_in_child: fork failed");
    }
    if (pid == 0) {
        // The child dies with its parent (a killed run or sweep leaves no alone run behind); a
        // parent already gone before the request took effect is seen by getppid().
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(1);
        close(fds[0]);
        child(fds[1], measure);
    }
    close(fds[1]);
    return {pid, fds[0]};
}

// Reads a child's answer and reaps it; throws what it threw.
std::string finish_child(const Child& c) {
    uint8_t status = 0;
    uint64_t n = 0;
    std::string text;
    bool ok = read_all(c.fd, &status, 1) && read_all(c.fd, &n, sizeof n) && n < (uint64_t{1} << 30);
    if (ok) {
        text.resize(n);
        ok = read_all(c.fd, text.data(), n);
    }
    close(c.fd);
    int wstatus = 0;
    waitpid(c.pid, &wstatus, 0);
    if (ok && status == kInput) throw InputError(text);
    if (ok && status == kSimulation) throw SimulationError(text);
    if (!ok || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) throw SimulationError("child process failed");
    return text;
}

void kill_child(const Child& c) {
    kill(c.pid, SIGKILL);
    close(c.fd);
    int wstatus = 0;
    waitpid(c.pid, &wstatus, 0);
}

std::function<std::string()> as_text(const std::function<std::vector<double>()>& measure) {
    return [measure] {
        const std::vector<double> v = measure();
        return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(double));
    };
}

std::vector<double> as_numbers(const std::string& bytes) {
    std::vector<double> v(bytes.size() / sizeof(double));
    std::memcpy(v.data(), bytes.data(), v.size() * sizeof(double));
    return v;
}

}  // namespace

std::vector<double> run_in_child(const std::function<std::vector<double>()>& measure) {
    return as_numbers(run_in_child_text(as_text(measure)));
}

std::string run_in_child_text(const std::function<std::string()>& measure) {
    return finish_child(start_child(measure));
}

std::vector<std::vector<double>> run_in_children(const std::vector<std::function<std::vector<double>()>>& measures,
                                                 unsigned jobs) {
    std::vector<std::vector<double>> out;
    std::vector<Child> running;  // measures out.size() .. out.size() + running.size() - 1
    size_t next = 0;
    try {
        while (out.size() < measures.size()) {
            while (next < measures.size() && running.size() < std::max(jobs, 1u))
                running.push_back(start_child(as_text(measures[next++])));
            // In the order given, so results and the failure reported do not depend on timing.
            const Child c = running.front();
            running.erase(running.begin());
            out.push_back(as_numbers(finish_child(c)));
        }
    } catch (...) {
        for (const Child& c : running) kill_child(c);
        throw;
    }
    return out;
}

}  // namespace stacksim::sim
