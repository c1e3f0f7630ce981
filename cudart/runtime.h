// SPDX-License-Identifier: Apache-2.0
// The CUDA runtime's state in a native program: registered code, the simulator, handles.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "core/kernel.h"
#include "cudart/cuda_abi.h"
#include "cudart/program_bridge.h"
#include "top/run_command.h"

namespace stacksim::cudart {

/// One fatbinary the program registered (one compiled .cu file).
struct Module {
    const FatBinaryWrapper* wrapper = nullptr;
    uint32_t index = 0;
    bool loaded = false;     ///< PTX extracted and parsed (on first use)
    std::string ptx;
    uint32_t ptx_arch = 0;   ///< the virtual architecture of that PTX (80 for compute_80)
    std::string source_name; ///< names the PTX in the simulator ("app.module0.ptx")
    core::Module parsed;     ///< for the parameter layout and attributes
    std::string error;       ///< why it could not be loaded (one line)
};

/// One registered __global__ function.
struct Function {
    Module* module = nullptr;
    std::string name;  ///< mangled entry name
    const core::Kernel* kernel = nullptr;  ///< after the module has loaded
    int max_dynamic_shared = 0;            ///< cudaFuncAttributeMaxDynamicSharedMemorySize
};

/// One registered __device__ / __constant__ variable: the symbol calls (cudart/api_symbol.cpp)
/// reach it in the simulator by its module's source name and its PTX name.
struct Variable {
    Module* module = nullptr;
    std::string name;
    size_t bytes = 0;
    bool constant = false;
};

/// One registered __managed__ variable: the program reaches it through `*host_ptr`, which
/// __cudaInitModule points at the variable's simulated address (mirrored like managed memory).
struct ManagedVariable {
    Module* module = nullptr;
    void** host_ptr = nullptr;
    std::string name;
    size_t bytes = 0;
};

struct CaptureSession;
struct GraphNode;

struct StreamObject {
    workloads::StreamId id = 0;
    unsigned flags = 0;
    CaptureSession* capture = nullptr;       ///< the capture it takes part in (cudart/stream_capture.h)
    std::vector<GraphNode*> capture_deps;    ///< while capturing: what its next node waits for
};

struct EventObject {
    std::optional<workloads::EventId> id;  ///< the last record, if any
    unsigned flags = 0;
    uint64_t capture_id = 0;               ///< last recorded in this capture (0: none)
    std::vector<GraphNode*> capture_deps;  ///< the capturing stream's nodes at that record
};

/// A launch configuration pushed by <<<...>>>.
struct CallConfig {
    dim3 grid{1, 1, 1}, block{1, 1, 1};
    size_t shared = 0;
    cudaStream_t stream = nullptr;
};

/// Environment variables that configure the library (the `stacksim cuda` launcher sets them).
struct RuntimeEnv {
    static constexpr const char* kConfig = "STACKSIM_CONFIG";      ///< preset or TOML file
    static constexpr const char* kSet = "STACKSIM_SET";            ///< KEY=VALUE lines (newline separated)
    static constexpr const char* kOut = "STACKSIM_OUT";            ///< results folder
    static constexpr const char* kForce = "STACKSIM_FORCE";        ///< "1": replace a non-empty results folder
    static constexpr const char* kTimeline = "STACKSIM_TIMELINE";  ///< Chrome trace file
    static constexpr const char* kQuiet = "STACKSIM_QUIET";        ///< "1": no summary on stderr
    static constexpr const char* kProgram = "STACKSIM_PROGRAM";    ///< the program's path as launched
};

/// The process-wide runtime. Every API entry point takes lock() first.
class Runtime {
public:
    static Runtime& get();
    std::unique_lock<std::recursive_mutex> lock() { return std::unique_lock<std::recursive_mutex>(m_mutex); }

    // Registration (before main, from nvcc's static constructors).
    Module* register_module(const FatBinaryWrapper* wrapper);
    void register_function(Module* m, const void* host_fn, const char* name);
    void register_variable(Module* m, const void* host_var, const char* name, size_t bytes, bool constant);
    void unregister_module(Module* m);
    void register_managed_variable(Module* m, void** host_ptr, const char* name, size_t bytes) {
        m_managed_vars.push_back({m, host_ptr, name ? name : "", bytes});
    }
    /// __cudaInitModule: places module `m`'s __managed__ variables and points the program's
    /// references at them. False (with the reason printed) when it cannot.
    bool init_managed_variables(Module* m);

    /// The function registered for `host_fn` (its stub), or null.
    Function* function(const void* host_fn);
    /// Loads the function's module (PTX from its fatbinary, parsed): cudaSuccess or an error,
    /// with the reason printed once.
    cudaError_t load(Function& f);
    /// Loads module `m` (its PTX from the fatbinary, parsed): cudaSuccess or an error, with the
    /// reason printed once. The simulator places its variables when a call first uses them.
    cudaError_t load_module(Module& m);
    const Variable* variable(const void* host_var) const;

    /// Starts the simulator if it has not started; false (with the reason printed) if it cannot.
    bool start();
    /// Runs `fn` on the simulated host thread. Returns cudaSuccess, or the error that the
    /// exception it threw maps to (`failure` for a simulation error), remembered as last error.
    cudaError_t call(const std::function<void(workloads::HostApi&)>& fn, cudaError_t failure = cudaErrorLaunchFailure);
    /// Ends the program's host program and the simulation, writes the results (at exit).
    void shutdown();
    bool stopped() const { return m_stopped; }

    /// The simulated GPU's configuration (starts the simulator's configuration if needed).
    const top::RunConfig* config();
    /// The preset or TOML file the simulator runs.
    const std::string& config_name() const { return m_options.config; }

    cudaError_t set_error(cudaError_t e) {
        if (e != cudaSuccess) m_last_error = e;
        return e;
    }
    cudaError_t take_error() {
        cudaError_t e = m_last_error;
        m_last_error = cudaSuccess;
        return e;
    }
    cudaError_t peek_error() const { return m_last_error; }

    std::vector<CallConfig>& configs() { return m_configs; }

    // Memory bookkeeping: device allocations (simulated addresses) and host allocations.
    std::map<uint64_t, uint64_t>& device_allocations() { return m_device_allocs; }
    /// True when [p, p + bytes) lies inside one device allocation.
    bool is_device_range(uint64_t p, uint64_t bytes) const;
    std::map<const void*, size_t>& host_allocations() { return m_host_allocs; }
    /// Host memory the program pinned with cudaHostRegister: start -> bytes.
    std::map<const void*, size_t>& registered_host() { return m_registered; }
    /// True when [p, p + bytes) lies inside one pinned host allocation (cudaMallocHost,
    /// cudaHostAlloc without cudaHostAllocMapped) or registered range: what asynchronous
    /// copies need.
    bool is_pinned_range(const void* p, uint64_t bytes) const;
    /// Mapped pinned memory (cudaHostAllocMapped): host memory the kernels reach at the same
    /// address, kept like managed memory (map_managed) but copied over PCIe as host memory.
    std::map<uint64_t, uint64_t>& mapped_host_allocations() { return m_mapped_host; }
    /// Makes [p, p + bytes) of a managed allocation readable and writable by the program at the
    /// same address (a reserved host range mirrors the simulated device addresses). False when
    /// the range cannot be reserved.
    bool map_managed(uint64_t p, uint64_t bytes);
    void unmap_managed(uint64_t p);
    bool is_managed(uint64_t p) const { return m_managed.count(p) != 0; }
    /// True when [p, p + bytes) lies in memory the program and the simulator both hold (managed
    /// allocations and variables, mapped pinned memory): a copy that writes the program's side
    /// must write the simulated side too, or the copy back after the call undoes it.
    bool is_mirrored(uint64_t p, uint64_t bytes) const {
        auto it = m_managed.upper_bound(p);
        if (it == m_managed.begin()) return false;
        --it;
        return p - it->first < it->second && bytes <= it->second - (p - it->first);
    }

    // Streams and events: handles are pointers to these objects.
    StreamObject* stream(cudaStream_t s, bool* ok);
    StreamObject* new_stream(unsigned flags);
    void destroy_stream(StreamObject* s) { m_streams.erase(s); }
    EventObject* event(cudaEvent_t e) { return m_events.count(reinterpret_cast<EventObject*>(e)) ? reinterpret_cast<EventObject*>(e) : nullptr; }
    EventObject* new_event(unsigned flags);
    void destroy_event(EventObject* e) { m_events.erase(e); }
    /// Streams that synchronise with the legacy default stream (created without cudaStreamNonBlocking).
    std::vector<workloads::StreamId> blocking_streams() const;

    /// Prints "stacksim cudart: NAME is not supported" once per name; returns cudaErrorNotSupported.
    cudaError_t unsupported(const char* name);
    /// Prints one line to stderr, prefixed with the library's name.
    static void say(const std::string& line);

private:
    Runtime() = default;
    void simulate();
    top::RunOptions options_from_env();

    std::recursive_mutex m_mutex;
    std::vector<std::unique_ptr<Module>> m_modules;
    std::map<const void*, Function> m_functions;
    std::map<const void*, Variable> m_variables;
    std::vector<ManagedVariable> m_managed_vars;
    std::vector<CallConfig> m_configs;
    cudaError_t m_last_error = cudaSuccess;
    std::map<uint64_t, uint64_t> m_device_allocs;
    std::map<const void*, size_t> m_host_allocs;
    std::map<const void*, size_t> m_registered;
    std::map<uint64_t, uint64_t> m_mapped_host;
    /// Managed allocations: the program's copy (at the same address) is written to the simulated
    /// memory before each call that finds the GPU idle, and read back after it.
    std::map<uint64_t, uint64_t> m_managed;
    void* m_reserved = nullptr;
    std::set<StreamObject*> m_streams;
    std::vector<std::unique_ptr<StreamObject>> m_stream_store;
    std::set<EventObject*> m_events;
    std::vector<std::unique_ptr<EventObject>> m_event_store;
    std::set<std::string> m_unsupported_said;

    std::optional<top::PreparedRun> m_prepared;
    top::RunOptions m_options;
    bool m_config_failed = false;
    ProgramBridge m_bridge;
    std::thread m_sim;
    std::thread::id m_owner;
    bool m_started = false;
    bool m_stopped = false;
    int m_sim_exit = 0;
    std::string m_temp_dir;  ///< results folder of a run without STACKSIM_OUT (removed after the summary)
};

/// Maps an exception from the simulator (InputError, SimulationError) to a cudaError_t, printing
/// its message once.
cudaError_t error_from_exception(std::exception_ptr e, cudaError_t failure);

}  // namespace stacksim::cudart
