// SPDX-License-Identifier: Apache-2.0
// The rule for every file the user names as an output (see output_path.h).
#include "sim/output_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

#include "sim/error.h"

namespace stacksim::sim {

namespace {

bool is_stream(mode_t mode) { return S_ISFIFO(mode) || S_ISCHR(mode); }

/// The descriptor a /dev/stdout-like name stands for, or -1.
int own_descriptor(const std::string& path) {
    if (path == "/dev/stdout") return 1;
    if (path == "/dev/stderr") return 2;
    for (const char* prefix : {"/dev/fd/", "/proc/self/fd/"}) {
        const std::string p(prefix);
        if (path.size() > p.size() && path.size() <= p.size() + 4 && path.compare(0, p.size(), p) == 0 &&
            path.find_first_not_of("0123456789", p.size()) == std::string::npos)
            return std::stoi(path.substr(p.size()));
    }
    return -1;
}

std::string kind_name(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISLNK(mode)) return "a symbolic link";
    return "not a regular file";
}

}  // namespace

OutputKind classify_output(const std::string& path, const std::string& what) {
    if (path.empty()) throw InputError(fmt::format("{}: the file name is empty", what));
    if (own_descriptor(path) >= 0) return OutputKind::Stream;
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return OutputKind::Replace;
        throw InputError(fmt::format("{}: {}", what, std::strerror(errno)));
    }
    if (S_ISREG(st.st_mode)) return OutputKind::Replace;
    if (is_stream(st.st_mode)) return OutputKind::Stream;
    if (S_ISLNK(st.st_mode)) {
        struct stat target {};
        if (::stat(path.c_str(), &target) == 0 && is_stream(target.st_mode)) return OutputKind::Stream;
        throw InputError(fmt::format("{}: is a symbolic link; outputs are never written through or over a link "
                                     "(name the file it points to)",
                                     what));
    }
    throw InputError(fmt::format("{}: is {}; an output is a regular file, a FIFO or a character device", what,
                                 kind_name(st.st_mode)));
}

int open_stream_output(const std::string& path, const std::string& what) {
    const int own = own_descriptor(path);
    const int fd = own >= 0 ? ::fcntl(own, F_DUPFD_CLOEXEC, 3) : ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) throw InputError(fmt::format("{}: cannot open for writing: {}", what, std::strerror(errno)));
    struct stat st {};
    if (own < 0 && (::fstat(fd, &st) != 0 || !is_stream(st.st_mode))) {
        ::close(fd);  // replaced between the check and the open
        throw InputError(fmt::format("{}: is no longer a FIFO or character device", what));
    }
    return fd;
}

int create_temp_beside(const std::string& path, const std::string& suffix, const std::string& what,
                       std::string& tmp) {
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    std::random_device rd;
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string name = path + ".";
        for (int i = 0; i < 6; ++i) name += letters[rd() % (sizeof letters - 1)];
        name += suffix;
        const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
        if (fd >= 0) {
            tmp = std::move(name);
            return fd;
        }
        if (errno != EEXIST) throw InputError(fmt::format("{}: cannot write the file: {}", what, std::strerror(errno)));
    }
    throw InputError(fmt::format("{}: cannot create a temporary file beside it", what));
}

void rename_into_place(const std::string& tmp, const std::string& path, const std::string& what) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
        std::remove(tmp.c_str());
        throw InputError(fmt::format("{}: is {} now; not replaced", what, kind_name(st.st_mode)));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        std::remove(tmp.c_str());
        throw InputError(fmt::format("{}: cannot rename the temporary file into place: {}", what, std::strerror(err)));
    }
}

void write_all(int fd, const char* data, size_t size, const std::string& what) {
    size_t done = 0;
    while (done < size) {
        const ssize_t n = ::write(fd, data + done, size - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw InputError(fmt::format("{}: write failed: {}", what, std::strerror(errno)));
        done += static_cast<size_t>(n);
    }
}

}  // namespace stacksim::sim
