// SPDX-License-Identifier: Apache-2.0
// The workload library table: every workload's name, class, PTX files and factory.
#include <algorithm>

#include "workloads/library/common.h"
#include "workloads/workload.h"

namespace stacksim::workloads {

namespace {

std::vector<WorkloadInfo> build_library() {
    using C = WorkloadClass;
    std::vector<WorkloadInfo> lib = {
        {"2dconv",
         "Polybench 2DCONV: 3x3 convolution of an N x N float image",
         128,
         "image dimension N",
         C::Regular,
         {"2dconv.ptx"},
         make_conv2d},
        {"atax",
         "Polybench ATAX: y = A^T (A x), row then column walks of an N x N matrix",
         128,
         "matrix dimension N",
         C::Irregular,
         {"atax.ptx"},
         make_atax},
        {"divergence",
         "nested divergent branches and a data-dependent loop (int)",
         4096,
         "elements",
         C::Other,
         {"divergence.ptx"},
         make_divergence},
        {"matmul",
         "tiled C = A x B with 16x16 shared-memory tiles (float)",
         64,
         "matrix dimension N",
         C::Regular,
         {"matmul.ptx"},
         make_matmul},
        {"reduction",
         "uint32 sum: shared-memory tree per CTA plus one atomicAdd per CTA",
         16384,
         "elements",
         C::Other,
         {"reduction.ptx"},
         make_reduction},
        {"saxpy", "y = a*x + y (float)", 4096, "elements", C::Regular, {"saxpy.ptx"}, make_saxpy},
        {"vecadd", "c = a + b (float)", 4096, "elements", C::Regular, {"vecadd.ptx"}, make_vecadd},
    };
    std::sort(lib.begin(), lib.end(),
              [](const WorkloadInfo& a, const WorkloadInfo& b) { return a.name < b.name; });
    return lib;
}

}  // namespace

const std::vector<WorkloadInfo>& workload_library() {
    static const std::vector<WorkloadInfo> lib = build_library();
    return lib;
}

const WorkloadInfo* find_workload(const std::string& name) {
    const auto& lib = workload_library();
    auto it =
        std::lower_bound(lib.begin(), lib.end(), name,
                         [](const WorkloadInfo& w, const std::string& n) { return w.name < n; });
    return it != lib.end() && it->name == name ? &*it : nullptr;
}

}  // namespace stacksim::workloads
