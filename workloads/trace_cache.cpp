// SPDX-License-Identifier: Apache-2.0
// The trace cache: key, file location, reading a valid file, writing one atomically.
#include "workloads/trace_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <exception>
#include <filesystem>
#include <vector>

#include "core/idempotence.h"
#include "sim/output_path.h"
#include "workloads/accelsim_trace.h"
#include "workloads/trace_codec.h"

namespace stacksim::workloads {
namespace {

constexpr uint64_t kMaxCacheBytes = uint64_t{1} << 40;  // a larger "cache file" is not ours

bool is_off(const std::string& v) {
    return v == "off" || v == "0" || v == "no" || v == "none" || v == "false";
}

std::string env(const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
}

/// Closes a descriptor when it goes out of scope.
struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

/// A file's bytes, uninitialised before the read (a string would be zero-filled first).
struct Bytes {
    std::unique_ptr<char[]> data;
    size_t size = 0;
    std::string_view view() const { return {data.get(), size}; }
};

/// The whole content of the open file `fd` (which may have grown since fstat); false on error.
bool read_all(int fd, uint64_t expected, Bytes& out) {
    size_t cap = static_cast<size_t>(expected) + 1;
    out.data.reset(new char[cap]);
    out.size = 0;
    for (;;) {
        if (out.size == cap) {
            std::unique_ptr<char[]> bigger(new char[2 * cap]);
            std::memcpy(bigger.get(), out.data.get(), out.size);
            out.data = std::move(bigger);
            cap *= 2;
        }
        const ssize_t n = ::read(fd, out.data.get() + out.size, cap - out.size);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) return false;
        if (n == 0) return true;
        out.size += static_cast<size_t>(n);
    }
}

/// Creates `dir` and its missing parents (mode 0700); true if it is a folder afterwards.
bool make_dirs(const std::string& dir) {
    for (size_t at = dir.find('/', 1); ; at = dir.find('/', at + 1)) {
        const std::string part = dir.substr(0, at);
        if (!part.empty() && ::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST) return false;
        if (at == std::string::npos) break;
    }
    struct stat st {};
    return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string hex16(uint64_t v) {
    char s[17];
    std::snprintf(s, sizeof s, "%016llx", static_cast<unsigned long long>(v));
    return s;
}

/// The kernel in the cache file `file` if it is valid for `key`, else nullptr.
std::unique_ptr<core::TraceKernel> read_cache(const std::string& file, const TraceKey& key, const std::string& path) {
    Fd f{::open(file.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)};
    struct stat st {};
    if (f.fd < 0 || ::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode) || static_cast<uint64_t>(st.st_size) > kMaxCacheBytes)
        return nullptr;
    Bytes data;
    if (!read_all(f.fd, static_cast<uint64_t>(st.st_size), data)) return nullptr;
    return decode_trace_kernel(data.view(), key, path);
}

/// Writes `bytes` as the cache file `file`: a fresh temporary beside it (O_EXCL, O_NOFOLLOW),
/// synced, then renamed over it. False (and nothing left behind) on any failure.
bool write_cache(const std::string& dir, const std::string& file, const std::string& bytes) {
    if (bytes.empty() || !make_dirs(dir)) return false;
    std::string tmp;
    try {
        Fd f{sim::create_temp_beside(file, ".tmp", file, tmp)};
        sim::write_all(f.fd, bytes.data(), bytes.size(), file);
        if (::fsync(f.fd) != 0 || ::close(f.fd) != 0) {
            f.fd = -1;
            std::remove(tmp.c_str());
            return false;
        }
        f.fd = -1;
        sim::rename_into_place(tmp, file, file);  // removes the temporary when it fails
        return true;
    } catch (const std::exception&) {
        if (!tmp.empty()) std::remove(tmp.c_str());
        return false;
    }
}

/// Removes the least recently used cache files of `dir` (modification time: written or last
/// read) until the rest fit in `max_bytes`, never `keep`; and temporaries a day old (a writer
/// that died). Errors are ignored: another process may be pruning too.
void prune(const std::string& dir, const std::string& keep, uint64_t max_bytes) {
    namespace fs = std::filesystem;
    struct Entry {
        fs::file_time_type used;
        uint64_t bytes;
        fs::path path;
    };
    std::vector<Entry> files;
    uint64_t total = 0;
    std::error_code ec;
    const auto now = fs::file_time_type::clock::now();
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const fs::path& p = it->path();
        if (!it->is_regular_file(ec) || ec) continue;
        const auto used = it->last_write_time(ec);
        const uint64_t bytes = ec ? 0 : it->file_size(ec);
        if (ec) continue;
        const std::string name = p.filename().string();
        if (name.size() > 4 && name.compare(name.size() - 4, 4, ".tmp") == 0 && name.find(".stc.") != std::string::npos) {
            if (now - used > std::chrono::hours(24)) fs::remove(p, ec);
        } else if (name.size() > 4 && name.compare(name.size() - 4, 4, ".stc") == 0) {
            total += bytes;
            if (p.string() != keep) files.push_back({used, bytes, p});
        }
    }
    std::sort(files.begin(), files.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
    for (const Entry& e : files) {
        if (total <= max_bytes) break;
        if (fs::remove(e.path, ec)) total -= e.bytes;
    }
}

}  // namespace

TraceCacheSettings trace_cache_settings(const std::string& option, const std::string& build_id) {
    TraceCacheSettings s;
    s.build_id = build_id;
    std::string dir = option.empty() ? env("STACKSIM_TRACE_CACHE") : option;
    if (is_off(dir)) return s;
    if (dir.empty()) {
        const std::string xdg = env("XDG_CACHE_HOME"), home = env("HOME");
        if (!xdg.empty() && xdg[0] == '/') dir = xdg + "/stacksim/traces";
        else if (!home.empty()) dir = home + "/.cache/stacksim/traces";
    }
    while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
    s.dir = dir;
    const std::string mb = env("STACKSIM_TRACE_CACHE_MAX_MB");
    if (!mb.empty() && mb.size() <= 9 && mb.find_first_not_of("0123456789") == std::string::npos)
        s.max_bytes = std::stoull(mb) << 20;
    return s;
}

std::string trace_cache_file(const std::string& path, const TraceCacheSettings& settings) {
    std::string absolute = path;
    if (char* real = ::realpath(path.c_str(), nullptr)) {
        absolute = real;
        std::free(real);
    }
    std::string base = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
    if (base.size() > 64) base.resize(64);
    for (char& c : base)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
    return settings.dir + "/" + base + "-" + hex16(trace_hash(absolute.data(), absolute.size())) + ".stc";
}

std::unique_ptr<core::TraceKernel> load_traceg(const std::string& path, const TraceCacheSettings& settings,
                                               TraceCacheUse* use) {
    TraceCacheUse dummy;
    TraceCacheUse& how = use ? *use : dummy;
    how = TraceCacheUse::Off;
    if (!settings.enabled()) return read_traceg(path);
    // Anything but a readable regular file (missing, a FIFO, a folder) takes the reader's path,
    // with its errors.
    Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)};
    struct stat st {};
    if (f.fd < 0 || ::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) return read_traceg(path);
    Bytes text;
    if (!read_all(f.fd, static_cast<uint64_t>(st.st_size), text)) return read_traceg(path);
    ::close(f.fd);
    f.fd = -1;

    TraceKey key;
    key.size = static_cast<uint64_t>(st.st_size);
    key.mtime_s = st.st_mtim.tv_sec;
    key.mtime_ns = st.st_mtim.tv_nsec;
    key.content_hash = trace_hash(text.data.get(), text.size);
    const std::string build = settings.build_id + "\n" + std::to_string(kTraceCacheFormat);
    key.build_hash = trace_hash(build.data(), build.size());
    const std::string file = trace_cache_file(path, settings);
    if (auto k = read_cache(file, key, path)) {
        ::utimensat(AT_FDCWD, file.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);  // last use, for pruning
        how = TraceCacheUse::Hit;
        return k;
    }

    auto kernel = std::make_unique<core::TraceKernel>();
    bool name_is_path = false;
    {
        TracegReader reader(path, *kernel, text.view());
        core::CtaTrace cta;
        while (reader.next_cta(cta)) kernel->ctas.push_back(std::move(cta));
        name_is_path = reader.header().name_is_path;
    }
    kernel->idempotent = core::is_idempotent(*kernel);
    // A trace that changed while it was read is not cached: its key would not match its content.
    const bool stable = text.size == key.size;
    text = Bytes();
    how = stable && write_cache(settings.dir, file, encode_trace_kernel(*kernel, key, name_is_path))
              ? TraceCacheUse::Stored
              : TraceCacheUse::Unstored;
    if (how == TraceCacheUse::Stored) prune(settings.dir, file, settings.max_bytes);
    return kernel;
}

}  // namespace stacksim::workloads
