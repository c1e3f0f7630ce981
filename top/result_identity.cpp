// SPDX-License-Identifier: Apache-2.0
// What a result depends on beyond its configuration: the simulator's build and its input files.
#include "top/result_identity.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "sim/error.h"
#include "top/build_identity.h"

namespace stacksim::top {

namespace {

namespace fs = std::filesystem;

}  // namespace

std::string file_content_hash(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw sim::InputError(fmt::format("{}: cannot read: {}", path, std::strerror(errno)));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw sim::InputError(fmt::format("{}: not a regular file", path));
    }
    uint64_t h = 1469598103934665603ull;
    std::vector<unsigned char> buf(1 << 16);
    for (;;) {
        const ssize_t n = ::read(fd, buf.data(), buf.size());
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            throw sim::InputError(fmt::format("{}: cannot read: {}", path, std::strerror(err)));
        }
        if (n == 0) break;
        for (ssize_t i = 0; i < n; ++i) {
            h ^= buf[static_cast<size_t>(i)];
            h *= 1099511628211ull;
        }
    }
    ::close(fd);
    return fmt::format("fnv1a64:{:016x}", h);
}

namespace {

/// Every regular file directly in `dir` (links to regular files included), sorted.
std::vector<std::string> files_in(const std::string& dir) {
    std::vector<std::string> out;
    std::error_code ec;
    for (auto& e : fs::directory_iterator(dir, ec))
        if (e.is_regular_file(ec)) out.push_back(e.path().string());
    if (ec) throw sim::InputError(fmt::format("{}: cannot list the folder: {}", dir, ec.message()));
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

nlohmann::json result_identity(const std::string& ptx_dir, const std::string& trace, const std::string& program) {
    nlohmann::json inputs = nlohmann::json::object();
    if (!program.empty()) inputs[program] = file_content_hash(program);
    if (!ptx_dir.empty())
        for (const std::string& f : files_in(ptx_dir)) inputs[f] = file_content_hash(f);
    if (!trace.empty()) {
        inputs[trace] = file_content_hash(trace);
        const fs::path dir = fs::path(trace).has_parent_path() ? fs::path(trace).parent_path() : fs::path(".");
        for (const std::string& f : files_in(dir.string()))
            if (!inputs.contains(f)) inputs[f] = file_content_hash(f);
    }
    return {{"build", build_identity()}, {"inputs", inputs}};
}

std::string identity_change(const nlohmann::json& recorded, const nlohmann::json& current) {
    if (!recorded.is_object() || !recorded.contains("build") || !recorded.contains("inputs") ||
        !recorded["inputs"].is_object())
        return "no result identity recorded (made by an older stacksim)";
    if (recorded["build"] != current["build"])
        return fmt::format("made by another simulator build ({})",
                           recorded["build"].is_string() ? recorded["build"].get<std::string>() : std::string("?"));
    const nlohmann::json& was = recorded["inputs"];
    const nlohmann::json& now = current["inputs"];
    for (auto it = now.begin(); it != now.end(); ++it) {
        if (!was.contains(it.key())) return "input added: " + it.key();
        if (was[it.key()] != it.value()) return "input changed: " + it.key();
    }
    for (auto it = was.begin(); it != was.end(); ++it)
        if (!now.contains(it.key())) return "input removed: " + it.key();
    return "";
}

}  // namespace stacksim::top
