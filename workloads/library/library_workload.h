// SPDX-License-Identifier: Apache-2.0
// Base of the library workloads: runs the host program on a Device, guards verify(); registration.
#pragma once
#include <memory>
#include <string>
#include <utility>

#include "workloads/library/common.h"
#include "workloads/library/device.h"
#include "workloads/workload.h"
#include "workloads/workload_registry.h"

namespace stacksim::workloads {

/// A library workload states only its host program and its CPU reference: run() hands
/// execute() a Device for its PTX file and afterwards frees what execute() left allocated,
/// in allocation order; verify() reports "not run" until run() has returned, and otherwise
/// collects compare()'s element checks.
class LibraryWorkload : public Workload {
public:
    void run(HostApi& host) final {
        Device dev(host, m_ptx_file);
        execute(dev);
        dev.free_all();
        m_ran = true;
    }
    VerifyResult verify() final {
        if (!m_ran) return not_run_result();
        Checker check;
        compare(check);
        return check.result();
    }

protected:
    /// `ptx_file`: the library file the launches use ("vecadd.ptx"; empty if none).
    explicit LibraryWorkload(std::string ptx_file) : m_ptx_file(std::move(ptx_file)) {}
    /// The host program: allocate, copy, launch, copy back.
    virtual void execute(Device& dev) = 0;
    /// Compares every output element with the CPU reference.
    virtual void compare(Checker& check) const = 0;

private:
    std::string m_ptx_file;
    bool m_ran = false;
};

/// The factory of workload class W, constructed from (size, seed): what most library
/// workloads register (`workload_registry().add({...}, construct<VecAdd>)`).
template <typename W> std::unique_ptr<Workload> construct(const WorkloadArgs& args) {
    return std::make_unique<W>(args.size, args.seed);
}

}  // namespace stacksim::workloads
