// SPDX-License-Identifier: Apache-2.0
// Policy registry: name -> factory, description and the policy's declared parameters.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/error.h"
#include "sim/param.h"
#include "sim/policy_catalog.h"
#include "sim/registry_catalogue.h"

namespace stacksim::sim {

/// Factories of implementations of `Interface`, by name. One registry per policy or component
/// kind (warp scheduler, routing function, topology, ...); `kind` names it in errors and
/// listings, and every registry is listed in the RegistryCatalogue. A policy
/// registers itself in its own source file, with its parameters struct if it has one
/// (Ramulator 2's pattern):
///
///     namespace {
///     const bool registered = warp_schedulers().add_with<CcwsParams>(
///         "ccws", "cache-conscious ...", [](const CcwsParams& p) { return std::make_unique<Ccws>(p); });
///     }
///
/// The parameters struct declares `static const sim::Params<P>& params()`; its keys are read
/// from the table named after the policy below the section that chooses it ([gpu.sm.ccws]).
template <typename Interface, typename... Args> class Registry : public PolicyCatalog {
public:
    using Product = std::unique_ptr<Interface>;
    struct Entry {
        std::string description;
        const ParamSet* params = nullptr;                ///< declared parameters, or null
        std::shared_ptr<const void> default_params;      ///< the parameters struct, defaults
        std::function<std::shared_ptr<const void>(const void* base, ConfigSection& s)> read;
        std::function<std::vector<SectionDoc>(const std::string& path, const std::string& text)> document;
        std::function<Product(const void* params, Args...)> make;
    };

    /// `kind`: singular name ("warp scheduler"); `summary`: one line, plural first ("warp
    /// schedulers: ..."). The registry enters itself in the RegistryCatalogue.
    Registry(std::string kind, std::string summary) : m_kind(std::move(kind)), m_summary(std::move(summary)) {
        RegistryCatalogue::instance().add(*this);
    }
    Registry(const Registry&) = delete;
    Registry& operator=(const Registry&) = delete;

    /// Registers a policy without parameters. Returns true (for a static initialiser).
    bool add(const std::string& name, const std::string& description, std::function<Product(Args...)> make) {
        Entry e;
        e.description = description;
        e.make = [make = std::move(make)](const void*, Args... args) { return make(args...); };
        return insert(name, std::move(e));
    }
    /// Registers a policy with parameters struct P. Returns true (for a static initialiser).
    template <typename P>
    bool add_with(const std::string& name, const std::string& description,
                  std::function<Product(const P&, Args...)> make) {
        Entry e;
        e.description = description;
        e.params = &P::params();
        e.default_params = std::make_shared<const P>();
        e.read = [](const void* base, ConfigSection& s) {
            auto p = std::make_shared<P>(*static_cast<const P*>(base));
            P::params().read_into(s, *p);
            return std::shared_ptr<const void>(std::move(p));
        };
        e.document = [](const std::string& path, const std::string& text) {
            const P defaults;
            return P::params().document(path, text, &defaults);
        };
        e.make = [make = std::move(make)](const void* params, Args... args) {
            return make(*static_cast<const P*>(params), args...);
        };
        return insert(name, std::move(e));
    }

    bool contains(const std::string& name) const { return m_entries.count(name) != 0; }
    /// Builds the policy `spec.name` (a name alone converts to a spec) with `spec.params` (its
    /// defaults when null); throws
    /// InputError listing the known names if absent.
    Product create(const PolicySpec& spec, Args... args) const {
        const Entry& e = entry(spec.name);
        const void* params = e.default_params.get();
        if (spec.params) {
            if (spec.params_of != spec.name)
                throw InputError(m_kind + " '" + spec.name + "': parameters of '" + spec.params_of + "' given");
            params = spec.params.get();
        }
        return e.make(params, args...);
    }

    const std::map<std::string, Entry>& entries() const { return m_entries; }

    // PolicyCatalog
    const std::string& kind() const override { return m_kind; }
    const std::string& summary() const override { return m_summary; }
    std::vector<std::string> names() const override {
        std::vector<std::string> out;
        for (auto& [n, e] : m_entries) out.push_back(n);
        return out;
    }
    const std::string& description(const std::string& name) const override { return entry(name).description; }
    bool has_params(const std::string& name) const override { return entry(name).params != nullptr; }
    PolicySpec defaults(const std::string& name) const override {
        PolicySpec s(name);
        s.params = entry(name).default_params;
        s.params_of = s.params ? name : "";
        return s;
    }
    std::shared_ptr<const void> read_params(const std::string& name, ConfigSection& s,
                                            const void* base) const override {
        const Entry& e = entry(name);
        return e.read(base ? base : e.default_params.get(), s);
    }
    std::vector<SectionDoc> document_params(const std::string& name, const std::string& path,
                                            const std::string& choice_key) const override {
        return entry(name).document(path, "parameters of the " + name + " " + m_kind + " (when " + choice_key +
                                              " = \"" + name + "\")");
    }

private:
    bool insert(const std::string& name, Entry e) {
        if (m_entries.count(name)) throw std::logic_error(m_kind + " '" + name + "' registered twice");
        m_entries.emplace(name, std::move(e));
        return true;
    }
    const Entry& entry(const std::string& name) const {
        auto it = m_entries.find(name);
        if (it == m_entries.end())
            throw InputError("unknown " + m_kind + " '" + name + "' (known: " + joined() + ")");
        return it->second;
    }
    std::string joined() const {
        std::string s;
        for (auto& [n, e] : m_entries) s += (s.empty() ? "" : ", ") + n;
        return s;
    }
    std::string m_kind;
    std::string m_summary;
    std::map<std::string, Entry> m_entries;
};

}  // namespace stacksim::sim
