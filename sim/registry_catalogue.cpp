// SPDX-License-Identifier: Apache-2.0
// The catalogue of every registry.
#include "sim/registry_catalogue.h"

#include <algorithm>
#include <stdexcept>

namespace stacksim::sim {

RegistryCatalogue& RegistryCatalogue::instance() {
    static RegistryCatalogue c;
    return c;
}

void RegistryCatalogue::add(const PolicyCatalog& registry) {
    if (find(registry.kind())) throw std::logic_error("registry '" + registry.kind() + "' made twice");
    m_registries.push_back(&registry);
}

std::vector<const PolicyCatalog*> RegistryCatalogue::registries() const {
    std::vector<const PolicyCatalog*> out = m_registries;
    std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->kind() < b->kind(); });
    return out;
}

const PolicyCatalog* RegistryCatalogue::find(const std::string& kind) const {
    for (const PolicyCatalog* r : m_registries)
        if (r->kind() == kind) return r;
    return nullptr;
}

}  // namespace stacksim::sim
