// SPDX-License-Identifier: Apache-2.0
// Statistics registry and its JSON, CSV and text dumps.
#include "sim/stats.h"

#include <fmt/format.h>

#include <stdexcept>

namespace stacksim::sim {

void StatRegistry::insert(const std::string& name, Entry e) {
    if (!m_entries.emplace(name, std::move(e)).second)
        throw std::logic_error("statistic registered twice: " + name);
}

void StatRegistry::add(const std::string& name, const Counter& c, const std::string& desc,
                       const std::string& unit) {
    insert(name, {Entry::Kind::Counter, &c, {}, desc, unit});
}
void StatRegistry::add(const std::string& name, const Average& a, const std::string& desc,
                       const std::string& unit) {
    insert(name, {Entry::Kind::Average, &a, {}, desc, unit});
}
void StatRegistry::add(const std::string& name, const Histogram& h, const std::string& desc,
                       const std::string& unit) {
    insert(name, {Entry::Kind::Histogram, &h, {}, desc, unit});
}
void StatRegistry::add_formula(const std::string& name, std::function<double()> f,
                               const std::string& desc, const std::string& unit) {
    insert(name, {Entry::Kind::Formula, nullptr, std::move(f), desc, unit});
}

double StatRegistry::scalar(const Entry& e) const {
    switch (e.kind) {
    case Entry::Kind::Counter: return static_cast<double>(static_cast<const Counter*>(e.ptr)->value());
    case Entry::Kind::Average: return static_cast<const Average*>(e.ptr)->mean();
    case Entry::Kind::Histogram: return static_cast<const Histogram*>(e.ptr)->summary().mean();
    case Entry::Kind::Formula: return e.formula();
    }
    return 0.0;
}

nlohmann::json StatRegistry::entry_value(const Entry& e) const {
    switch (e.kind) {
    case Entry::Kind::Counter: return static_cast<const Counter*>(e.ptr)->value();
    case Entry::Kind::Average: {
        auto* a = static_cast<const Average*>(e.ptr);
        return {{"mean", a->mean()}, {"count", a->count()}, {"min", a->min()}, {"max", a->max()}};
    }
    case Entry::Kind::Histogram: {
        auto* h = static_cast<const Histogram*>(e.ptr);
        return {{"bucket_width", h->bucket_width()}, {"counts", h->counts()},
                {"mean", h->summary().mean()}, {"count", h->summary().count()},
                {"max", h->summary().max()}};
    }
    case Entry::Kind::Formula: return e.formula();
    }
    return nullptr;
}

double StatRegistry::value(const std::string& name) const {
    auto it = m_entries.find(name);
    if (it == m_entries.end()) throw std::out_of_range("no statistic named " + name);
    return scalar(it->second);
}

std::vector<std::string> StatRegistry::names() const {
    std::vector<std::string> out;
    out.reserve(m_entries.size());
    for (auto& [name, e] : m_entries) out.push_back(name);
    return out;
}

nlohmann::json StatRegistry::to_json() const {
    nlohmann::json j = nlohmann::json::object();
    for (auto& [name, e] : m_entries)
        j[name] = {{"value", entry_value(e)}, {"unit", e.unit}, {"desc", e.desc}};
    return j;
}

std::vector<StatRegistry::Info> StatRegistry::describe() const {
    static const char* const kinds[] = {"counter", "average", "histogram", "formula"};
    std::vector<Info> out;
    for (auto& [name, e] : m_entries) out.push_back({name, kinds[static_cast<int>(e.kind)], e.unit, e.desc});
    return out;
}

std::string StatRegistry::to_csv() const {
    std::string out = "name,value,unit,description\n";
    for (auto& [name, e] : m_entries)
        out += fmt::format("{},{},{},\"{}\"\n", name, scalar(e), e.unit, e.desc);
    return out;
}

std::string StatRegistry::to_text() const {
    size_t width = 0;
    for (auto& [name, e] : m_entries) width = std::max(width, name.size());
    std::string out;
    for (auto& [name, e] : m_entries)
        out += fmt::format("{:<{}}  {:>16.6g} {:<12} # {}\n", name, width, scalar(e), e.unit, e.desc);
    return out;
}

}  // namespace stacksim::sim
