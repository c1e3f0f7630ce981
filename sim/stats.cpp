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
    insert(name, {Entry::Kind::Counter, &c, {}, desc, unit, 0, 0, {}});
}
void StatRegistry::add(const std::string& name, const Average& a, const std::string& desc,
                       const std::string& unit) {
    insert(name, {Entry::Kind::Average, &a, {}, desc, unit, 0, 0, {}});
}
void StatRegistry::add(const std::string& name, const Histogram& h, const std::string& desc,
                       const std::string& unit) {
    insert(name, {Entry::Kind::Histogram, &h, {}, desc, unit, 0, 0, {}});
}
void StatRegistry::add_formula(const std::string& name, std::function<double()> f,
                               const std::string& desc, const std::string& unit) {
    insert(name, {Entry::Kind::Formula, nullptr, std::move(f), desc, unit, 0, 0, {}});
}

namespace {

/// The mean of the samples after the first `count0` (whose sum was `sum0`).
double region_mean(const Average& a, uint64_t count0, double sum0) {
    if (count0 == 0) return a.mean();  // no region: exactly the whole-run mean
    const uint64_t n = a.count() - count0;
    return n ? (a.sum() - sum0) / static_cast<double>(n) : 0.0;
}

}  // namespace

uint64_t StatRegistry::reset() {
    for (auto& [name, e] : m_entries) {
        switch (e.kind) {
        case Entry::Kind::Counter: e.base = static_cast<const Counter*>(e.ptr)->value(); break;
        case Entry::Kind::Average: {
            auto* a = static_cast<const Average*>(e.ptr);
            e.base = a->count();
            e.sum_base = a->sum();
            break;
        }
        case Entry::Kind::Histogram: {
            auto* h = static_cast<const Histogram*>(e.ptr);
            e.base = h->summary().count();
            e.sum_base = h->summary().sum();
            e.counts_base = h->counts();
            break;
        }
        case Entry::Kind::Formula: break;
        }
    }
    for (auto& hook : m_reset_hooks) hook();
    return ++m_resets;
}

double StatRegistry::scalar(const Entry& e) const {
    switch (e.kind) {
    case Entry::Kind::Counter: return static_cast<double>(static_cast<const Counter*>(e.ptr)->value() - e.base);
    case Entry::Kind::Average: return region_mean(*static_cast<const Average*>(e.ptr), e.base, e.sum_base);
    case Entry::Kind::Histogram:
        return region_mean(static_cast<const Histogram*>(e.ptr)->summary(), e.base, e.sum_base);
    case Entry::Kind::Formula: return e.formula();
    }
    return 0.0;
}

nlohmann::json StatRegistry::entry_value(const Entry& e) const {
    switch (e.kind) {
    case Entry::Kind::Counter: return static_cast<const Counter*>(e.ptr)->value() - e.base;
    case Entry::Kind::Average: {
        auto* a = static_cast<const Average*>(e.ptr);
        return {{"mean", region_mean(*a, e.base, e.sum_base)}, {"count", a->count() - e.base}, {"min", a->min()},
                {"max", a->max()}};
    }
    case Entry::Kind::Histogram: {
        auto* h = static_cast<const Histogram*>(e.ptr);
        std::vector<uint64_t> counts = h->counts();
        for (size_t i = 0; i < e.counts_base.size() && i < counts.size(); ++i) counts[i] -= e.counts_base[i];
        return {{"bucket_width", h->bucket_width()}, {"counts", counts},
                {"mean", region_mean(h->summary(), e.base, e.sum_base)}, {"count", h->summary().count() - e.base},
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
