// SPDX-License-Identifier: Apache-2.0
// Runs a measurement in a forked child process (SystemC elaborates once per process).
#include "sim/child_process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
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

[[noreturn]] void child(int fd, const std::function<std::vector<double>()>& measure) {
    uint8_t status = kOk;
    std::string message;
    std::vector<double> v;
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
                    (status == kOk ? write_all(fd, v.data(), n * sizeof(double)) : write_all(fd, message.data(), n));
    _exit(ok ? 0 : 1);
}

}  // namespace

std::vector<double> run_in_child(const std::function<std::vector<double>()>& measure) {
    int fds[2];
    if (pipe(fds) != 0) throw SimulationError("run_in_child: pipe failed");
    std::fflush(stdout);
    std::fflush(stderr);
    const pid_t pid = fork();
    if (pid < 0) throw SimulationError("run_in_child: fork failed");
    if (pid == 0) {
        close(fds[0]);
        child(fds[1], measure);
    }
    close(fds[1]);
    uint8_t status = 0;
    uint64_t n = 0;
    std::vector<double> v;
    std::string message;
    bool ok = read_all(fds[0], &status, 1) && read_all(fds[0], &n, sizeof n) && n < (uint64_t{1} << 30);
    if (ok && status == kOk) {
        v.resize(n);
        ok = read_all(fds[0], v.data(), n * sizeof(double));
    } else if (ok) {
        message.resize(n);
        ok = read_all(fds[0], message.data(), n);
    }
    close(fds[0]);
    int wstatus = 0;
    waitpid(pid, &wstatus, 0);
    if (ok && status == kInput) throw InputError(message);
    if (ok && status == kSimulation) throw SimulationError(message);
    if (!ok || !WIFEXITED(wstatus) || WEXITSTATUS(wstatus) != 0) throw SimulationError("child process failed");
    return v;
}

}  // namespace stacksim::sim
