// SPDX-License-Identifier: Apache-2.0
// pcie_copy workload: host -> device -> host round trip of a buffer (PCIe bandwidth).
#include <vector>

#include "workloads/library/common.h"

namespace stacksim::workloads {
namespace {

class PcieCopy final : public Workload {
public:
    PcieCopy(uint32_t kb, uint64_t seed) : m_data(random_u32(uint64_t{kb} * 256, sub_seed(seed, 0), 0, ~0u)) {}

    void run(HostApi& host) override {
        const DevPtr d = host.upload(m_data);  // H2D
        m_back.assign(m_data.size(), 0);
        host.download(m_back, d);              // D2H
        host.free(d);
        m_ran = true;
    }

    VerifyResult verify() override {
        if (!m_ran) return not_run_result();
        Checker check;
        for (size_t i = 0; i < m_data.size(); ++i) check.exact("back", i, m_back[i], m_data[i]);
        return check.result();
    }

private:
    std::vector<uint32_t> m_data, m_back;
    bool m_ran = false;
};

}  // namespace

std::unique_ptr<Workload> make_pcie_copy(uint32_t size, uint64_t seed) {
    require_size("pcie_copy", size, 1u << 20);
    return std::make_unique<PcieCopy>(size, seed);
}

}  // namespace stacksim::workloads
