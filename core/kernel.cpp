// SPDX-License-Identifier: Apache-2.0
// Module lookup helpers.
#include "core/kernel.h"

namespace stacksim::core {

const Kernel* Module::find(const std::string& name) const {
    for (const Kernel& k : kernels)
        if (k.name == name) return &k;
    return nullptr;
}

}  // namespace stacksim::core
