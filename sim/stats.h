// SPDX-License-Identifier: Apache-2.0
// Statistics: counters, averages, histograms and formulas registered under hierarchical names.
#pragma once
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace stacksim::sim {

/// A monotonically increasing count owned by the module that counts it.
class Counter {
public:
    void operator++() { ++m_value; }
    void operator+=(uint64_t n) { m_value += n; }
    uint64_t value() const { return m_value; }

private:
    uint64_t m_value = 0;
};

/// Mean, minimum and maximum of sampled values.
class Average {
public:
    void sample(double v) {
        m_sum += v;
        ++m_count;
        if (v < m_min) m_min = v;
        if (v > m_max) m_max = v;
    }
    double mean() const { return m_count ? m_sum / static_cast<double>(m_count) : 0.0; }
    double sum() const { return m_sum; }
    uint64_t count() const { return m_count; }
    double min() const { return m_count ? m_min : 0.0; }
    double max() const { return m_count ? m_max : 0.0; }

private:
    double m_sum = 0;
    uint64_t m_count = 0;
    double m_min = std::numeric_limits<double>::infinity();
    double m_max = -std::numeric_limits<double>::infinity();
};

/// Fixed-width buckets from 0; the last bucket also holds everything above the range.
class Histogram {
public:
    explicit Histogram(uint64_t bucket_width = 1, unsigned buckets = 16)
        : m_width(bucket_width ? bucket_width : 1), m_counts(buckets ? buckets : 1, 0) {}
    void sample(uint64_t v) {
        uint64_t b = v / m_width;
        if (b >= m_counts.size()) b = m_counts.size() - 1;
        ++m_counts[b];
        m_total.sample(static_cast<double>(v));
    }
    uint64_t bucket_width() const { return m_width; }
    const std::vector<uint64_t>& counts() const { return m_counts; }
    const Average& summary() const { return m_total; }

private:
    uint64_t m_width;
    std::vector<uint64_t> m_counts;
    Average m_total;
};

/// All statistics of a simulation, by full name ("gpu.sm3.issued"). Storage stays in the
/// modules; the registry keeps references and reads them at dump time. Names are unique.
class StatRegistry {
public:
    void add(const std::string& name, const Counter& c, const std::string& desc, const std::string& unit);
    void add(const std::string& name, const Average& a, const std::string& desc, const std::string& unit);
    void add(const std::string& name, const Histogram& h, const std::string& desc, const std::string& unit);
    /// A value computed when dumped (IPC, hit rate, ...).
    void add_formula(const std::string& name, std::function<double()> f, const std::string& desc,
                     const std::string& unit);

    /// Starts a region of interest (after a warm-up, at a sample boundary): from then on the
    /// dumps and value() report what each counter, average (mean, count) and histogram (counts,
    /// mean, count) gathered since this call. The registry keeps the bases; the modules' own
    /// values are untouched, so a reset never changes the simulation. Averages' and histograms'
    /// min and max still cover the whole run. Formulas are computed by their modules: one that
    /// should follow the region registers an on_reset() hook. Returns the regions started.
    uint64_t reset();
    /// Runs `hook` at every reset(), after the built-in statistics were re-based.
    void on_reset(std::function<void()> hook) { m_reset_hooks.push_back(std::move(hook)); }
    /// Regions started by reset() so far (0: the statistics cover the whole run).
    uint64_t resets() const { return m_resets; }

    /// {"name": {"value": ..., "unit": ..., "desc": ...}, ...} sorted by name.
    nlohmann::json to_json() const;
    /// name,value,unit,description lines (averages: mean; histograms: mean).
    std::string to_csv() const;
    /// Aligned human-readable lines.
    std::string to_text() const;
    /// Current numeric value of `name` (counter value, average mean, formula result).
    double value(const std::string& name) const;
    bool contains(const std::string& name) const { return m_entries.count(name) != 0; }
    /// Every name, sorted.
    std::vector<std::string> names() const;
    size_t size() const { return m_entries.size(); }

    /// What a registered statistic is, without its value.
    struct Info {
        std::string name;
        std::string kind;  ///< "counter", "average", "histogram" or "formula"
        std::string unit, desc;
    };
    /// Every registered statistic, sorted by name (the stats dictionary is built from this).
    std::vector<Info> describe() const;

private:
    struct Entry {
        enum class Kind { Counter, Average, Histogram, Formula } kind;
        const void* ptr = nullptr;
        std::function<double()> formula;
        std::string desc, unit;
        // Region-of-interest bases (reset()): what the dumps subtract.
        uint64_t base = 0;                ///< counter value; average / histogram sample count
        double sum_base = 0;              ///< average / histogram sum
        std::vector<uint64_t> counts_base;  ///< histogram buckets
    };
    void insert(const std::string& name, Entry e);
    nlohmann::json entry_value(const Entry& e) const;
    double scalar(const Entry& e) const;
    std::map<std::string, Entry> m_entries;
    std::vector<std::function<void()>> m_reset_hooks;
    uint64_t m_resets = 0;
};

/// Registers a module's stats under its name prefix ("gpu.sm3").
class StatGroup {
public:
    StatGroup(StatRegistry& registry, std::string prefix)
        : m_registry(registry), m_prefix(std::move(prefix)) {}
    template <typename S>
    void add(const std::string& name, const S& stat, const std::string& desc, const std::string& unit) {
        m_registry.add(m_prefix + "." + name, stat, desc, unit);
    }
    void add_formula(const std::string& name, std::function<double()> f, const std::string& desc,
                     const std::string& unit) {
        m_registry.add_formula(m_prefix + "." + name, std::move(f), desc, unit);
    }
    const std::string& prefix() const { return m_prefix; }
    StatRegistry& registry() { return m_registry; }

private:
    StatRegistry& m_registry;
    std::string m_prefix;
};

}  // namespace stacksim::sim
