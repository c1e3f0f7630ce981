// SPDX-License-Identifier: Apache-2.0
// A results folder written whole: files go into a private staging folder published by one rename.
#include "sim/staged_directory.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <vector>

#include "sim/error.h"
#include "sim/output_error.h"

namespace stacksim::sim {

namespace fs = std::filesystem;

namespace {

std::string without_trailing_slashes(std::string p) {
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    return p;
}

[[noreturn]] void fail(const std::string& target, const std::string& what, int err) {
    const std::string message = "--out " + target + ": " + what + ": " + std::strerror(err);
    // The machine's fault, not the input's: a full disk, a file size limit, a failing device.
    if (err == ENOSPC || err == EDQUOT || err == EFBIG || err == EIO) throw OutputError(message);
    throw InputError(message);
}

std::string printable_path(const std::string& p) {
    // One line even for a hostile name: control characters are shown, long names shortened.
    std::string out;
    for (unsigned char c : p) {
        if (c < 0x20 || c == 0x7f) out += "?";
        else out += static_cast<char>(c);
        if (out.size() > 200) return out + "...";
    }
    return out;
}

}  // namespace

std::string results_folder_kind(const std::string& path) {
    const std::string marker = path + "/" + kResultsMarker;
    const int fd = ::open(marker.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) return "";
    struct stat st {};
    char buf[64] = {};
    ssize_t n = -1;
    if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    if (n <= 0) return "";
    std::string kind(buf, static_cast<size_t>(n));
    const auto nl = kind.find('\n');
    return nl == std::string::npos ? "" : kind.substr(0, nl);
}

void mark_results_folder(const std::string& path, const std::string& kind, const std::string& option) {
    const std::string marker = path + "/" + kResultsMarker;
    const int fd = ::open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) throw InputError(option + " " + printable_path(path) + ": cannot create the marker " + kResultsMarker +
                                 ": " + std::strerror(errno));
    const std::string text = kind + "\n";
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    const int err = errno;
    ::close(fd);
    if (!ok) throw InputError(option + " " + printable_path(path) + ": cannot write the marker " + kResultsMarker +
                              ": " + std::strerror(err));
}

void check_results_target(const std::string& path, bool replace, const std::string& kind, const std::string& option) {
    if (path.empty()) throw InputError(option + " \"\": an empty path names no folder");
    const std::string shown = option + " " + printable_path(path);
    const std::string p = without_trailing_slashes(path);
    const std::string last = fs::path(p).filename().string();
    if (last == "." || last == "..")
        throw InputError(shown + ": name the results folder itself, not a path ending in '.' or '..'");
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
        if (errno == ENOENT) return;
        throw InputError(shown + ": cannot inspect the results folder: " + std::strerror(errno));
    }
    if (S_ISLNK(st.st_mode))
        throw InputError(shown + ": is a symbolic link; name the results folder itself (links are not followed)");
    if (!S_ISDIR(st.st_mode)) throw InputError(shown + ": exists and is not a folder");
    std::error_code ec;
    const bool empty = fs::is_empty(p, ec);
    if (ec) throw InputError(shown + ": cannot read the results folder: " + ec.message());
    if (empty) return;
    const std::string found = results_folder_kind(p);
    if (found.empty())
        throw InputError(shown + ": the folder is not empty and is not a stacksim results folder (no " +
                         kResultsMarker + " marker); nothing in it is replaced: choose another folder");
    if (found != kind)
        throw InputError(shown + ": the folder holds the results of a stacksim " + printable_path(found) +
                         ", not of a " + kind + "; choose another folder");
    if (!replace)
        throw InputError(shown + ": the folder is not empty (another run's results?); give --force to replace it, "
                                 "or choose another folder");
}

bool results_folder_free(const std::string& path) {
    struct stat st {};
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno == ENOENT) return true;
        fail(path, "cannot inspect the results folder", errno);
    }
    if (!S_ISDIR(st.st_mode)) throw InputError("--out " + path + ": exists and is not a folder");
    std::error_code ec;
    const bool empty = fs::is_empty(path, ec);
    if (ec) fail(path, "cannot read the results folder", ec.value());
    return empty;
}

StagedDirectory::StagedDirectory(std::string target, std::string kind)
    : m_target(without_trailing_slashes(std::move(target))), m_kind(std::move(kind)) {
    const fs::path t(m_target);
    const fs::path parent = t.has_parent_path() ? t.parent_path() : fs::path(".");
    std::string tmpl = (parent / ("." + t.filename().string() + ".stacksim-XXXXXX")).string();
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    if (::mkdtemp(name.data()) == nullptr) fail(m_target, "cannot create a staging folder beside it", errno);
    m_staging = name.data();
    write(kResultsMarker, m_kind + "\n");
}

StagedDirectory::~StagedDirectory() {
    if (m_published) return;
    std::error_code ec;
    fs::remove_all(m_staging, ec);
}

void StagedDirectory::write(const std::string& name, const std::string& content) {
    const std::string path = m_staging + "/" + name;
    // The staging folder is private and fresh; O_EXCL | O_NOFOLLOW still refuse anything there.
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0) fail(m_target, "cannot write " + name, errno);
    size_t done = 0;
    while (done < content.size()) {
        const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            const int err = errno;
            ::close(fd);
            fail(m_target, "cannot write " + name, err);
        }
        done += static_cast<size_t>(n);
    }
    if (::close(fd) != 0) fail(m_target, "cannot write " + name, errno);
}

void StagedDirectory::publish(bool replace) {
    // mkdtemp made the folder private (0700); a results folder is an ordinary one.
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::chmod(m_staging.c_str(), 0777 & ~mask);
    // rename() moves onto an absent target or an empty folder, and refuses a non-empty one.
    if (std::rename(m_staging.c_str(), m_target.c_str()) == 0) {
        m_published = true;
        return;
    }
    const int err = errno;
    if (err != ENOTEMPTY && err != EEXIST) fail(m_target, "cannot move the results into place", err);
    // Only a folder that says it holds results of this kind is ever swapped out and deleted.
    check_results_target(m_target, replace, m_kind);
    // --force: swap the new folder and the old one in one step, then delete the old one.
    if (::renameat2(AT_FDCWD, m_staging.c_str(), AT_FDCWD, m_target.c_str(), RENAME_EXCHANGE) != 0)
        fail(m_target, "cannot replace the results folder", errno);
    m_published = true;
    std::error_code ec;
    fs::remove_all(m_staging, ec);
}

}  // namespace stacksim::sim
