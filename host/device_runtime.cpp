// SPDX-License-Identifier: Apache-2.0
// The GPU as every application's host program sees it: device memory, copies, kernel modules.
#include "host/device_runtime.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/occupancy.h"
#include "core/reconvergence.h"
#include "core/trace_kernel.h"
#include "sim/error.h"
#include "workloads/embedded_ptx.h"
#include "workloads/ptx_parser.h"

namespace stacksim::host {

DeviceRuntime::DeviceRuntime(const core::SmConfig& sm_cfg, std::string ptx_dir, sim::ClockDomain& core_clock,
                             memory::PcieLink* pcie)
    : m_sm_cfg(sm_cfg), m_ptx_dir(std::move(ptx_dir)), m_clock(core_clock), m_pcie(pcie) {}

workloads::DevPtr DeviceRuntime::malloc(uint64_t bytes) {
    return allocate(bytes, m_gmmu && m_gmmu->config().managed());
}

workloads::DevPtr DeviceRuntime::malloc_managed(uint64_t bytes) {
    if (!m_gmmu) return allocate(bytes, false);  // unified memory off: plain memory
    if (m_gmmu->config().mode == memory::UvmMode::Ideal) return allocate(bytes, false);  // no transfer cost
    if (!m_gmmu->can_page())
        throw sim::SimulationError("malloc_managed: demand paging needs the PCIe link (set host.timed_copies = true)");
    return allocate(bytes, true);
}

workloads::DevPtr DeviceRuntime::allocate(uint64_t bytes, bool managed) {
    // Managed allocations own whole pages, so no page mixes managed and device memory; in
    // managed mode every allocation is page aligned unless uvm.page_aligned_allocations is off.
    const bool own_pages = m_gmmu && (m_gmmu->config().managed() ? m_gmmu->config().page_aligned_allocations : managed);
    const uint64_t align = own_pages ? m_gmmu->config().page_bytes : 256;
    workloads::DevPtr p = (m_next_alloc + align - 1) / align * align;
    m_allocations[p] = Allocation{bytes, managed};
    m_next_alloc = p + (std::max<uint64_t>(bytes, 1) + align - 1) / align * align;
    if (m_gmmu) m_gmmu->allocate(p, bytes, managed);
    return p;
}

bool DeviceRuntime::is_managed(workloads::DevPtr p) const {
    auto it = m_allocations.upper_bound(p);
    return it != m_allocations.begin() && std::prev(it)->second.managed;
}

void DeviceRuntime::check_range(workloads::DevPtr p, uint64_t bytes, const char* what) const {
    auto it = m_allocations.upper_bound(p);
    if (it != m_allocations.begin()) {
        --it;
        if (p >= it->first && p + bytes <= it->first + it->second.bytes) return;
    }
    throw sim::SimulationError(fmt::format("host {} of {} bytes at 0x{:x} is outside every allocation", what, bytes, p));
}

void DeviceRuntime::timed_copy(memory::Direction d, uint64_t bytes) {
    if (!m_pcie) return;
    copy_begins();
    m_pcie->copy(d, bytes);
    end_async_copy();
}

void DeviceRuntime::copy_begins() {
    // Copies (of several applications, or asynchronous ones) overlap in simulated time: count
    // the union of their intervals, from the first copy starting to the last one ending.
    if (m_copies_in_flight++ == 0) m_copy_busy_since = sc_core::sc_time_stamp().value();
}

bool DeviceRuntime::plain_range(workloads::DevPtr p, uint64_t bytes) const {
    auto it = m_allocations.upper_bound(p);
    if (it == m_allocations.begin()) return false;
    --it;
    return !it->second.managed && p >= it->first && bytes <= it->second.bytes && p - it->first <= it->second.bytes - bytes;
}

sc_core::sc_event* DeviceRuntime::start_async_copy(memory::Direction d, uint64_t bytes, uint64_t* done_ps) {
    if (!m_pcie || m_free_copies) return nullptr;
    copy_begins();
    return &m_pcie->start_copy(d, bytes, done_ps);
}

void DeviceRuntime::end_async_copy() {
    if (--m_copies_in_flight == 0) m_copy_ps += sc_core::sc_time_stamp().value() - m_copy_busy_since;
}

void DeviceRuntime::host_touch(workloads::DevPtr p, uint64_t bytes, bool writes) {
    for (uint64_t n : m_gmmu->host_access(p, bytes, writes)) timed_copy(memory::Direction::D2H, n);
}

void DeviceRuntime::memcpy_h2d(workloads::DevPtr dst, const void* src, uint64_t bytes) {
    check_range(dst, bytes, "memcpy to device");
    if (is_managed(dst)) host_touch(dst, bytes, true);
    else if (!m_free_copies) timed_copy(memory::Direction::H2D, bytes);
    m_memory.write(dst, src, bytes);
}

void DeviceRuntime::memcpy_d2h(void* dst, workloads::DevPtr src, uint64_t bytes) {
    check_range(src, bytes, "memcpy from device");
    if (is_managed(src)) host_touch(src, bytes, false);
    else if (!m_free_copies) timed_copy(memory::Direction::D2H, bytes);
    m_memory.read(src, dst, bytes);
}

void DeviceRuntime::memset(workloads::DevPtr dst, uint8_t value, uint64_t bytes) {
    check_range(dst, bytes, "memset");
    // A zero memset of bytes the host never wrote leaves them as a fresh page is populated.
    if (is_managed(dst)) host_touch(dst, bytes, value != 0);
    m_memory.fill(dst, value, bytes);
}

void DeviceRuntime::memcpy_d2d(workloads::DevPtr dst, workloads::DevPtr src, uint64_t bytes) {
    check_range(src, bytes, "memcpy device to device (source)");
    check_range(dst, bytes, "memcpy device to device (destination)");
    if (is_managed(src)) host_touch(src, bytes, false);
    if (is_managed(dst)) host_touch(dst, bytes, true);
    std::vector<uint8_t> tmp(bytes);
    m_memory.read(src, tmp.data(), bytes);
    m_memory.write(dst, tmp.data(), bytes);
}

const core::Module& DeviceRuntime::module(const std::string& ptx_file) {
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

const core::Module& DeviceRuntime::parse_module(const std::string& key, const std::string& text,
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
    // Module load: the variables the kernels use get device memory and their initial values,
    // and the operands that take their addresses are patched. The others cost nothing.
    std::vector<workloads::DevPtr> addr(m.variables.size(), 0);
    for (auto& k : m.kernels)
        for (const core::Relocation& r : k.relocations) {
            if (!addr[r.variable]) addr[r.variable] = place_variable(m.variables[r.variable], shown);
            core::Instruction& in = k.code[r.inst];
            (r.in_src ? in.src[r.slot] : in.dst[r.slot]).imm += addr[r.variable];
        }
    auto& slot = m_modules[key];
    slot = std::make_unique<core::Module>(std::move(m));
    m_variable_addr[slot.get()] = std::move(addr);
    return *slot;
}

workloads::DevPtr DeviceRuntime::place_variable(const core::ModuleVariable& v, const std::string& shown) {
    if (v.bytes == 0)
        throw sim::InputError(fmt::format("{}: .extern variable '{}' is not defined in this module (modules are not "
                                          "linked together)", shown, v.name));
    if (v.align > 256)
        throw sim::InputError(fmt::format("{}: variable '{}' needs alignment {} (at most 256 is supported)", shown,
                                          v.name, v.align));
    const workloads::DevPtr p = allocate(v.bytes, false);
    m_memory.fill(p, 0, v.bytes);
    if (!v.init.empty()) m_memory.write(p, v.init.data(), std::min<uint64_t>(v.init.size(), v.bytes));
    return p;
}

std::pair<workloads::DevPtr, uint64_t> DeviceRuntime::symbol(const std::string& module_name, const std::string& name) {
    auto it = m_modules.find("source:" + module_name);
    const core::Module& m = it != m_modules.end() ? *it->second : module(module_name);
    std::vector<workloads::DevPtr>& addr = m_variable_addr[&m];
    for (size_t i = 0; i < m.variables.size(); ++i) {
        if (m.variables[i].name != name) continue;
        if (!addr[i]) addr[i] = place_variable(m.variables[i], module_name);
        return {addr[i], m.variables[i].bytes};
    }
    throw sim::InputError(fmt::format("{}: no module-scope variable named '{}'", module_name, name));
}

uint32_t DeviceRuntime::code_id(const std::string& key) {
    return m_code_ids.emplace(key, static_cast<uint32_t>(m_code_ids.size())).first->second;
}

std::unique_ptr<core::KernelLaunch> DeviceRuntime::make_launch(const std::string& ptx_file, const std::string* source,
                                                              const std::string& entry, workloads::Dim3 grid,
                                                              workloads::Dim3 block, const workloads::LaunchArgs& args,
                                                              uint32_t dynamic_shared_bytes) {
    const core::Module& mod = source ? parse_module("source:" + ptx_file, *source, ptx_file) : module(ptx_file);
    const core::Kernel* k = mod.find(entry);
    if (!k) throw sim::InputError(fmt::format("{}: no .entry named '{}'", ptx_file, entry));
    if (args.args().size() != k->params.size())
        throw sim::InputError(fmt::format("{}: kernel '{}' takes {} parameters, launch passed {}", ptx_file,
                                          entry, k->params.size(), args.args().size()));
    auto launch = std::make_unique<core::KernelLaunch>();
    launch->id = m_launches++;
    launch->code_id = code_id((source ? "source:" : "ptx:") + ptx_file + ":" + entry);
    launch->kernel = k;
    launch->grid = {grid.x, grid.y, grid.z};
    launch->block = {block.x, block.y, block.z};
    launch->params.assign(k->param_bytes, 0);
    for (size_t i = 0; i < k->params.size(); ++i) {
        const auto& p = k->params[i];
        const auto& a = args.args()[i];
        if (a.size() != p.bytes)
            throw sim::InputError(fmt::format("{}: parameter {} of '{}' is {} bytes, launch passed {}", ptx_file,
                                              p.name, entry, p.bytes, a.size()));
        std::memcpy(launch->params.data() + p.offset, a.value(), a.size());
    }
    launch->shared_bytes = k->static_shared_bytes + dynamic_shared_bytes;
    launch->regs_per_thread = m_sm_cfg.regs_per_thread;
    launch->global = &m_memory;
    launch->idempotent = k->idempotent;
    launch->textures = &m_textures;
    const uint32_t threads = launch->threads_per_cta();
    if (threads == 0 || threads > 1024 || launch->num_ctas() == 0)
        throw sim::InputError(fmt::format("{}: launch of '{}' with block {}x{}x{} and grid {}x{}x{} is invalid",
                                          ptx_file, entry, block.x, block.y, block.z, grid.x, grid.y, grid.z));
    if (k->local_bytes) {
        // Local memory of every thread of the launch, interleaved per CTA (core/exec_context.h);
        // address space only: the sparse device memory holds the pages the threads touch.
        launch->local_bytes = k->local_bytes;
        launch->local_base = allocate(launch->local_cta_bytes() * launch->num_ctas(), false);
    }
    core::Occupancy occ = core::occupancy(m_sm_cfg, threads, launch->regs_per_thread, launch->shared_bytes);
    if (occ.ctas == 0)
        throw sim::InputError(fmt::format("{}: a CTA of '{}' does not fit on an SM (limited by {})", ptx_file,
                                          entry, occ.limited_by));
    return launch;
}

std::unique_ptr<core::KernelLaunch> DeviceRuntime::make_trace_launch(const core::TraceKernel& kernel) {
    auto launch = std::make_unique<core::KernelLaunch>();
    launch->id = m_launches++;
    // A trace names the kernel as compiled (mangled), so equal names are the same code.
    launch->code_id = code_id("trace:" + kernel.name);
    launch->trace = &kernel;
    launch->grid = kernel.grid;
    launch->block = kernel.block;
    launch->shared_bytes = kernel.shared_bytes;
    launch->regs_per_thread = kernel.regs_per_thread ? kernel.regs_per_thread : m_sm_cfg.regs_per_thread;
    launch->global = &m_memory;
    launch->idempotent = kernel.idempotent;
    const uint32_t threads = launch->threads_per_cta();
    if (threads == 0 || threads > 1024 || kernel.ctas.empty())
        throw sim::InputError(fmt::format("{}: traced kernel '{}' has an invalid block or no CTAs", kernel.file,
                                          kernel.name));
    core::Occupancy occ = core::occupancy(m_sm_cfg, threads, launch->regs_per_thread, launch->shared_bytes);
    if (occ.ctas == 0)
        throw sim::InputError(fmt::format("{}: a CTA of '{}' does not fit on an SM (limited by {})", kernel.file,
                                          kernel.name, occ.limited_by));
    return launch;
}

uint64_t DeviceRuntime::create_texture_object(const core::TextureDesc& desc) {
    desc.validate();
    const uint64_t bytes = desc.resource == core::TexResource::Linear ? uint64_t{desc.width} * desc.texel_bytes()
                                                                      : desc.pitch * (desc.height - 1) + uint64_t{desc.width} * desc.texel_bytes();
    check_range(desc.base, bytes, "create_texture_object");
    const uint64_t handle = m_next_texture++;
    m_textures.emplace(handle, desc);
    return handle;
}

void DeviceRuntime::make_cooperative(core::KernelLaunch& launch) {
    if (!launch.kernel)
        throw sim::InputError(fmt::format("a traced kernel ('{}') cannot be launched cooperatively", launch.name()));
    const core::Occupancy occ =
        core::occupancy(m_sm_cfg, launch.threads_per_cta(), launch.regs_per_thread, launch.shared_bytes);
    const uint64_t resident = uint64_t{occ.ctas} * m_num_sms;
    if (launch.num_ctas() > resident)
        throw sim::InputError(fmt::format("{}: cooperative launch of '{}' with {} CTAs, but at most {} ({} per SM x {} SMs) "
                                          "can be resident at once",
                                          launch.kernel->file, launch.name(), launch.num_ctas(), resident, occ.ctas,
                                          m_num_sms));
    // cooperative_groups' grid barrier counts arrivals in the word at workspace + 4.
    const workloads::DevPtr ws = allocate(256, false);
    const std::array<uint8_t, 256> zero{};
    m_memory.write(ws, zero.data(), zero.size());
    launch.grid_workspace = ws;
}

}  // namespace stacksim::host
