// SPDX-License-Identifier: Apache-2.0
// Writes a file atomically: to a fresh temporary beside it, then renamed over the target.
#include "sim/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "sim/output_path.h"

namespace stacksim::sim {

namespace {

std::string directory_of(const std::string& path) {
    const auto slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

void write_all(int fd, const std::string& content, const std::string& path) {
    size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
        done += static_cast<size_t>(n);
    }
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& content) {
    // A FIFO or character device is written in place, never replaced (sim/output_path.h).
    if (classify_output(path, path) == OutputKind::Stream) {
        const int fd = open_stream_output(path, path);
        try {
            write_all(fd, content, path);
        } catch (...) {
            ::close(fd);
            throw;
        }
        if (::close(fd) != 0) throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
        return;
    }
    // mkstemp creates a new file under a random name with O_EXCL: a file or symlink planted at a
    // predictable name cannot be followed or overwritten.
    std::string tmpl = directory_of(path) + "/.stacksim-XXXXXX";
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    const int fd = ::mkstemp(name.data());
    if (fd < 0) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
    const std::string tmp(name.data());
    try {
        write_all(fd, content, path);
        // mkstemp makes the file private (0600); results are ordinary files.
        const mode_t mask = ::umask(0);
        ::umask(mask);
        ::fchmod(fd, 0666 & ~mask);
        if (::close(fd) != 0) throw std::runtime_error(path + ": write failed: " + std::strerror(errno));
    } catch (...) {
        ::close(fd);
        std::remove(tmp.c_str());
        throw;
    }
    rename_into_place(tmp, path, path);
}

}  // namespace stacksim::sim
