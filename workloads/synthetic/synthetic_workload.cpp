// SPDX-License-Identifier: Apache-2.0
// The synthetic workload: allocation, launch(es), download and element-wise verification.
#include "workloads/synthetic/synthetic_workload.h"

#include <limits>
#include <string>

#include "sim/error.h"

#include "workloads/library/common.h"
#include "workloads/synthetic/ptx_emitter.h"

namespace stacksim::workloads {
namespace {

/// The input of launch 1 of `reuse`: launch 0's result array, as the kernel sees it.
std::vector<uint32_t> reuse_input(const SynthProgram& p, const std::vector<uint32_t>& out0) {
    return std::vector<uint32_t>(out0.begin(), out0.begin() + p.footprint_words);
}

}  // namespace

SyntheticWorkload::SyntheticWorkload(const SyntheticConfig& cfg, uint32_t threads, uint64_t seed)
    : LibraryWorkload("") {
    cfg.check();
    if (threads > uint32_t{65535} * cfg.block)
        throw sim::InputError("synthetic: size " + std::to_string(threads) + " needs more than 65535 CTAs of " +
                              std::to_string(cfg.block) + " threads");
    m_program = generate_program(cfg, threads, sub_seed(seed, 0));
    if (m_program.slot_words() * 4 > (uint64_t{1} << 32))
        throw sim::InputError("synthetic: store slots of " + std::to_string(m_program.threads) +
                                    " threads exceed 4 GiB; lower the size or store_fraction");
    m_ptx = emit_ptx(m_program);
    m_in = random_u32(m_program.footprint_words, sub_seed(seed, 1), 0,
                      std::numeric_limits<uint32_t>::max());
}

void SyntheticWorkload::execute(Device& dev) {
    const SynthProgram& p = m_program;
    const std::string name = synth_source_name(m_ptx);
    DevPtr src = dev.upload(m_in);
    m_got.clear();
    for (uint32_t l = 0; l < p.launches(); ++l) {
        const DevPtr out = dev.alloc<uint32_t>(p.out_words()), fout = dev.alloc<float>(p.threads),
                     slots = dev.alloc<uint32_t>(p.slot_words());
        for (DevPtr d : {out, fout, slots}) dev.zero(d);
        dev.host().launch_ptx_source(name, m_ptx, kSynthEntry, Dim3{p.grid, 1, 1}, Dim3{p.block, 1, 1},
                                     LaunchArgs().ptr(src).ptr(out).ptr(fout).ptr(slots).u32(p.salts[l]));
        SynthOutputs got;
        dev.download(got.out, out);
        dev.download(got.fout, fout);
        dev.download(got.slots, slots);
        m_got.push_back(std::move(got));
        src = out;  // reuse: the next launch reads this launch's results
    }
}

void SyntheticWorkload::compare(Checker& check) const {
    const SynthProgram& p = m_program;
    std::vector<uint32_t> in = m_in;
    for (uint32_t l = 0; l < p.launches(); ++l) {
        const SynthOutputs want = run_cpu_model(p, in, l);
        const SynthOutputs& got = m_got[l];
        const char* out_name = l ? "out2" : "out";
        const char* fout_name = l ? "fout2" : "fout";
        const char* slot_name = l ? "slots2" : "slots";
        for (uint64_t i = 0; i < want.out.size(); ++i) check.exact(out_name, i, got.out[i], want.out[i]);
        for (uint64_t i = 0; i < want.fout.size(); ++i) check.near(fout_name, i, got.fout[i], want.fout[i]);
        for (uint64_t i = 0; i < want.slots.size(); ++i)
            check.exact(slot_name, i, got.slots[i], want.slots[i]);
        in = reuse_input(p, want.out);
    }
}

namespace {

// The default size is the grid of [synthetic]: grid x block threads.
const bool registered = workload_registry().add_with<SyntheticConfig>(
    {"synthetic", "seeded synthetic kernel: instruction mix, ILP, divergence, memory pattern ([synthetic] keys)",
     WorkloadClass::Other, {}, {"threads (default: grid x block of [synthetic])", 0, 65535u * 1024}},
    [](const SyntheticConfig& cfg, const WorkloadArgs& a) {
        return std::make_unique<SyntheticWorkload>(cfg, a.size, a.seed);
    },
    [](const SyntheticConfig& cfg) { return cfg.grid * cfg.block; },
    // Data: the input array and the result array on the host and the device, plus each
    // thread's outputs and store slots (a word per store of the loop body, about
    // store_fraction x body_instructions).
    [](const SyntheticConfig& cfg, uint64_t n) {
        const auto stores = static_cast<uint64_t>(cfg.store_fraction * cfg.body_instructions) + 1;
        return 4 * cfg.footprint_bytes + n * (64 + 8 * stores);
    });

}  // namespace

}  // namespace stacksim::workloads
