// SPDX-License-Identifier: Apache-2.0
// pcie_copy workload: host -> device -> host round trip of a buffer (PCIe bandwidth).
#include <vector>

#include "workloads/library/library_workload.h"

namespace stacksim::workloads {
namespace {

class PcieCopy final : public LibraryWorkload {
public:
    PcieCopy(uint32_t kb, uint64_t seed)
        : LibraryWorkload(""), m_data(random_u32(uint64_t{kb} * 256, sub_seed(seed, 0), 0, ~0u)) {}

    void execute(Device& dev) override {
        const DevPtr d = dev.upload(m_data);  // H2D
        dev.download(m_back, d);              // D2H
    }

    void compare(Checker& check) const override { check.exact_all("back", m_back, m_data); }

private:
    std::vector<uint32_t> m_data, m_back;
};

const bool registered = workload_registry().add(
    {"pcie_copy", "PCIe microbenchmark: copy a buffer to the device and back, no kernel",
     WorkloadClass::Other, {}, {"KB copied each way", 4096, 1u << 20, 1,
       [](uint64_t n) { return 3072 * n; }}},
    construct<PcieCopy>);

}  // namespace

}  // namespace stacksim::workloads
