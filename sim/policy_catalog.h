// SPDX-License-Identifier: Apache-2.0
// A policy chosen by name with its parameters, and the catalog view of a registry.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "sim/config.h"
#include "sim/param_doc.h"

namespace stacksim::sim {

/// A chosen policy: its registry name and its parameters (a copy of the parameters struct the
/// policy declared; null = the policy's defaults).
struct PolicySpec {
    PolicySpec() = default;
    PolicySpec(std::string n) : name(std::move(n)) {}  // NOLINT: a name alone is a spec
    PolicySpec(const char* n) : name(n) {}             // NOLINT
    std::string name;
    std::shared_ptr<const void> params;
    std::string params_of;  ///< the policy `params` belongs to
};

/// What configuration reading and the docs need of a registry, independent of its interface.
class PolicyCatalog {
public:
    virtual ~PolicyCatalog() = default;
    /// "warp scheduler", "replacement policy": names the kind in messages.
    virtual const std::string& kind() const = 0;
    /// One line on what the kind is, its plural first ("warp schedulers: ...") for listings.
    virtual const std::string& summary() const = 0;
    /// The line `stacksim list` shows for `name`: its description, and "[parameters]" when it
    /// declares some.
    virtual std::string listing(const std::string& name) const {
        return description(name) + (has_params(name) ? " [parameters]" : "");
    }
    virtual std::vector<std::string> names() const = 0;
    virtual const std::string& description(const std::string& name) const = 0;
    virtual bool has_params(const std::string& name) const = 0;
    /// `name` with its default parameters.
    virtual PolicySpec defaults(const std::string& name) const = 0;
    /// Reads the parameters of `name` from `s` over a copy of `base` (null: the defaults).
    virtual std::shared_ptr<const void> read_params(const std::string& name, ConfigSection& s,
                                                    const void* base) const = 0;
    /// Documentation of the parameters of `name`, as section `path`, chosen by `choice_key`.
    virtual std::vector<SectionDoc> document_params(const std::string& name, const std::string& path,
                                                    const std::string& choice_key) const = 0;
};

}  // namespace stacksim::sim
