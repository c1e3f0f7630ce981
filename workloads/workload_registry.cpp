// SPDX-License-Identifier: Apache-2.0
// The workload registry: entries sorted by name, size checks, default sizes, creation.
#include "workloads/workload_registry.h"

#include <algorithm>
#include <stdexcept>

namespace stacksim::workloads {

namespace {

bool by_name(const WorkloadInfo& w, const std::string& name) { return w.name < name; }

const char* class_name(WorkloadClass c) {
    switch (c) {
    case WorkloadClass::Regular: return "regular";
    case WorkloadClass::RegularSharing: return "regular-sharing";
    case WorkloadClass::Irregular: return "irregular";
    case WorkloadClass::Other: return "other";
    }
    return "";
}

}  // namespace

bool WorkloadRegistry::add(WorkloadInfo info, std::function<Product(const WorkloadArgs&)> make) {
    const std::string name = info.name, description = info.description;
    keep(std::move(info));
    return Registry::add(name, description, [this, name, make](const WorkloadArgs& a) {
        check_size(name, a.size);
        return make(a);
    });
}

std::string WorkloadRegistry::listing(const std::string& name) const {
    const WorkloadInfo& w = info(name);
    return w.description + " [" + class_name(w.cls) + "; size = " + w.size.meaning + ", default " +
           std::to_string(w.size.default_size) + "]" + (has_params(name) ? " [parameters]" : "");
}

void WorkloadRegistry::keep(WorkloadInfo info) {
    if (find(info.name)) throw std::logic_error("workload '" + info.name + "' registered twice");
    auto at = std::lower_bound(m_infos.begin(), m_infos.end(), info.name, by_name);
    m_infos.insert(at, std::move(info));
}

const WorkloadInfo* WorkloadRegistry::find(const std::string& name) const {
    auto it = std::lower_bound(m_infos.begin(), m_infos.end(), name, by_name);
    return it != m_infos.end() && it->name == name ? &*it : nullptr;
}

const WorkloadInfo& WorkloadRegistry::info(const std::string& name) const {
    if (const WorkloadInfo* w = find(name)) return *w;
    std::string known;
    for (const auto& w : m_infos) known += (known.empty() ? "" : ", ") + w.name;
    throw sim::InputError("unknown workload '" + name + "' (known: " + known + ")");
}

uint32_t WorkloadRegistry::default_size(const sim::PolicySpec& spec) const {
    const WorkloadInfo& w = info(spec.name);
    auto it = m_default_size.find(spec.name);
    if (it == m_default_size.end() || !spec.params || spec.params_of != spec.name) return w.size.default_size;
    return it->second(spec.params.get());
}

void WorkloadRegistry::check_size(const std::string& name, uint32_t size) const {
    const WorkloadSize& s = info(name).size;
    if (size == 0 || size > s.max)
        throw sim::InputError(name + ": size " + std::to_string(size) + " out of range [1, " + std::to_string(s.max) +
                              "] (" + s.meaning + ")");
    if (size % s.multiple_of != 0)
        throw sim::InputError(name + ": size " + std::to_string(size) + " is not a multiple of " +
                              std::to_string(s.multiple_of));
}

uint64_t WorkloadRegistry::bytes(const sim::PolicySpec& spec, uint32_t size) const {
    const WorkloadSize& s = info(spec.name).size;
    auto it = m_bytes.find(spec.name);
    if (it != m_bytes.end())
        return it->second(spec.params && spec.params_of == spec.name ? spec.params.get() : nullptr, size);
    return s.bytes ? s.bytes(size) : 0;
}

WorkloadRegistry& workload_registry() {
    static WorkloadRegistry registry;
    return registry;
}

std::unique_ptr<Workload> create_workload(const sim::PolicySpec& spec, uint32_t size, uint64_t seed) {
    const WorkloadRegistry& r = workload_registry();
    return r.create(spec, WorkloadArgs{size ? size : r.default_size(spec), seed});
}

const std::vector<WorkloadInfo>& workload_library() { return workload_registry().infos(); }

const WorkloadInfo* find_workload(const std::string& name) { return workload_registry().find(name); }

}  // namespace stacksim::workloads
