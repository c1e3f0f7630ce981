// SPDX-License-Identifier: Apache-2.0
// `stacksim cuda`: runs a native CUDA program on the simulated GPU through stacksim's libcudart.
#include "top/cuda_command.h"

#include <boost/program_options.hpp>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "sim/error.h"
#include "top/run_command.h"

namespace stacksim::top {

namespace {

const char* const kUsage = R"(usage: stacksim cuda [CONFIG] [--set KEY=VALUE]... [--out DIR [--force]] [--timeline FILE.json]
                     [--quiet] -- PROGRAM [ARGS...]

Runs a CUDA program, compiled with nvcc -cudart shared, on the GPU that CONFIG describes (a
preset or TOML file as for `stacksim run`; default gtx980): its host code runs natively, its
CUDA calls go to stacksim's CUDA runtime library, and its kernels run in the simulator from the
PTX in the program. The results folder (--out) is the same as `stacksim run`'s and appears when
the program exits. The exit status is the program's own (128+N when signal N killed it).
The library reads the same settings from STACKSIM_CONFIG, STACKSIM_SET (KEY=VALUE lines),
STACKSIM_OUT, STACKSIM_FORCE, STACKSIM_TIMELINE and STACKSIM_QUIET (docs/cuda_programs.md).
)";

/// The folder holding libcudart.so.13: $STACKSIM_CUDART_DIR, or beside this executable (the
/// build tree's cudart/, an installation's ../lib/stacksim).
std::string runtime_dir() {
    if (const char* d = std::getenv("STACKSIM_CUDART_DIR"); d && *d) return d;
    std::error_code ec;
    const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (ec) return "";
    for (const auto& dir : {exe.parent_path() / "cudart", exe.parent_path().parent_path() / "lib" / "stacksim"})
        if (std::filesystem::exists(dir / "libcudart.so.13", ec)) return dir.string();
    return "";
}

/// The program file `name` names: a path, or a name looked up on PATH.
std::string find_program(const std::string& name) {
    if (name.find('/') != std::string::npos) return name;
    const char* path = std::getenv("PATH");
    std::stringstream ss(path ? path : "");
    std::string dir;
    while (std::getline(ss, dir, ':')) {
        const std::string p = (dir.empty() ? "." : dir) + "/" + name;
        if (::access(p.c_str(), X_OK) == 0) return p;
    }
    return name;
}

const char* signal_name(int sig) {
    const char* n = ::sigabbrev_np(sig);
    return n ? n : "?";
}

}  // namespace

CudaProgramCheck check_cuda_program(const std::string& path) {
    CudaProgramCheck c;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
        c.problem = fmt::format("{}: no such program", path);
        return c;
    }
    if (::access(path.c_str(), X_OK) != 0) {
        c.problem = fmt::format("{}: not executable", path);
        return c;
    }
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.compare(0, 4, "\x7f" "ELF") != 0) {
        c.problem = fmt::format("{}: not a CUDA program (not an ELF executable)", path);
        return c;
    }
    // The dynamic section names the runtime it needs: "libcudart.so.13".
    const std::string key = "libcudart.so.";
    std::string version;
    for (size_t at = bytes.find(key); at != std::string::npos; at = bytes.find(key, at + 1)) {
        size_t end = at + key.size();
        while (end < bytes.size() && std::isdigit(static_cast<unsigned char>(bytes[end]))) ++end;
        if (end < bytes.size() && bytes[end] == '\0' && end > at + key.size()) {
            version = bytes.substr(at + key.size(), end - at - key.size());
            break;
        }
    }
    if (version.empty()) {
        c.problem = bytes.find("__cudaRegisterFatBinary") != std::string::npos
                        ? fmt::format("{}: linked with CUDA's static runtime: rebuild it with nvcc -cudart shared", path)
                        : fmt::format("{}: not a CUDA program (it does not load libcudart.so)", path);
        return c;
    }
    if (version != "13" && version != "12") {
        c.problem = fmt::format("{}: needs libcudart.so.{}; stacksim's runtime library is libcudart.so.13 (and .so.12): "
                                "rebuild it with nvcc 12 or 13",
                                path, version);
        return c;
    }
    c.ok = true;
    return c;
}

int cuda_command(const std::vector<std::string>& all_args) {
    namespace po = boost::program_options;
    std::vector<std::string> args(all_args.begin() + 1, all_args.end());
    std::vector<std::string> program;
    auto dashes = std::find(args.begin(), args.end(), "--");
    if (dashes != args.end()) {
        program.assign(dashes + 1, args.end());
        args.erase(dashes, args.end());
    }
    RunOptions o;
    bool quiet = false;
    po::options_description desc("options", 100, 50);
    desc.add_options()
        ("set", po::value<std::vector<std::string>>(&o.overrides)->composing()->value_name("KEY=VALUE"),
         "override one config key (repeatable)")
        ("out,o", po::value<std::string>(&o.out_dir)->value_name("DIR"),
         "write the results (as stacksim run --out) into DIR when the program exits")
        ("force", po::bool_switch(&o.force), "with --out: replace a non-empty DIR")
        ("timeline", po::value<std::string>(&o.timeline_file)->value_name("FILE.json"),
         "write a Chrome/Perfetto trace of the run")
        ("quiet,q", po::bool_switch(&quiet), "print no summary at the end")
        ("help,h", "print this help");
    po::options_description hidden;
    hidden.add_options()("config", po::value<std::string>(&o.config), "preset or TOML file");
    po::options_description opts;
    opts.add(desc).add(hidden);
    po::positional_options_description pos;
    pos.add("config", 1);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(opts).positional(pos).run(), vm);
    if (vm.count("help")) {
        std::cout << kUsage << "\n" << desc;
        return kExitOk;
    }
    po::notify(vm);
    if (program.empty())
        throw sim::InputError("stacksim cuda: no program: give it after --, e.g. stacksim cuda -- ./app ARGS");
    prepare_run(o);  // the configuration and --out, checked before the program starts
    const std::string exe = find_program(program[0]);
    const CudaProgramCheck check = check_cuda_program(exe);
    if (!check.ok) throw sim::InputError(check.problem);
    const std::string dir = runtime_dir();
    if (dir.empty())
        throw sim::InputError("stacksim cuda: the runtime library libcudart.so.13 is not built (cmake --build build "
                              "--target cudart) or STACKSIM_CUDART_DIR does not name its folder");

    std::string sets;
    for (const auto& s : o.overrides) sets += s + "\n";
    ::setenv("STACKSIM_CONFIG", o.config.c_str(), 1);
    ::setenv("STACKSIM_SET", sets.c_str(), 1);
    if (!o.out_dir.empty()) ::setenv("STACKSIM_OUT", std::filesystem::absolute(o.out_dir).c_str(), 1);
    else ::unsetenv("STACKSIM_OUT");
    ::setenv("STACKSIM_FORCE", o.force ? "1" : "0", 1);
    ::setenv("STACKSIM_PROGRAM", std::filesystem::absolute(exe).lexically_normal().c_str(), 1);
    if (!o.timeline_file.empty())
        ::setenv("STACKSIM_TIMELINE", std::filesystem::absolute(o.timeline_file).c_str(), 1);
    else ::unsetenv("STACKSIM_TIMELINE");
    if (quiet) ::setenv("STACKSIM_QUIET", "1", 1);
    ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 1);
    const char* old = std::getenv("LD_LIBRARY_PATH");
    const std::string ld = dir + (old && *old ? ":" + std::string(old) : "");
    ::setenv("LD_LIBRARY_PATH", ld.c_str(), 1);

    std::vector<char*> argv;
    for (auto& a : program) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) throw sim::InputError(fmt::format("stacksim cuda: cannot start {}: {}", exe, std::strerror(errno)));
    if (pid == 0) {
        ::execv(exe.c_str(), argv.data());
        std::fprintf(stderr, "stacksim cuda: cannot run %s: %s\n", exe.c_str(), std::strerror(errno));
        std::_Exit(127);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    int code = 0;
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        std::fprintf(stderr, "stacksim cuda: %s died on signal %d (SIG%s)\n", program[0].c_str(), sig, signal_name(sig));
        code = 128 + sig;
    } else {
        code = WEXITSTATUS(status);
    }
    std::error_code ec;
    if (!o.out_dir.empty() && !std::filesystem::exists(o.out_dir + "/summary.json", ec) && !quiet)
        std::fprintf(stderr, "stacksim cuda: no results in %s (the program made no CUDA call, or the simulation "
                             "failed)\n", o.out_dir.c_str());
    return code;
}

}  // namespace stacksim::top
