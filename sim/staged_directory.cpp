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

namespace stacksim::sim {

namespace fs = std::filesystem;

namespace {

std::string without_trailing_slashes(std::string p) {
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    return p;
}

[[noreturn]] void fail(const std::string& target, const std::string& what, int err) {
    throw InputError("--out " + target + ": " + what + ": " + std::strerror(err));
}

}  // namespace

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

StagedDirectory::StagedDirectory(std::string target) : m_target(without_trailing_slashes(std::move(target))) {
    const fs::path t(m_target);
    const fs::path parent = t.has_parent_path() ? t.parent_path() : fs::path(".");
    std::string tmpl = (parent / ("." + t.filename().string() + ".stacksim-XXXXXX")).string();
    std::vector<char> name(tmpl.begin(), tmpl.end());
    name.push_back('\0');
    if (::mkdtemp(name.data()) == nullptr) fail(m_target, "cannot create a staging folder beside it", errno);
    m_staging = name.data();
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
    if (!replace)
        throw InputError("--out " + m_target + ": the folder is not empty (another run's results?); give --force to "
                         "replace it, or choose another folder");
    // --force: swap the new folder and the old one in one step, then delete the old one.
    if (::renameat2(AT_FDCWD, m_staging.c_str(), AT_FDCWD, m_target.c_str(), RENAME_EXCHANGE) != 0)
        fail(m_target, "cannot replace the results folder", errno);
    m_published = true;
    std::error_code ec;
    fs::remove_all(m_staging, ec);
}

}  // namespace stacksim::sim
