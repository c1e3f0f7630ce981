// SPDX-License-Identifier: Apache-2.0
#include "workloads/library/polybench_inputs.h"

namespace stacksim::workloads {

const sim::Params<PolybenchConfig>& PolybenchConfig::params() {
    static const auto p = [] {
        sim::Params<PolybenchConfig> p;
        p.add("inputs", &PolybenchConfig::inputs, "",
              "random: seeded uniform random inputs; polybench: PolyBench/GPU 1.0's deterministic initialisation "
              "(values regular in i and j; the ETC validation's inputs)")
            .names({{"random", PolybenchInputs::Random}, {"polybench", PolybenchInputs::Polybench}});
        return p;
    }();
    return p;
}

}  // namespace stacksim::workloads
