// SPDX-License-Identifier: Apache-2.0
// The simulated host CPU: runs a workload's host program on one SystemC thread.
#include "host/host_program.h"

#include <fmt/format.h>

#include <fstream>
#include <iterator>
#include <sstream>

#include "core/occupancy.h"
#include "core/reconvergence.h"
#include "core/trace_kernel.h"
#include "sim/error.h"
#include "sim/failure.h"
#include "workloads/embedded_ptx.h"
#include "workloads/ptx_parser.h"

namespace stacksim::host {

HostProgram::HostProgram(sc_core::sc_module_name name, workloads::Workload& workload,
                         sched::CtaDispatcher& dispatcher, sim::ClockDomain& core_clock,
                         const core::SmConfig& sm_cfg, std::string ptx_dir,
                         std::function<uint64_t()> instructions, memory::PcieLink* pcie)
    : sc_module(name), m_workload(workload), m_dispatcher(dispatcher), m_clock(core_clock),
      m_sm_cfg(sm_cfg), m_ptx_dir(std::move(ptx_dir)), m_instructions(std::move(instructions)), m_pcie(pcie) {
    SC_THREAD(thread);
}

void HostProgram::thread() {
    try {
        m_workload.run(*this);
        m_finished = true;
    } catch (...) {
        m_failure = std::current_exception();
    }
    if (m_failure)
        sim::record_failure(m_failure);  // also stops the simulation
    else
        sc_core::sc_stop();
}

workloads::DevPtr HostProgram::malloc(uint64_t bytes) {
    return allocate(bytes, m_gmmu && m_gmmu->config().managed());
}

workloads::DevPtr HostProgram::malloc_managed(uint64_t bytes) {
    if (!m_gmmu) return allocate(bytes, false);  // unified memory off: plain memory
    if (m_gmmu->config().mode == memory::UvmMode::Ideal) return allocate(bytes, false);  // no transfer cost
    if (!m_gmmu->can_page())
        throw sim::SimulationError("malloc_managed: demand paging needs the PCIe link (set host.timed_copies = true)");
    return allocate(bytes, true);
}

workloads::DevPtr HostProgram::allocate(uint64_t bytes, bool managed) {
    // Managed allocations own whole pages, so no page mixes managed and device memory.
    const uint64_t align = managed && !m_gmmu->config().managed() ? m_gmmu->config().page_bytes : 256;
    workloads::DevPtr p = (m_next_alloc + align - 1) / align * align;
    m_allocations[p] = Allocation{bytes, managed};
    m_next_alloc = p + (std::max<uint64_t>(bytes, 1) + align - 1) / align * align;
    if (m_gmmu) m_gmmu->allocate(p, bytes, managed);
    return p;
}

bool HostProgram::is_managed(workloads::DevPtr p) const {
    auto it = m_allocations.upper_bound(p);
    return it != m_allocations.begin() && std::prev(it)->second.managed;
}

void HostProgram::free(workloads::DevPtr p) { m_allocations.erase(p); }

void HostProgram::check_range(workloads::DevPtr p, uint64_t bytes, const char* what) const {
    auto it = m_allocations.upper_bound(p);
    if (it != m_allocations.begin()) {
        --it;
        if (p >= it->first && p + bytes <= it->first + it->second.bytes) return;
    }
    throw sim::SimulationError(fmt::format("host {} of {} bytes at 0x{:x} is outside every allocation", what, bytes, p));
}

void HostProgram::timed_copy(memory::Direction d, uint64_t bytes) {
    if (!m_pcie) return;
    const uint64_t start = sc_core::sc_time_stamp().value();
    m_pcie->copy(d, bytes);
    m_copy_ps += sc_core::sc_time_stamp().value() - start;
}

void HostProgram::host_touch(workloads::DevPtr p, uint64_t bytes) {
    for (uint64_t n : m_gmmu->host_access(p, bytes)) timed_copy(memory::Direction::D2H, n);
}

// Managed memory: the host reads and writes its own copy; pages on the GPU come back first.
void HostProgram::memcpy_h2d(workloads::DevPtr dst, const void* src, uint64_t bytes) {
    check_range(dst, bytes, "memcpy to device");
    if (is_managed(dst)) host_touch(dst, bytes);
    else if (!m_free_copies) timed_copy(memory::Direction::H2D, bytes);
    m_memory.write(dst, src, bytes);
}

void HostProgram::memcpy_d2h(void* dst, workloads::DevPtr src, uint64_t bytes) {
    check_range(src, bytes, "memcpy from device");
    if (is_managed(src)) host_touch(src, bytes);
    else if (!m_free_copies) timed_copy(memory::Direction::D2H, bytes);
    m_memory.read(src, dst, bytes);
}

void HostProgram::memset(workloads::DevPtr dst, uint8_t value, uint64_t bytes) {
    check_range(dst, bytes, "memset");
    if (is_managed(dst)) host_touch(dst, bytes);
    m_memory.fill(dst, value, bytes);
}

const core::Module& HostProgram::module(const std::string& ptx_file) {
    auto it = m_modules.find(ptx_file);
    if (it != m_modules.end()) return *it->second;
    std::string text;
    std::string shown = ptx_file;
    bool found = false;
    if (!m_ptx_dir.empty()) {
        std::ifstream in(m_ptx_dir + "/" + ptx_file);
        if (in) {
            std::stringstream ss;
            ss << in.rdbuf();
            text = ss.str();
            shown = m_ptx_dir + "/" + ptx_file;
            found = true;
        }
    }
    if (!found) {
        for (const auto& f : workloads::embedded_ptx())
            if (f.file_name == ptx_file) {
                text = std::string(f.text);
                found = true;
            }
    }
    if (!found) throw sim::InputError(fmt::format("{}: no such PTX file in the kernel library", ptx_file));
    return parse_module(ptx_file, text, shown);
}

const core::Module& HostProgram::parse_module(const std::string& key, const std::string& text,
                                              const std::string& shown) {
    auto it = m_modules.find(key);
    if (it != m_modules.end()) return *it->second;
    core::Module m;
    try {
        m = workloads::parse_ptx(text, shown);
    } catch (const workloads::PtxError& e) {
        throw sim::InputError(e.what());
    }
    for (auto& k : m.kernels) core::compute_reconvergence(k);
    auto& slot = m_modules[key];
    slot = std::make_unique<core::Module>(std::move(m));
    return *slot;
}

void HostProgram::launch_ptx_source(const std::string& source_name, const std::string& ptx_text,
                                    const std::string& entry, workloads::Dim3 grid, workloads::Dim3 block,
                                    const workloads::LaunchArgs& args, uint32_t dynamic_shared_bytes) {
    const core::Module& mod = parse_module("source:" + source_name, ptx_text, source_name);
    launch_kernel(mod, source_name, entry, grid, block, args, dynamic_shared_bytes);
}

void HostProgram::launch(const std::string& ptx_file, const std::string& entry, workloads::Dim3 grid,
                         workloads::Dim3 block, const workloads::LaunchArgs& args,
                         uint32_t dynamic_shared_bytes) {
    launch_kernel(module(ptx_file), ptx_file, entry, grid, block, args, dynamic_shared_bytes);
}

void HostProgram::launch_kernel(const core::Module& mod, const std::string& ptx_file, const std::string& entry,
                                workloads::Dim3 grid, workloads::Dim3 block, const workloads::LaunchArgs& args,
                                uint32_t dynamic_shared_bytes) {
    const core::Kernel* k = mod.find(entry);
    if (!k) throw sim::InputError(fmt::format("{}: no .entry named '{}'", ptx_file, entry));
    if (args.args().size() != k->params.size())
        throw sim::InputError(fmt::format("{}: kernel '{}' takes {} parameters, launch passed {}", ptx_file,
                                          entry, k->params.size(), args.args().size()));
    auto launch = std::make_unique<core::KernelLaunch>();
    launch->id = static_cast<uint32_t>(m_launches.size());
    launch->kernel = k;
    launch->grid = {grid.x, grid.y, grid.z};
    launch->block = {block.x, block.y, block.z};
    launch->params.assign(k->param_bytes, 0);
    for (size_t i = 0; i < k->params.size(); ++i) {
        const auto& p = k->params[i];
        const auto& a = args.args()[i];
        if (a.bytes != p.bytes)
            throw sim::InputError(fmt::format("{}: parameter {} of '{}' is {} bytes, launch passed {}", ptx_file,
                                              p.name, entry, p.bytes, a.bytes));
        std::memcpy(launch->params.data() + p.offset, &a.bits, a.bytes);
    }
    launch->shared_bytes = k->static_shared_bytes + dynamic_shared_bytes;
    launch->regs_per_thread = m_sm_cfg.regs_per_thread;
    launch->global = &m_memory;
    uint32_t threads = launch->threads_per_cta();
    if (threads == 0 || threads > 1024 || launch->num_ctas() == 0)
        throw sim::InputError(fmt::format("{}: launch of '{}' with block {}x{}x{} and grid {}x{}x{} is invalid",
                                          ptx_file, entry, block.x, block.y, block.z, grid.x, grid.y, grid.z));
    core::Occupancy occ = core::occupancy(m_sm_cfg, threads, launch->regs_per_thread, launch->shared_bytes);
    if (occ.ctas == 0)
        throw sim::InputError(fmt::format("{}: a CTA of '{}' does not fit on an SM (limited by {})", ptx_file,
                                          entry, occ.limited_by));

    run_launch(std::move(launch), entry);
}

void HostProgram::run_launch(std::unique_ptr<core::KernelLaunch> launch, const std::string& name) {
    KernelRecord rec;
    rec.name = name;
    rec.ctas = launch->num_ctas();
    rec.start_cycle = m_clock.cycle();
    uint64_t insts_before = m_instructions();
    core::KernelLaunch& ref = *launch;
    m_launches.push_back(std::move(launch));
    m_dispatcher.launch(ref, [this](core::KernelLaunch&) { m_kernel_done.notify(sc_core::SC_ZERO_TIME); });
    sc_core::wait(m_kernel_done);
    rec.end_cycle = m_clock.cycle();
    rec.warp_instructions = m_instructions() - insts_before;
    rec.issue_outcomes = m_launches.back()->outcomes;
    m_records.push_back(rec);
}

}  // namespace stacksim::host

namespace stacksim::host {

void HostProgram::launch_trace(const core::TraceKernel& kernel) {
    auto launch = std::make_unique<core::KernelLaunch>();
    launch->id = static_cast<uint32_t>(m_launches.size());
    launch->trace = &kernel;
    launch->grid = kernel.grid;
    launch->block = kernel.block;
    launch->shared_bytes = kernel.shared_bytes;
    launch->regs_per_thread = kernel.regs_per_thread ? kernel.regs_per_thread : m_sm_cfg.regs_per_thread;
    launch->global = &m_memory;
    uint32_t threads = launch->threads_per_cta();
    if (threads == 0 || threads > 1024 || kernel.ctas.empty())
        throw sim::InputError(fmt::format("{}: traced kernel '{}' has an invalid block or no CTAs", kernel.file,
                                          kernel.name));
    core::Occupancy occ = core::occupancy(m_sm_cfg, threads, launch->regs_per_thread, launch->shared_bytes);
    if (occ.ctas == 0)
        throw sim::InputError(fmt::format("{}: a CTA of '{}' does not fit on an SM (limited by {})", kernel.file,
                                          kernel.name, occ.limited_by));
    run_launch(std::move(launch), kernel.name);
}

}  // namespace stacksim::host
