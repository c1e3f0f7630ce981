// SPDX-License-Identifier: Apache-2.0
// Policy registry: name -> factory, with a one-line description per entry.
#pragma once
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "sim/error.h"

namespace stacksim::sim {

/// Factories of implementations of `Interface`, by name. One registry per policy kind
/// (warp scheduler, CTA scheduler, ...); `kind` names it in errors and listings.
template <typename Interface, typename... Args> class Registry {
public:
    using Factory = std::function<std::unique_ptr<Interface>(Args...)>;
    struct Entry {
        std::string description;
        Factory make;
    };

    explicit Registry(std::string kind) : m_kind(std::move(kind)) {}

    void add(const std::string& name, const std::string& description, Factory make) {
        m_entries[name] = Entry{description, std::move(make)};
    }
    bool contains(const std::string& name) const { return m_entries.count(name) != 0; }
    /// Builds the policy `name`; throws InputError listing the known names if absent.
    std::unique_ptr<Interface> create(const std::string& name, Args... args) const {
        auto it = m_entries.find(name);
        if (it == m_entries.end())
            throw InputError("unknown " + m_kind + " '" + name + "' (known: " + joined() + ")");
        return it->second.make(args...);
    }
    std::vector<std::string> names() const {
        std::vector<std::string> out;
        for (auto& [n, e] : m_entries) out.push_back(n);
        return out;
    }
    const std::map<std::string, Entry>& entries() const { return m_entries; }
    const std::string& kind() const { return m_kind; }

private:
    std::string joined() const {
        std::string s;
        for (auto& [n, e] : m_entries) s += (s.empty() ? "" : ", ") + n;
        return s;
    }
    std::string m_kind;
    std::map<std::string, Entry> m_entries;
};

}  // namespace stacksim::sim
