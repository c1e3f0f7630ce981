// SPDX-License-Identifier: Apache-2.0
// Your own kernel in stacksim, out of tree: a LibraryWorkload for kernels/axpb.ptx, registered
// under the name "axpb", and the whole stacksim command line (run, sweep, plot, Slurm) around it.
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <systemc>

#include "top/cli.h"
#include "workloads/host_data.h"
#include "workloads/library/library_workload.h"

namespace {

using namespace stacksim::workloads;

constexpr uint32_t kBlock = 256;
constexpr float kA = 2.5f, kB = -1.0f;

/// y = a*x + b over n floats: the host program (upload, launch, download) and the CPU reference.
class Axpb final : public LibraryWorkload {
public:
    Axpb(uint32_t n, uint64_t seed)
        : LibraryWorkload("axpb.ptx"), m_n(n), m_x(random_f32(n, sub_seed(seed, 0), -1.0f, 1.0f)) {}

    void execute(Device& dev) override {
        const DevPtr x = dev.upload(m_x), y = dev.alloc<float>(m_n);
        dev.launch("axpb", linear(m_n, kBlock), LaunchArgs().f32(kA).f32(kB).ptr(x).ptr(y).i32(static_cast<int32_t>(m_n)));
        dev.download(m_y, y);
    }

    void compare(Checker& check) const override {
        // nvcc contracts a * x + b into one fma.rn.f32 (kernels/axpb.ptx): so does the reference.
        for (uint32_t i = 0; i < m_n; ++i) check.near("y", i, m_y[i], std::fma(m_x[i], kA, kB));
    }

private:
    uint32_t m_n;
    std::vector<float> m_x, m_y;
};

// Registered like the library's own workloads: `--workload axpb:SIZE` and `stacksim list` know it.
const bool registered = workload_registry().add(
    {"axpb", "y = a*x + b (float), examples/own_workload", WorkloadClass::Regular, {"axpb.ptx"},
     {"elements", 4096, 1u << 24, 1, [](uint64_t n) { return 16 * n; }}},
    construct<Axpb>);

}  // namespace

extern "C" int sc_main(int argc, char** argv) { return stacksim::top::cli_main(argc, argv); }

int main(int argc, char** argv) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
