// SPDX-License-Identifier: Apache-2.0
// The CUDA runtime's state in a native program: registered code, the simulator, handles.
#include "cudart/runtime.h"

#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <systemc>

#include "cudart/fatbinary.h"
#include "cudart/summary_text.h"
#include "sim/error.h"
#include "workloads/ptx_parser.h"

namespace stacksim::cudart {

namespace {

/// Newest PTX the front end reads (nvcc 13's compute_75 .. compute_120 all give PTX ISA 9.0).
constexpr uint32_t kMaxPtxArch = 120;

std::string program_path() {
    std::error_code ec;
    auto p = std::filesystem::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("program") : p.string();
}

const char* env(const char* name) {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
}

void at_exit() { Runtime::get().shutdown(); }

volatile std::sig_atomic_t g_in_signal = 0;

void on_signal(int sig) {
    if (!g_in_signal) {
        g_in_signal = 1;
        // Best effort (not async-signal-safe): the program died outside a CUDA call, so the
        // simulated host is waiting for the next call and the results can still be written.
        Runtime::get().shutdown();
    }
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

}  // namespace

Runtime& Runtime::get() {
    static Runtime* r = new Runtime();  // never destroyed: calls may come from static destructors
    return *r;
}

void Runtime::say(const std::string& line) { std::fprintf(stderr, "stacksim cudart: %s\n", line.c_str()); }

cudaError_t Runtime::unsupported(const char* name) {
    if (m_unsupported_said.insert(name).second) say(fmt::format("{} is not supported by stacksim", name));
    return set_error(cudaErrorNotSupported);
}

Module* Runtime::register_module(const FatBinaryWrapper* wrapper) {
    auto m = std::make_unique<Module>();
    m->wrapper = wrapper;
    m->index = static_cast<uint32_t>(m_modules.size());
    m->source_name = fmt::format("{}.module{}.ptx", std::filesystem::path(program_path()).filename().string(),
                                 m->index);
    m_modules.push_back(std::move(m));
    return m_modules.back().get();
}

void Runtime::register_function(Module* m, const void* host_fn, const char* name) {
    Function f;
    f.module = m;
    f.name = name ? name : "";
    m_functions[host_fn] = f;
}

void Runtime::register_variable(Module* m, const void* host_var, const char* name, size_t bytes, bool constant) {
    m_variables[host_var] = Variable{m, name ? name : "", bytes, constant};
}

void Runtime::unregister_module(Module* m) {
    (void)m;  // kept: kernels may still be referenced by records until the process ends
}

Function* Runtime::function(const void* host_fn) {
    auto it = m_functions.find(host_fn);
    return it == m_functions.end() ? nullptr : &it->second;
}

const Variable* Runtime::variable(const void* host_var) const {
    auto it = m_variables.find(host_var);
    return it == m_variables.end() ? nullptr : &it->second;
}

cudaError_t Runtime::load(Function& f) {
    Module& m = *f.module;
    if (cudaError_t e = load_module(m)) return e;
    if (!f.kernel) {
        f.kernel = m.parsed.find(f.name);
        if (!f.kernel) {
            say(fmt::format("kernel {} is not in the program's PTX", f.name));
            return set_error(cudaErrorInvalidDeviceFunction);
        }
    }
    return cudaSuccess;
}

cudaError_t Runtime::load_module(Module& m) {
    if (!m.loaded && m.error.empty()) {
        try {
            if (!m.wrapper || !m.wrapper->data) throw sim::InputError("a registered module has no fatbinary");
            const auto* data = reinterpret_cast<const uint8_t*>(m.wrapper->data);
            // The container's own header bounds it; 16 bytes are always readable.
            const uint64_t size = 16 + reinterpret_cast<const uint64_t*>(data)[1];
            auto entries = parse_fatbinary(data, size);
            m.ptx = select_ptx(entries, kMaxPtxArch, &m.ptx_arch);
            m.parsed = workloads::parse_ptx(m.ptx, m.source_name);
            m.loaded = true;
        } catch (const std::exception& e) {
            m.error = e.what();
            say(m.error);
        }
    }
    return m.loaded ? cudaSuccess : set_error(cudaErrorNoKernelImageForDevice);
}

bool Runtime::is_device_range(uint64_t p, uint64_t bytes) const {
    auto it = m_device_allocs.upper_bound(p);
    if (it == m_device_allocs.begin()) return false;
    --it;
    return p >= it->first && p - it->first <= it->second && bytes <= it->second - (p - it->first);
}

bool Runtime::is_pinned_range(const void* p, uint64_t bytes) const {
    for (const auto* ranges : {&m_host_allocs, &m_registered}) {
        auto it = ranges->upper_bound(p);
        if (it == ranges->begin()) continue;
        --it;
        const auto base = reinterpret_cast<uintptr_t>(it->first), q = reinterpret_cast<uintptr_t>(p);
        if (q >= base && bytes <= it->second && q - base <= it->second - bytes) return true;
    }
    return false;
}

StreamObject* Runtime::stream(cudaStream_t s, bool* ok) {
    *ok = true;
    const auto v = reinterpret_cast<uintptr_t>(s);
    if (v == 0 || v == 1 || v == 2) return nullptr;  // default, cudaStreamLegacy, cudaStreamPerThread
    auto* o = reinterpret_cast<StreamObject*>(s);
    if (!m_streams.count(o)) {
        *ok = false;
        return nullptr;
    }
    return o;
}

StreamObject* Runtime::new_stream(unsigned flags) {
    m_stream_store.push_back(std::make_unique<StreamObject>());
    StreamObject* s = m_stream_store.back().get();
    s->flags = flags;
    m_streams.insert(s);
    return s;
}

EventObject* Runtime::new_event(unsigned flags) {
    m_event_store.push_back(std::make_unique<EventObject>());
    EventObject* e = m_event_store.back().get();
    e->flags = flags;
    m_events.insert(e);
    return e;
}

std::vector<workloads::StreamId> Runtime::blocking_streams() const {
    std::vector<workloads::StreamId> out;
    for (auto* s : m_streams)
        if (!(s->flags & kStreamNonBlocking)) out.push_back(s->id);
    std::sort(out.begin(), out.end());
    return out;
}

top::RunOptions Runtime::options_from_env() {
    top::RunOptions o;
    if (const char* c = env(RuntimeEnv::kConfig)) o.config = c;
    if (const char* s = env(RuntimeEnv::kSet)) {
        std::stringstream ss(s);
        std::string line;
        while (std::getline(ss, line))
            if (!line.empty()) o.overrides.push_back(line);
    }
    if (const char* out = env(RuntimeEnv::kOut)) {
        o.out_dir = out;
    } else if (!env(RuntimeEnv::kQuiet)) {
        // No results folder: the results go to a private temporary one, only for the summary.
        char tmpl[] = "/tmp/stacksim-cuda-XXXXXX";
        if (::mkdtemp(tmpl)) {
            m_temp_dir = tmpl;
            o.out_dir = m_temp_dir + "/results";
        }
    }
    o.force = env(RuntimeEnv::kForce) && std::string(env(RuntimeEnv::kForce)) == "1";
    if (const char* t = env(RuntimeEnv::kTimeline)) o.timeline_file = t;
    o.quiet = true;
    o.program = &m_bridge;
    o.program_name = "cuda " + std::filesystem::path(program_path()).filename().string();
    // The path the launcher was given (a sweep names its points' programs so), else the binary.
    const char* launched = env(RuntimeEnv::kProgram);
    o.program_file = launched ? launched : program_path();
    return o;
}

const top::RunConfig* Runtime::config() {
    if (!m_prepared && !m_config_failed) {
        m_options = options_from_env();
        try {
            m_prepared = top::prepare_run(m_options);
        } catch (const std::exception& e) {
            m_config_failed = true;
            say(e.what());
            std::exit(2);  // bad use: the configuration given to the library
        }
        // A program that only asks about the device (deviceQuery) still gets its results folder.
        start();
    }
    return m_prepared ? &m_prepared->cfg : nullptr;
}

bool Runtime::start() {
    if (m_started) return !m_stopped && !m_bridge.ended();
    m_started = true;  // first: config() starts the simulator too
    if (!config()) return false;
    ::setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    m_owner = std::this_thread::get_id();
    m_sim = std::thread([this] { simulate(); });
    std::atexit(at_exit);
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT}) std::signal(sig, on_signal);
    return true;
}

void Runtime::simulate() {
    std::string why;
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    try {
        m_sim_exit = top::run_simulation(m_options);
    } catch (const std::exception& e) {
        why = e.what();
        m_sim_exit = 3;
    }
    if (!why.empty()) say("simulation failed: " + why);
    m_bridge.simulation_ended(why);
}

namespace {
/// The host range that mirrors simulated device addresses (DeviceRuntime allocates from 256 MB).
constexpr uint64_t kMirrorBase = 0x1000'0000, kMirrorBytes = uint64_t{1} << 40, kHostPage = 4096;
}  // namespace

bool Runtime::map_managed(uint64_t p, uint64_t bytes) {
    if (!m_reserved) {
        void* r = ::mmap(reinterpret_cast<void*>(kMirrorBase), kMirrorBytes, PROT_NONE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
        if (r == MAP_FAILED || r != reinterpret_cast<void*>(kMirrorBase)) {
            if (r != MAP_FAILED) ::munmap(r, kMirrorBytes);
            say("managed memory: the program's address space has no room for the device address range");
            return false;
        }
        m_reserved = r;
    }
    if (p < kMirrorBase || p + bytes > kMirrorBase + kMirrorBytes) return false;
    const uint64_t lo = p / kHostPage * kHostPage, hi = (p + bytes + kHostPage - 1) / kHostPage * kHostPage;
    if (::mprotect(reinterpret_cast<void*>(lo), hi - lo, PROT_READ | PROT_WRITE) != 0) return false;
    m_managed[p] = bytes;
    return true;
}

void Runtime::unmap_managed(uint64_t p) { m_managed.erase(p); }

bool Runtime::init_managed_variables(Module* m) {
    bool ok = true;
    for (ManagedVariable& v : m_managed_vars) {
        if (v.module != m || !v.host_ptr || *v.host_ptr) continue;
        if (load_module(*m) != cudaSuccess) return false;
        workloads::DevPtr p = 0;
        std::vector<uint8_t> initial(v.bytes);  // the variable's initial value (the PTX initialiser)
        const cudaError_t e = call(
            [&](workloads::HostApi& h) {
                h.load_ptx_source(m->source_name, m->ptx);
                p = h.symbol_address(m->source_name, v.name);
                h.peek(initial.data(), p, v.bytes);
            },
            cudaErrorInvalidSymbol);
        if (e != cudaSuccess || !map_managed(p, v.bytes)) {
            say(fmt::format("__managed__ variable {} could not be placed", v.name));
            ok = false;
            continue;
        }
        std::memcpy(reinterpret_cast<void*>(p), initial.data(), v.bytes);
        *v.host_ptr = reinterpret_cast<void*>(p);
    }
    return ok;
}

cudaError_t Runtime::call(const std::function<void(workloads::HostApi&)>& fn, cudaError_t failure) {
    if (m_stopped) return set_error(cudaErrorCudartUnloading);
    if (!start()) return set_error(m_bridge.ended() ? cudaErrorLaunchFailure : cudaErrorInitializationError);
    if (std::this_thread::get_id() != m_owner) {
        say("CUDA calls from a second host thread are not supported (the simulated host is one thread)");
        return set_error(cudaErrorNotSupported);
    }
    try {
        if (m_managed.empty()) {
            m_bridge.call(fn);
        } else {
            // The program's copies of managed memory are the truth while the GPU is idle.
            m_bridge.call([&](workloads::HostApi& h) {
                if (h.device_idle())
                    for (const auto& [p, n] : m_managed) h.poke(p, reinterpret_cast<const void*>(p), n);
                fn(h);
                if (h.device_idle())
                    for (const auto& [p, n] : m_managed) h.peek(reinterpret_cast<void*>(p), p, n);
            });
        }
    } catch (...) {
        return set_error(error_from_exception(std::current_exception(), failure));
    }
    return cudaSuccess;
}

void Runtime::shutdown() {
    if (!m_started || m_stopped) return;
    m_stopped = true;
    m_bridge.finish();
    if (m_sim.joinable()) m_sim.join();
    if (!env(RuntimeEnv::kQuiet) && !m_options.out_dir.empty() && m_sim_exit == 0) {
        std::ifstream in(m_options.out_dir + "/summary.json");
        std::stringstream ss;
        ss << in.rdbuf();
        std::fputs(summary_text(ss.str(), m_temp_dir.empty() ? m_options.out_dir : "").c_str(), stderr);
    }
    if (!m_temp_dir.empty()) {
        std::error_code ec;
        std::filesystem::remove_all(m_temp_dir, ec);
    }
}

cudaError_t error_from_exception(std::exception_ptr e, cudaError_t failure) {
    try {
        std::rethrow_exception(e);
    } catch (const sim::InputError& x) {
        Runtime::say(x.what());
        return cudaErrorInvalidValue;
    } catch (const std::exception& x) {
        Runtime::say(x.what());
        // A kernel's assert() (core/ops_call.cpp, __assertfail) stops the run with this message.
        if (std::string(x.what()).find("assertion failed: ") != std::string::npos) return cudaErrorAssert;
        return failure;
    }
}

}  // namespace stacksim::cudart
