// SPDX-License-Identifier: Apache-2.0
// The DRAM-model registry.
#include "memory/dram_model.h"

namespace stacksim::memory {

DramModelRegistry& dram_models() {
    static DramModelRegistry r("DRAM model", "DRAM models: the channel behind each L2 slice (memory.model = hierarchy)");
    return r;
}

}  // namespace stacksim::memory
