// SPDX-License-Identifier: Apache-2.0
// The catalogue of every registry: what `stacksim list`, the config docs and the every-policy test read.
#pragma once
#include <string>
#include <vector>

#include "sim/policy_catalog.h"

namespace stacksim::sim {

/// Every registry (sim::Registry) enters itself here when it is made, with its kind name and a
/// one-line description, so that listings and tests walk the registries instead of keeping
/// hand lists of them: a new kind of policy or component shows up in `stacksim list` and fails
/// the every-policy test until it is exercised.
class RegistryCatalogue {
public:
    /// The process's catalogue.
    static RegistryCatalogue& instance();
    /// Adds `registry` (kept by reference: registries are function-local statics). Throws
    /// std::logic_error when a registry of the same kind is there already.
    void add(const PolicyCatalog& registry);
    /// The registries, by kind name.
    std::vector<const PolicyCatalog*> registries() const;
    /// The registry of kind `kind`, or null.
    const PolicyCatalog* find(const std::string& kind) const;

private:
    RegistryCatalogue() = default;
    std::vector<const PolicyCatalog*> m_registries;
};

}  // namespace stacksim::sim
