// SPDX-License-Identifier: Apache-2.0
// The trace cache: round trip, invalidation, damaged files, concurrent builders, placement, settings.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "core/op_table.h"
#include "core/trace_kernel.h"
#include "sim/error.h"
#include "workloads/accelsim_trace.h"
#include "workloads/trace_cache.h"
#include "workloads/trace_codec.h"
#include "tests/test_data.h"

using namespace stacksim;
using namespace stacksim::workloads;
namespace fs = std::filesystem;

namespace {

/// A fresh folder of this process, removed at the end of the test case.
struct Scratch {
    fs::path path;
    Scratch() {
        static int n = 0;
        path = fs::temp_directory_path() / ("stacksim_trace_cache_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~Scratch() {
        std::error_code ec;
        fs::permissions(path, fs::perms::owner_all, fs::perm_options::add, ec);
        fs::remove_all(path, ec);
    }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
};

std::string slurp(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

void spit(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string shipped_trace() { return slurp(test::data_path("accelsim/vecadd-256/kernel-1.traceg")); }

/// A trace with what the shipped one lacks: no kernel name, generic accesses resolved both ways,
/// uniform and predicate registers (336 register ids), more than four sources (Vector operands),
/// atomics and base+delta addresses.
std::string varied_trace() {
    return "-grid dim = (2,1,1)\n-block dim = (64,1,1)\n-binary version = 70\n"
           "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f0001000000\n"
           "-accelsim tracer version = 4\n\n#traces format = ...\n"
           "#BEGIN_TB\nthread block = 1,0,0\nwarp = 1\ninsts = 5\n"
           "0000 ffffffff 1 R1 IMAD 6 R2 R3 R4 R5 R6 R7 0\n"
           "0010 0000000f 1 R2 LD.E 1 UR4 4 0 0x7f0000000010 0x7f0000000014 0x7f0000000018 0x7f000000001c\n"
           "0010 00000003 1 R2 LD.E 1 UR4 4 2 0x10000000 4\n"
           "0020 00000007 0 ATOMG.E.ADD 2 R1 P0 4 1 0x20000000 8\n"
           "0030 ffffffff 0 EXIT 0 0\n#END_TB\n"
           "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0030 ffffffff 0 EXIT 0 0\n#END_TB\n";
}

/// Every field of two kernels equal; instruction pointers compared by their index.
void require_same(const core::TraceKernel& a, const core::TraceKernel& b) {
    REQUIRE(a.name == b.name);
    REQUIRE(a.file == b.file);
    REQUIRE(a.grid == b.grid);
    REQUIRE(a.block == b.block);
    REQUIRE(a.shared_bytes == b.shared_bytes);
    REQUIRE(a.regs_per_thread == b.regs_per_thread);
    REQUIRE(a.binary_version == b.binary_version);
    REQUIRE(a.num_regs == b.num_regs);
    REQUIRE(a.idempotent == b.idempotent);
    REQUIRE(a.static_insts.size() == b.static_insts.size());
    std::map<const core::Instruction*, size_t> ia, ib;
    for (size_t i = 0; i < a.static_insts.size(); ++i) {
        const core::Instruction &x = a.static_insts[i], &y = b.static_insts[i];
        ia[&x] = ib[&y] = i;
        REQUIRE(x.info == y.info);
        REQUIRE(x.space == y.space);
        REQUIRE(x.text == y.text);
        REQUIRE(x.line == y.line);
        REQUIRE(*x.file == *y.file);
        REQUIRE(x.num_dst == y.num_dst);
        REQUIRE(x.num_src == y.num_src);
        for (unsigned k = 0; k < 2; ++k)
            REQUIRE((x.dst[k].kind == y.dst[k].kind && x.dst[k].reg == y.dst[k].reg && x.dst[k].vec == y.dst[k].vec &&
                     x.dst[k].vec_len == y.dst[k].vec_len));
        for (unsigned k = 0; k < 4; ++k)
            REQUIRE((x.src[k].kind == y.src[k].kind && x.src[k].reg == y.src[k].reg && x.src[k].vec == y.src[k].vec &&
                     x.src[k].vec_len == y.src[k].vec_len));
        REQUIRE(x.num_reads == y.num_reads);
        REQUIRE(x.num_writes == y.num_writes);
        REQUIRE(x.reads == y.reads);
        REQUIRE(x.writes == y.writes);
    }
    REQUIRE(a.ctas.size() == b.ctas.size());
    for (size_t c = 0; c < a.ctas.size(); ++c) {
        REQUIRE(a.ctas[c].id == b.ctas[c].id);
        REQUIRE(a.ctas[c].warps.size() == b.ctas[c].warps.size());
        for (size_t w = 0; w < a.ctas[c].warps.size(); ++w) {
            const core::WarpTrace &x = a.ctas[c].warps[w], &y = b.ctas[c].warps[w];
            REQUIRE(x.addresses == y.addresses);
            REQUIRE(x.insts.size() == y.insts.size());
            for (size_t i = 0; i < x.insts.size(); ++i) {
                const core::TraceInstruction &p = x.insts[i], &q = y.insts[i];
                REQUIRE(ia.at(p.inst) == ib.at(q.inst));
                REQUIRE((p.pc == q.pc && p.active_mask == q.active_mask && p.addr_index == q.addr_index &&
                         p.access_bytes == q.access_bytes && p.is_load == q.is_load && p.is_store == q.is_store &&
                         p.is_atomic == q.is_atomic));
            }
        }
    }
}

TraceCacheSettings settings_in(const std::string& dir) { return {dir, "test-build"}; }

/// The message of the InputError `f` throws, or "" when it returns.
template <typename F> std::string error_of(F f) {
    try {
        f();
    } catch (const sim::InputError& e) {
        return e.what();
    }
    return "";
}

bool no_temporaries(const std::string& dir) {
    for (auto& e : fs::directory_iterator(dir))
        if (e.path().extension() != ".stc") return false;
    return true;
}

}  // namespace

TEST_CASE("trace cache: a cached kernel equals the parsed one, cold and warm", "[trace][cache]") {
    Scratch s;
    for (const auto& [name, text] : {std::pair{"vecadd.traceg", shipped_trace()}, std::pair{"varied.traceg", varied_trace()}}) {
        const std::string trace = s / name;
        spit(trace, text);
        const auto parsed = read_traceg(trace);
        TraceCacheUse use{};
        const auto cold = load_traceg(trace, settings_in(s / "cache"), &use);
        CHECK(use == TraceCacheUse::Stored);
        require_same(*parsed, *cold);
        const auto warm = load_traceg(trace, settings_in(s / "cache"), &use);
        CHECK(use == TraceCacheUse::Hit);
        require_same(*parsed, *warm);
        // Another path to the same file: one cache file; the path given names the kernel and file.
        const std::string other = s.path.string() + "/./" + name;
        const auto via = load_traceg(other, settings_in(s / "cache"), &use);
        CHECK(use == TraceCacheUse::Hit);
        require_same(*read_traceg(other), *via);
        CHECK(no_temporaries(s / "cache"));
    }
    const auto varied = read_traceg(s / "varied.traceg");
    CHECK(varied->name == s / "varied.traceg");
    CHECK(varied->num_regs == kSassRegSpace);
}

TEST_CASE("trace cache: a changed trace, build or format is rebuilt, never misread", "[trace][cache]") {
    Scratch s;
    const std::string trace = s / "k.traceg";
    std::string text = shipped_trace();
    spit(trace, text);
    TraceCacheUse use{};
    load_traceg(trace, settings_in(s / "c"), &use);
    REQUIRE(use == TraceCacheUse::Stored);
    struct stat before {};
    REQUIRE(::stat(trace.c_str(), &before) == 0);

    // Same size and modification time, other content: only the content hash tells.
    const size_t at = text.find("0x10000400");
    REQUIRE(at != std::string::npos);
    text.replace(at, 10, "0x10000480");
    spit(trace, text);
    const timespec times[2] = {before.st_atim, before.st_mtim};
    REQUIRE(::utimensat(AT_FDCWD, trace.c_str(), times, 0) == 0);
    auto k = load_traceg(trace, settings_in(s / "c"), &use);
    CHECK(use == TraceCacheUse::Stored);
    require_same(*read_traceg(trace), *k);
    load_traceg(trace, settings_in(s / "c"), &use);
    CHECK(use == TraceCacheUse::Hit);

    // Only the modification time changes: rebuilt too.
    const timespec later[2] = {before.st_atim, {before.st_mtim.tv_sec + 10, 0}};
    REQUIRE(::utimensat(AT_FDCWD, trace.c_str(), later, 0) == 0);
    load_traceg(trace, settings_in(s / "c"), &use);
    CHECK(use == TraceCacheUse::Stored);

    // Another build.
    load_traceg(trace, {s / "c", "another-build"}, &use);
    CHECK(use == TraceCacheUse::Stored);
    load_traceg(trace, {s / "c", "another-build"}, &use);
    CHECK(use == TraceCacheUse::Hit);
}

TEST_CASE("trace cache: a damaged or truncated cache file is rebuilt, and decoding never crashes", "[trace][cache]") {
    Scratch s;
    const std::string trace = s / "k.traceg";
    spit(trace, varied_trace());
    const auto parsed = read_traceg(trace);
    const TraceCacheSettings cfg = settings_in(s / "c");
    load_traceg(trace, cfg);
    const std::string file = trace_cache_file(trace, cfg);
    const std::string good = slurp(file);
    REQUIRE(good.size() > 100);
    std::mt19937 rng(7);
    std::vector<std::string> damaged = {"", good.substr(0, 10), good.substr(0, good.size() / 2),
                                        good.substr(0, good.size() - 1), good + "x", "garbage"};
    for (int i = 0; i < 40; ++i) {
        std::string d = good;
        d[rng() % d.size()] ^= static_cast<char>(1 + rng() % 255);
        damaged.push_back(d);
    }
    for (const std::string& d : damaged) {
        spit(file, d);
        TraceCacheUse use{};
        const auto k = load_traceg(trace, cfg, &use);
        CHECK(use == TraceCacheUse::Stored);
        require_same(*parsed, *k);
        CHECK(slurp(file) == good);
    }

    // Payload damage behind a matching checksum (what only a forger makes): refused or decoded,
    // never a crash or an out-of-range index. The payload hash is the header's last field.
    struct stat st {};
    REQUIRE(::stat(trace.c_str(), &st) == 0);
    const std::string text = slurp(trace);
    const std::string build = "test-build\n" + std::to_string(kTraceCacheFormat);
    const TraceKey key{static_cast<uint64_t>(st.st_size), st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
                       trace_hash(text.data(), text.size()), trace_hash(build.data(), build.size())};
    REQUIRE(decode_trace_kernel(good, key, trace) != nullptr);
    constexpr size_t kHeader = 72;
    for (int i = 0; i < 3000; ++i) {
        std::string d = good;
        const size_t at = kHeader + rng() % (d.size() - kHeader);
        d[at] = static_cast<char>(rng() % 3 == 0 ? 0xFF : rng());
        if (rng() % 4 == 0) d.resize(kHeader + rng() % (d.size() - kHeader));
        const uint64_t bytes = d.size() - kHeader, hash = trace_hash(d.data() + kHeader, bytes);
        std::memcpy(&d[kHeader - 16], &bytes, 8);
        std::memcpy(&d[kHeader - 8], &hash, 8);
        if (auto k = decode_trace_kernel(d, key, trace))
            for (const auto& cta : k->ctas)
                for (const auto& w : cta.warps)
                    for (const auto& t : w.insts) {
                        REQUIRE(t.inst != nullptr);
                        if (t.addr_index != core::kNoAddresses)
                            REQUIRE(t.addr_index + static_cast<uint64_t>(__builtin_popcount(t.active_mask)) <=
                                    w.addresses.size());
                    }
    }
}

TEST_CASE("trace cache: builders in several processes at once leave one valid file", "[trace][cache]") {
    Scratch s;
    const std::string trace = s / "k.traceg";
    spit(trace, shipped_trace());
    const TraceCacheSettings cfg = settings_in(s / "c");
    std::vector<pid_t> kids;
    for (int i = 0; i < 6; ++i) {
        const pid_t pid = ::fork();
        REQUIRE(pid >= 0);
        if (pid == 0) {
            int rc = 1;
            try {
                TraceCacheUse use{};
                rc = load_traceg(trace, cfg, &use)->ctas.empty() ? 1 : 0;
            } catch (...) {
            }
            std::_Exit(rc);
        }
        kids.push_back(pid);
    }
    for (pid_t pid : kids) {
        int status = 0;
        REQUIRE(::waitpid(pid, &status, 0) == pid);
        CHECK((WIFEXITED(status) && WEXITSTATUS(status) == 0));
    }
    TraceCacheUse use{};
    const auto k = load_traceg(trace, cfg, &use);
    CHECK(use == TraceCacheUse::Hit);
    require_same(*read_traceg(trace), *k);
    CHECK(no_temporaries(s / "c"));
    CHECK(std::distance(fs::directory_iterator(s / "c"), fs::directory_iterator()) == 1);
}

TEST_CASE("trace cache: a read-only trace folder, an unwritable cache and a planted link", "[trace][cache]") {
    Scratch s;
    fs::create_directories(s / "ro");
    const std::string trace = s / "ro/k.traceg";
    spit(trace, shipped_trace());
    fs::permissions(s / "ro", fs::perms::owner_read | fs::perms::owner_exec, fs::perm_options::replace);
    const auto parsed = read_traceg(trace);
    TraceCacheUse use{};
    require_same(*parsed, *load_traceg(trace, settings_in(s / "c"), &use));
    CHECK(use == TraceCacheUse::Stored);
    require_same(*parsed, *load_traceg(trace, settings_in(s / "c"), &use));
    CHECK(use == TraceCacheUse::Hit);
    CHECK(std::distance(fs::directory_iterator(s / "ro"), fs::directory_iterator()) == 1);  // nothing beside it

    // A cache folder that cannot exist (below a regular file): parsed, nothing written.
    spit(s / "file", "x");
    require_same(*parsed, *load_traceg(trace, settings_in(s / "file/cache"), &use));
    CHECK(use == TraceCacheUse::Unstored);

    // A link planted at the cache file's name is replaced, never followed.
    const TraceCacheSettings cfg = settings_in(s / "linked");
    fs::create_directories(cfg.dir);
    spit(s / "victim", "keep me");
    fs::create_symlink(s / "victim", trace_cache_file(trace, cfg));
    require_same(*parsed, *load_traceg(trace, cfg, &use));
    CHECK(use == TraceCacheUse::Stored);
    CHECK(slurp(s / "victim") == "keep me");
    CHECK(!fs::is_symlink(trace_cache_file(trace, cfg)));
}

TEST_CASE("trace cache: the least recently used files go when the folder is over its budget", "[trace][cache]") {
    Scratch s;
    std::vector<std::string> traces;
    for (int i = 0; i < 3; ++i) {
        traces.push_back(s / ("k" + std::to_string(i) + ".traceg"));
        spit(traces.back(), shipped_trace());
    }
    TraceCacheSettings cfg = settings_in(s / "c");
    load_traceg(traces[0], cfg);
    const uint64_t one = fs::file_size(trace_cache_file(traces[0], cfg));
    cfg.max_bytes = 2 * one;
    // A day-old temporary of a writer that died goes; a fresh one (a writer at work) stays.
    const std::string old_tmp = trace_cache_file(traces[0], cfg) + ".abcdef.tmp";
    const std::string new_tmp = trace_cache_file(traces[0], cfg) + ".ghijkl.tmp";
    spit(old_tmp, "x");
    spit(new_tmp, "x");
    fs::last_write_time(old_tmp, fs::file_time_type::clock::now() - std::chrono::hours(48));
    // Make the first file clearly older, then use it: the second becomes the least recently used.
    fs::last_write_time(trace_cache_file(traces[0], cfg), fs::file_time_type::clock::now() - std::chrono::hours(2));
    load_traceg(traces[1], cfg);
    fs::last_write_time(trace_cache_file(traces[1], cfg), fs::file_time_type::clock::now() - std::chrono::hours(1));
    TraceCacheUse use{};
    load_traceg(traces[0], cfg, &use);
    REQUIRE(use == TraceCacheUse::Hit);
    load_traceg(traces[2], cfg, &use);
    REQUIRE(use == TraceCacheUse::Stored);
    CHECK(fs::exists(trace_cache_file(traces[0], cfg)));
    CHECK(!fs::exists(trace_cache_file(traces[1], cfg)));
    CHECK(fs::exists(trace_cache_file(traces[2], cfg)));
    CHECK(!fs::exists(old_tmp));
    CHECK(fs::exists(new_tmp));
    // A budget below one file keeps only the file just written.
    cfg.max_bytes = 1;
    load_traceg(traces[1], cfg, &use);
    CHECK(use == TraceCacheUse::Stored);
    CHECK(!fs::exists(trace_cache_file(traces[0], cfg)));
    CHECK(fs::exists(trace_cache_file(traces[1], cfg)));
}

TEST_CASE("trace cache: settings come from the option, then the environment, and caching can be off", "[trace][cache]") {
    Scratch s;
    const char* saved[] = {"STACKSIM_TRACE_CACHE", "XDG_CACHE_HOME", "HOME", "STACKSIM_TRACE_CACHE_MAX_MB"};
    std::map<std::string, std::string> old;
    for (const char* v : saved)
        if (const char* x = std::getenv(v)) old[v] = x;
    ::unsetenv("STACKSIM_TRACE_CACHE");
    ::setenv("XDG_CACHE_HOME", "/xdg", 1);
    ::setenv("HOME", "/home/u", 1);
    CHECK(trace_cache_settings("", "b").dir == "/xdg/stacksim/traces");
    ::setenv("XDG_CACHE_HOME", "relative", 1);  // ignored, as the XDG rules say
    CHECK(trace_cache_settings("", "b").dir == "/home/u/.cache/stacksim/traces");
    ::unsetenv("XDG_CACHE_HOME");
    ::unsetenv("HOME");
    CHECK(!trace_cache_settings("", "b").enabled());
    ::setenv("STACKSIM_TRACE_CACHE", "/env/dir/", 1);
    CHECK(trace_cache_settings("", "b").dir == "/env/dir");
    CHECK(trace_cache_settings("/opt/c", "b").dir == "/opt/c");
    for (const char* off : {"off", "0", "no", "none", "false"}) CHECK(!trace_cache_settings(off, "b").enabled());
    ::setenv("STACKSIM_TRACE_CACHE", "off", 1);
    CHECK(!trace_cache_settings("", "b").enabled());
    CHECK(trace_cache_settings("/opt/c", "b").enabled());  // the option wins
    CHECK(trace_cache_settings("", "b").build_id == "b");
    ::unsetenv("STACKSIM_TRACE_CACHE_MAX_MB");
    CHECK(trace_cache_settings("/opt/c", "b").max_bytes == uint64_t{1} << 30);
    ::setenv("STACKSIM_TRACE_CACHE_MAX_MB", "5", 1);
    CHECK(trace_cache_settings("/opt/c", "b").max_bytes == uint64_t{5} << 20);
    for (const char* v : saved) {
        if (old.count(v)) ::setenv(v, old[v].c_str(), 1);
        else ::unsetenv(v);
    }

    const std::string trace = s / "k.traceg";
    spit(trace, shipped_trace());
    TraceCacheUse use{};
    require_same(*read_traceg(trace), *load_traceg(trace, TraceCacheSettings{}, &use));
    CHECK(use == TraceCacheUse::Off);
}

TEST_CASE("trace cache: bad traces give the reader's error, and mutated traces read the same through it", "[trace][cache]") {
    Scratch s;
    const std::string good = shipped_trace();
    const TraceCacheSettings cfg = settings_in(s / "c");
    std::mt19937 rng(11);
    std::vector<std::string> inputs = {"", "-grid dim = (1,1,1)\n", good.substr(0, good.size() / 3), good + "junk\n"};
    // Lines longer than the reader's 1 MiB buffer, starting at and before its end: the in-memory
    // reader cuts the text where the file reader's buffer ends, so both fail (or not) alike.
    const std::string head = good.substr(0, good.find("#BEGIN_TB"));
    for (size_t pad : {size_t{0}, size_t{1} << 19, (size_t{1} << 20) - 5})
        for (size_t len : {size_t{3} << 19, (size_t{1} << 20) + 10})
            inputs.push_back(head + std::string(pad, '\n') + "#BEGIN_TB\n" + std::string(len, 'x') + "\n#END_TB\n");
    for (int i = 0; i < 150; ++i) {
        std::string d = good;
        for (int m = 0; m < 1 + static_cast<int>(rng() % 3); ++m)
            d[rng() % d.size()] = " \n\t0x1fRZ.#-="[rng() % 13];
        inputs.push_back(d);
    }
    for (size_t i = 0; i < inputs.size(); ++i) {
        const std::string trace = s / ("m" + std::to_string(i) + ".traceg");
        spit(trace, inputs[i]);
        std::unique_ptr<core::TraceKernel> a, b;
        const std::string ea = error_of([&] { a = read_traceg(trace); });
        const std::string eb = error_of([&] { b = load_traceg(trace, cfg); });
        INFO(trace);
        REQUIRE(ea == eb);
        if (!ea.empty()) continue;
        require_same(*a, *b);
        require_same(*a, *load_traceg(trace, cfg));  // and from the cache
    }
    // A missing file and a folder: the reader's errors too.
    for (const std::string& p : {s / "missing.traceg", s.path.string()})
        CHECK(error_of([&] { read_traceg(p); }) == error_of([&] { load_traceg(p, cfg); }));
}
