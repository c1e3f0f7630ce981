// SPDX-License-Identifier: Apache-2.0
// Builds a policy spec with parameters from TOML text, as the config reader would.
#pragma once
#include <string>

#include "sim/config.h"
#include "sim/policy_catalog.h"

namespace stacksim::test {

/// Policy `name` of `catalog` with its parameters read from `toml` ("max_ranges = 8"; empty:
/// the defaults). Unknown keys throw, as in a config file.
inline sim::PolicySpec policy_spec(const sim::PolicyCatalog& catalog, const std::string& name,
                                   const std::string& toml = "") {
    sim::ConfigDoc doc = sim::ConfigDoc::from_string(toml, "test");
    sim::PolicySpec spec = catalog.defaults(name);
    if (catalog.has_params(name)) {
        sim::ConfigSection s = doc.section("");
        spec.params = catalog.read_params(name, s, nullptr);
        spec.params_of = name;
    }
    doc.check_all_used();
    return spec;
}

}  // namespace stacksim::test
