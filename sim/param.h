// SPDX-License-Identifier: Apache-2.0
// Config parameters declared once: name, member, unit, description and allowed values.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sim/config.h"
#include "sim/param_doc.h"
#include "sim/policy_catalog.h"

namespace stacksim::sim {

/// One declared parameter of some config struct (type-erased over the struct).
class ParamBase {
public:
    ParamBase(std::string key, std::string unit, std::string description)
        : m_key(std::move(key)), m_unit(std::move(unit)), m_description(std::move(description)) {}
    virtual ~ParamBase() = default;
    const std::string& key() const { return m_key; }
    /// Reads the value at key() of `s` into the struct at `cfg`: the default stays when the key
    /// is absent; a wrong type or a value outside the allowed set throws ConfigError naming it.
    virtual void read(ConfigSection& s, void* cfg) const = 0;
    /// Appends this parameter's documentation (the default read from `cfg`) to `out`.
    virtual void document(const std::string& section, const void* cfg, std::vector<SectionDoc>& out) const = 0;

protected:
    std::string m_key, m_unit, m_description;
};

/// The declared parameters of one config struct type, in declaration order.
class ParamSet {
public:
    /// Reads every parameter except those in `skip` from `s` into `cfg`.
    void read(ConfigSection& s, void* cfg, const std::vector<std::string>& skip = {}) const;
    /// Documentation of section `path` (and the tables below it) with defaults from `cfg`.
    std::vector<SectionDoc> document(const std::string& path, const std::string& description, const void* cfg,
                                     const std::vector<std::string>& skip = {}) const;
    const std::vector<std::unique_ptr<ParamBase>>& params() const { return m_params; }

protected:
    std::vector<std::unique_ptr<ParamBase>> m_params;
};

/// A value one typed parameter accepts: a check and its text for the docs.
template <typename T> struct ParamCheck {
    std::function<bool(const T&)> ok;
    std::string text;
};

/// Converts a value of a parameter to its TOML text (defaults in docs).
std::string toml_text(bool v);
std::string toml_text(uint64_t v);
std::string toml_text(int64_t v);
std::string toml_text(double v);
std::string toml_text(const std::string& v);

/// A typed parameter: member `T Cfg::*`. T is bool, an unsigned or signed integer, double,
/// std::string, or an enum with named values (names()).
template <typename Cfg, typename T> class Param : public ParamBase {
public:
    Param(std::string key, T Cfg::*member, std::string unit, std::string description)
        : ParamBase(std::move(key), std::move(unit), std::move(description)), m_member(member) {}

    /// Accepts values in [lo, hi].
    Param& range(T lo, T hi) {
        return check([lo, hi](const T& v) { return v >= lo && v <= hi; }, text(lo) + ".." + text(hi));
    }
    /// Accepts values >= lo.
    Param& min(T lo) {
        return check([lo](const T& v) { return v >= lo; }, ">= " + text(lo));
    }
    /// Accepts values > 0.
    Param& positive() {
        return check([](const T& v) { return v > T{}; }, "> 0");
    }
    /// Accepts powers of two (and 0 when `or_zero`).
    Param& power_of_two(bool or_zero = false) {
        return check([or_zero](const T& v) { return (or_zero && v == 0) || (v > 0 && (v & (v - 1)) == 0); },
                     or_zero ? "0 or a power of two" : "a power of two");
    }
    /// Accepts one of `values` (string parameters).
    Param& one_of(std::vector<std::string> values) {
        m_choices = [values] { return values; };
        return *this;
    }
    /// Accepts the names registered in `catalog` (string parameters naming a policy without
    /// parameters of its own).
    Param& one_of(const PolicyCatalog& catalog) {
        m_choices = [&catalog] { return catalog.names(); };
        m_registry = &catalog;
        return *this;
    }
    /// The names of an enum parameter's values.
    Param& names(std::vector<std::pair<std::string, T>> names) {
        m_names = std::move(names);
        return *this;
    }
    /// Runs `f` on the struct after the key was read, only when the document gives the key
    /// (a preset key that replaces the values the other keys then modify).
    Param& when_given(std::function<void(Cfg&)> f) {
        m_when_given = std::move(f);
        return *this;
    }
    /// Any other rule, with its text for the docs ("a multiple of 32").
    Param& check(std::function<bool(const T&)> ok, std::string text) {
        m_checks.push_back({std::move(ok), std::move(text)});
        return *this;
    }

    void read(ConfigSection& s, void* cfg) const override {
        T& v = static_cast<Cfg*>(cfg)->*m_member;
        if constexpr (std::is_enum_v<T>) {
            std::string name = name_of(v);
            std::vector<std::string> all;
            for (auto& [n, value] : m_names) all.push_back(n);
            s.read_choice(m_key, name, all);
            for (auto& [n, value] : m_names)
                if (n == name) v = value;
        } else if constexpr (std::is_same_v<T, std::string>) {
            if (m_choices)
                s.read_choice(m_key, v, m_choices());
            else
                s.read(m_key, v);
        } else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double>) {
            s.read(m_key, v);
        } else if constexpr (std::is_signed_v<T>) {
            int64_t x = v;
            s.read(m_key, x);
            if (x < static_cast<int64_t>(std::numeric_limits<T>::min()) ||
                x > static_cast<int64_t>(std::numeric_limits<T>::max()))
                s.fail(m_key, "out of range");
            v = static_cast<T>(x);
        } else {
            uint64_t x = v;
            s.read(m_key, x);
            if (x > std::numeric_limits<T>::max()) s.fail(m_key, std::to_string(x) + " is too large");
            v = static_cast<T>(x);
        }
        for (auto& c : m_checks)
            if (!c.ok(v)) s.fail(m_key, "must be " + c.text + ", got " + text(v));
        if (m_when_given && s.has(m_key)) m_when_given(*static_cast<Cfg*>(cfg));
    }

    void document(const std::string& section, const void* cfg, std::vector<SectionDoc>& out) const override {
        const T& v = static_cast<const Cfg*>(cfg)->*m_member;
        ParamDoc d{m_key, type_name(), m_unit, m_description, "", text(v), ""};
        std::string allowed;
        if constexpr (std::is_enum_v<T>) {
            for (auto& [n, value] : m_names) allowed += (allowed.empty() ? "" : ", ") + n;
        } else if constexpr (std::is_same_v<T, std::string>) {
            if (m_choices)
                for (auto& n : m_choices()) allowed += (allowed.empty() ? "" : ", ") + n;
        }
        if (!allowed.empty()) d.allowed = "one of: " + allowed;
        if (m_registry) d.registry = m_registry->kind();
        for (auto& c : m_checks) d.allowed += (d.allowed.empty() ? "" : "; ") + c.text;
        (void)section;
        out.back().params.push_back(std::move(d));
    }

private:
    std::string name_of(const T& v) const {
        for (auto& [n, value] : m_names)
            if (value == v) return n;
        return m_names.empty() ? std::string() : m_names.front().first;
    }
    std::string text(const T& v) const {
        if constexpr (std::is_enum_v<T>)
            return toml_text(name_of(v));
        else if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, double> || std::is_same_v<T, std::string>)
            return toml_text(v);
        else if constexpr (std::is_signed_v<T>)
            return toml_text(static_cast<int64_t>(v));
        else
            return toml_text(static_cast<uint64_t>(v));
    }
    static std::string type_name() {
        if constexpr (std::is_enum_v<T>) return "choice";
        else if constexpr (std::is_same_v<T, std::string>) return "string";
        else if constexpr (std::is_same_v<T, bool>) return "boolean";
        else if constexpr (std::is_same_v<T, double>) return "number";
        else return "integer";
    }

    T Cfg::*m_member;
    std::vector<ParamCheck<T>> m_checks;
    std::function<std::vector<std::string>()> m_choices;
    const PolicyCatalog* m_registry = nullptr;
    std::vector<std::pair<std::string, T>> m_names;
    std::function<void(Cfg&)> m_when_given;
};

/// A nested struct read from the table `key` below the section (e.g. [gpu.sm.alu]).
template <typename Cfg, typename Sub> class TableParam : public ParamBase {
public:
    TableParam(std::string key, Sub Cfg::*member, std::string description)
        : ParamBase(std::move(key), "", std::move(description)), m_member(member) {}
    void read(ConfigSection& s, void* cfg) const override {
        ConfigSection sub = s.subsection(m_key);
        Sub::params().read_into(sub, static_cast<Cfg*>(cfg)->*m_member);
    }
    void document(const std::string& section, const void* cfg, std::vector<SectionDoc>& out) const override {
        const Sub& v = static_cast<const Cfg*>(cfg)->*m_member;
        for (auto& d : Sub::params().document(section + "." + m_key, m_description, &v)) out.push_back(std::move(d));
    }

private:
    Sub Cfg::*m_member;
};

/// A nested struct whose keys sit in the same section as the embedding struct's own (a
/// standalone component's parameters reused inside a bigger one), minus `skip`.
template <typename Cfg, typename Sub> class EmbedParam : public ParamBase {
public:
    EmbedParam(Sub Cfg::*member, std::vector<std::string> skip)
        : ParamBase("", "", ""), m_member(member), m_skip(std::move(skip)) {}
    void read(ConfigSection& s, void* cfg) const override {
        Sub::params().ParamSet::read(s, &(static_cast<Cfg*>(cfg)->*m_member), m_skip);
    }
    void document(const std::string& section, const void* cfg, std::vector<SectionDoc>& out) const override {
        const Sub& v = static_cast<const Cfg*>(cfg)->*m_member;
        auto docs = Sub::params().document(section, out.back().description, &v, m_skip);
        for (auto& d : docs.front().params) out.back().params.push_back(std::move(d));
        for (size_t i = 1; i < docs.size(); ++i) out.push_back(std::move(docs[i]));
    }

private:
    Sub Cfg::*m_member;
    std::vector<std::string> m_skip;
};

/// Where a chosen policy's parameters live.
enum class PolicyParamsAt {
    BelowSection,  ///< the table named after the policy below the choosing section ([gpu.sm.ccws])
    Root,          ///< the top-level table named after the policy ([synthetic])
};

/// A policy chosen by name from a registry; the chosen policy's own parameters are read from
/// the table named after it (PolicyParamsAt). The table of a policy that is not chosen is
/// validated too, and otherwise ignored.
template <typename Cfg> class PolicyParam : public ParamBase {
public:
    PolicyParam(std::string key, PolicySpec Cfg::*member, const PolicyCatalog& catalog, std::string description,
                PolicyParamsAt at)
        : ParamBase(std::move(key), "", std::move(description)), m_member(member), m_catalog(catalog), m_at(at) {}
    void read(ConfigSection& s, void* cfg) const override {
        PolicySpec& spec = static_cast<Cfg*>(cfg)->*m_member;
        std::string name = spec.name;
        s.read_choice(m_key, name, m_catalog.names());
        if (name != spec.name || !spec.params) spec = m_catalog.defaults(name);
        // A table of another policy is checked like the chosen one's but not used, so one file
        // (or one sweep) can carry the parameters of every policy it switches between.
        for (auto& other : m_catalog.names())
            if (other != name && m_catalog.has_params(other) && table_of(s, other).has_table("")) {
                ConfigSection unused = table_of(s, other);
                m_catalog.read_params(other, unused, nullptr);
            }
        if (m_catalog.has_params(name)) {
            ConfigSection sub = table_of(s, name);
            spec.params = m_catalog.read_params(name, sub, spec.params.get());
            spec.params_of = name;
        }
    }
    void document(const std::string& section, const void* cfg, std::vector<SectionDoc>& out) const override {
        const PolicySpec& spec = static_cast<const Cfg*>(cfg)->*m_member;
        std::string allowed;
        for (auto& n : m_catalog.names()) allowed += (allowed.empty() ? "" : ", ") + n;
        out.back().params.push_back(
            ParamDoc{m_key, "policy", "", m_description, "one of: " + allowed, toml_text(spec.name), m_catalog.kind()});
        for (auto& n : m_catalog.names())
            if (m_catalog.has_params(n))
                for (auto& d : m_catalog.document_params(n, m_at == PolicyParamsAt::Root ? n : section + "." + n,
                                                         section + "." + m_key))
                    out.push_back(std::move(d));
    }

private:
    ConfigSection table_of(const ConfigSection& s, const std::string& name) const {
        return m_at == PolicyParamsAt::Root ? s.at(name) : s.subsection(name);
    }
    PolicySpec Cfg::*m_member;
    const PolicyCatalog& m_catalog;
    PolicyParamsAt m_at;
};

/// The parameters of config struct `Cfg`, declared once in a static `Cfg::params()`:
///
///     const sim::Params<GpuConfig>& GpuConfig::params() {
///         static const auto p = [] {
///             sim::Params<GpuConfig> p;
///             p.add("num_sms", &GpuConfig::num_sms, "SMs", "streaming multiprocessors").range(1, 1024);
///             return p;
///         }();
///         return p;
///     }
///
/// The member initialiser is the default; the reader, `--set`, the effective config,
/// `stacksim config --list` and docs/config.md all come from this declaration.
template <typename Cfg> class Params : public ParamSet {
public:
    template <typename T>
    Param<Cfg, T>& add(std::string key, T Cfg::*member, std::string unit, std::string description) {
        auto p = std::make_unique<Param<Cfg, T>>(std::move(key), member, std::move(unit), std::move(description));
        Param<Cfg, T>& ref = *p;
        m_params.push_back(std::move(p));
        return ref;
    }
    /// A nested struct with its own `params()`, read from the table `key`.
    template <typename Sub> void table(std::string key, Sub Cfg::*member, std::string description) {
        m_params.push_back(std::make_unique<TableParam<Cfg, Sub>>(std::move(key), member, std::move(description)));
    }
    /// The keys of struct `member` (its own `params()`, except `skip`) in this same section;
    /// `Sub::validate()` is not called (the embedding struct decides when its values are whole).
    template <typename Sub> void embed(Sub Cfg::*member, std::vector<std::string> skip = {}) {
        m_params.push_back(std::make_unique<EmbedParam<Cfg, Sub>>(member, std::move(skip)));
    }
    /// A policy from `catalog` with its parameters (read from the table `at` names).
    void policy(std::string key, PolicySpec Cfg::*member, const PolicyCatalog& catalog, std::string description,
                PolicyParamsAt at = PolicyParamsAt::BelowSection) {
        m_params.push_back(
            std::make_unique<PolicyParam<Cfg>>(std::move(key), member, catalog, std::move(description), at));
    }
    /// Reads `cfg` from `s` (keys in `skip` are not offered) and runs `cfg.validate()` if it
    /// has one, re-throwing its "key: message" as "FILE:LINE: section.key: message".
    void read_into(ConfigSection s, Cfg& cfg, const std::vector<std::string>& skip = {}) const {
        ParamSet::read(s, &cfg, skip);
        if constexpr (has_validate<Cfg>::value) validate_in(s, cfg);
    }

private:
    template <typename U, typename = void> struct has_validate : std::false_type {};
    template <typename U>
    struct has_validate<U, std::void_t<decltype(std::declval<const U&>().validate())>> : std::true_type {};
};

}  // namespace stacksim::sim
