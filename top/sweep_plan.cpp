// SPDX-License-Identifier: Apache-2.0
// A sweep's points, each checked and resolved to the `stacksim run` that computes it (plan.json).
#include "top/sweep_plan.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>

#include <unistd.h>

#include "sim/atomic_file.h"
#include "sim/error.h"
#include "top/app_config.h"
#include "top/embedded_presets.h"
#include "top/result_identity.h"
#include "top/run_config.h"
#include "top/stats_dictionary.h"
#include "workloads/workload_registry.h"

namespace stacksim::top {

namespace {

namespace fs = std::filesystem;

bool is_preset(const std::string& name) {
    for (const auto& f : embedded_presets())
        if (f.file_name == name + ".toml") return true;
    return false;
}

std::string absolute(const std::string& dir, const std::string& path) {
    return fs::absolute(fs::path(dir) / path).lexically_normal().string();
}

/// The effective value at dotted `key` for a table column ("" when the key was not read).
std::string effective_value(const toml::table& effective, const std::string& key) {
    const toml::node* n = effective.at_path(key).node();
    if (!n) return "";
    if (auto* s = n->as_string()) return s->get();
    if (auto* i = n->as_integer()) return std::to_string(i->get());
    if (auto* d = n->as_floating_point()) return fmt::format("{}", d->get());
    if (auto* b = n->as_boolean()) return b->get() ? "true" : "false";
    return "";
}

/// FNV-1a over a TOML tree: keys, a type tag per value and the value's bytes, in table order.
/// Equal trees hash equal; this is the point's identity (printing the tree as TOML for the same
/// purpose took a third of a sweep's planning time).
class TreeHash {
public:
    void bytes(const void* data, size_t n) {
        const auto* p = static_cast<const unsigned char*>(data);
        for (size_t i = 0; i < n; ++i) {
            m_h ^= p[i];
            m_h *= 1099511628211ull;
        }
    }
    void text(std::string_view s) {
        const uint64_t n = s.size();
        bytes(&n, sizeof n);
        bytes(s.data(), s.size());
    }
    void tag(char t) { bytes(&t, 1); }
    void node(const toml::node& n) {
        if (const auto* t = n.as_table()) {
            tag('t');
            const uint64_t size = t->size();
            bytes(&size, sizeof size);
            for (auto&& [k, v] : *t) {
                text(k.str());
                node(v);
            }
        } else if (const auto* a = n.as_array()) {
            tag('a');
            const uint64_t size = a->size();
            bytes(&size, sizeof size);
            for (const toml::node& e : *a) node(e);
        } else if (const auto* s = n.as_string()) {
            tag('s');
            text(s->get());
        } else if (const auto* i = n.as_integer()) {
            tag('i');
            const int64_t v = i->get();
            bytes(&v, sizeof v);
        } else if (const auto* d = n.as_floating_point()) {
            tag('f');
            const double v = d->get();
            bytes(&v, sizeof v);
        } else if (const auto* b = n.as_boolean()) {
            tag('b');
            tag(b->get() ? '1' : '0');
        } else {
            // Dates and times: the effective table records none (config values are numbers,
            // booleans and strings).
            tag('o');
            tag(static_cast<char>(n.type()));
        }
    }
    std::string hex() const { return fmt::format("{:012x}", m_h >> 16); }

private:
    uint64_t m_h = 1469598103934665603ull;
};

/// Resolves one point: its run arguments, effective configuration and table values.
class PointResolver {
public:
    /// `program_hashes`: content hashes of the CUDA programs met so far, by path (read once).
    PointResolver(const SweepFile& file, const SweepPointSpec& spec,
                  std::map<std::string, std::string>& program_hashes)
        : m_file(file), m_spec(spec), m_program_hashes(program_hashes) {}

    SweepPoint resolve(const std::vector<std::string>& columns) {
        SweepPoint p;
        p.where = m_spec.where;
        for (size_t i = m_spec.first_axis; i < m_spec.values.size(); ++i)
            p.label += (p.label.empty() ? "" : " ") + m_spec.values[i].axis + "=" + m_spec.values[i].display;
        if (p.label.empty()) p.label = "base";
        m_label = p.label;
        std::string config = "gtx980";
        const AxisValue* config_value = nullptr;
        for (const AxisValue& v : m_spec.values) {
            if (v.axis == "config") {
                config = v.display;
                config_value = &v;
            }
        }
        std::string config_arg = config;
        if (!is_preset(config)) {
            config_arg = absolute(m_file.dir(), config);
            std::error_code ec;
            if (!fs::is_regular_file(config_arg, ec))
                throw sim::InputError(fmt::format("{}: config: '{}' is no preset and no file", config_value->where, config));
        }
        sim::ConfigDoc doc;
        try {
            // Read per point, not copied from a first read: a copied TOML tree loses the file
            // and line of each value, which the errors name.
            doc = load_config(config_arg);
        } catch (const sim::InputError& e) {
            throw sim::InputError(fmt::format("{}: config: {}", config_value ? config_value->where : p.where, e.what()));
        }
        p.args = {"run", config_arg};
        std::string trace, ptx_dir;
        const AxisValue *trace_value = nullptr, *workload_value = nullptr, *size_value = nullptr;
        // A trace, a list of applications or a CUDA program replaces the workload: [base]'s
        // workload and size do not apply to such a point, but a point giving both is a
        // contradiction.
        const AxisValue *replaced_by = nullptr, *workload_given = nullptr, *apps_value = nullptr,
                        *cuda_value = nullptr;
        for (size_t i = 0; i < m_spec.values.size(); ++i) {
            const AxisValue& v = m_spec.values[i];
            if (v.axis == "trace" || v.axis == "apps" || v.axis == "cuda") {
                if (replaced_by && replaced_by->axis != v.axis)
                    throw sim::InputError(fmt::format(
                        "{}: {}: a point runs one of a trace, applications or a CUDA program ({} at {})", v.where,
                        v.axis, replaced_by->axis, replaced_by->where));
                replaced_by = &v;
            }
            if ((v.axis == "workload" || v.axis == "size") && i >= m_spec.first_axis) workload_given = &v;
        }
        if (replaced_by && workload_given)
            throw sim::InputError(fmt::format("{}: {}: a point runs a {} or a workload, not both ({} at {})",
                                              replaced_by->where, replaced_by->axis,
                                              replaced_by->axis == "trace"  ? "trace"
                                              : replaced_by->axis == "cuda" ? "CUDA program"
                                                                            : "list of applications",
                                              workload_given->axis, workload_given->where));
        for (const AxisValue& v : m_spec.values) {
            if (v.axis == "config") continue;
            if (replaced_by && (v.axis == "workload" || v.axis == "size")) continue;
            if (v.axis == "apps") {
                apps_value = &v;
            } else if (v.axis == "cuda") {
                cuda_value = &v;
            } else if (v.axis == "workload") {
                workload(v);
                workload_value = &v;
            } else if (v.axis == "size") {
                set("run.size=" + v.toml, v);
                size_value = &v;
            } else if (v.axis == "seed") {
                set("run.seed=" + v.toml, v);
            } else if (v.axis == "trace" || v.axis == "ptx_dir") {
                std::string path = absolute(m_file.dir(), v.display);
                std::error_code ec;
                const bool ok = v.axis == "trace" ? fs::is_regular_file(path, ec) : fs::is_directory(path, ec);
                if (!ok) throw sim::InputError(fmt::format("{}: {}: no such {} '{}'", v.where, v.axis,
                                                           v.axis == "trace" ? "file" : "folder", v.display));
                (v.axis == "trace" ? trace : ptx_dir) = path;
                if (v.axis == "trace") trace_value = &v;
            } else {
                set(v.axis + "=" + v.toml, v);
            }
        }
        for (const auto& [assignment, value] : m_sets) {
            p.args.push_back("--set");
            p.args.push_back(assignment);
            try {
                doc.apply_override(assignment);
            } catch (const sim::InputError& e) {
                throw sim::InputError(fmt::format("{}: {}: {}", value->where, value->axis, e.what()));
            }
        }
        if (apps_value) {
            try {
                add_app_specs(doc, apps_value->apps);
            } catch (const sim::InputError& e) {
                throw sim::InputError(fmt::format("{}: apps: {}", apps_value->where, e.what()));
            }
            for (const std::string& spec : apps_value->apps) p.args.insert(p.args.end(), {"--app", spec});
        }
        if (!trace.empty()) p.args.insert(p.args.end(), {"--trace", trace});
        if (!ptx_dir.empty()) p.args.insert(p.args.end(), {"--ptx-dir", ptx_dir});
        std::string program_hash;
        if (cuda_value) {
            if (!ptx_dir.empty())
                throw sim::InputError(fmt::format("{}: cuda: a CUDA program brings its own PTX (no ptx_dir)",
                                                  cuda_value->where));
            const std::string exe = absolute(m_file.dir(), cuda_value->command[0]);
            std::error_code ec;
            if (!fs::is_regular_file(exe, ec) || ::access(exe.c_str(), X_OK) != 0)
                throw sim::InputError(fmt::format("{}: cuda: no executable program '{}'", cuda_value->where,
                                                  cuda_value->command[0]));
            p.args[0] = "cuda";
            p.program = cuda_value->command;
            p.program[0] = exe;
            auto known = m_program_hashes.find(exe);
            if (known == m_program_hashes.end()) known = m_program_hashes.emplace(exe, file_content_hash(exe)).first;
            program_hash = known->second;
        }
        RunConfig cfg;
        try {
            cfg = read_run_config(doc);
        } catch (const sim::InputError& e) {
            throw sim::InputError(relocate(e.what()));
        }
        uint32_t size = cfg.run.size;
        if (trace.empty() && cfg.apps.empty() && !cuda_value) {
            if (!size) size = workloads::workload_registry().default_size(cfg.run.workload);
            try {
                workloads::workload_registry().check_size(cfg.run.workload.name, size);
            } catch (const sim::InputError& e) {
                const AxisValue* at = size_value ? size_value : workload_value;
                throw sim::InputError(fmt::format("{}: {}: {}", at ? at->where : p.where,
                                                  at ? at->axis : std::string("size"), e.what()));
            }
        }
        for (const AppConfig& app : cfg.apps) {
            try {
                const auto& registry = workloads::workload_registry();
                registry.check_size(app.workload.name, app.size ? app.size : registry.default_size(app.workload));
            } catch (const sim::InputError& e) {
                throw sim::InputError(fmt::format("{}: apps: {}", apps_value ? apps_value->where : p.where, e.what()));
            }
        }
        const bool single = trace.empty() && cfg.apps.empty() && !cuda_value;
        TreeHash identity;
        identity.node(doc.effective());
        identity.text(trace);
        // A CUDA program is its binary's content and its arguments.
        identity.text(program_hash);
        for (const std::string& word : p.program) identity.text(word);
        identity.text(ptx_dir);
        p.hash = identity.hex();
        for (const std::string& c : columns) {
            if (c == "config") p.values.push_back(config);
            else if (c == "workload") p.values.push_back(single ? cfg.run.workload.name : "");
            else if (c == "size") p.values.push_back(single ? std::to_string(size) : "");
            else if (c == "apps") p.values.push_back(apps_value ? apps_value->display : "");
            else if (c == "cuda") p.values.push_back(cuda_value ? cuda_value->display : "");
            else if (c == "seed") p.values.push_back(std::to_string(cfg.run.seed));
            else if (c == "trace") p.values.push_back(trace_value ? trace_value->display : "");
            else if (c == "ptx_dir") p.values.push_back(ptx_dir);
            else p.values.push_back(effective_value(doc.effective(), c));
        }
        return p;
    }

private:
    void set(const std::string& assignment, const AxisValue& v) { m_sets.emplace_back(assignment, &v); }

    void workload(const AxisValue& v) {
        std::string name = v.display, size;
        auto colon = name.find(':');
        if (colon != std::string::npos) {
            size = name.substr(colon + 1);
            name = name.substr(0, colon);
            if (size.empty() || size.find_first_not_of("0123456789") != std::string::npos || size.size() > 9 ||
                std::stoul(size) == 0)
                throw sim::InputError(fmt::format("{}: workload: size '{}' of '{}' is not a positive integer", v.where,
                                                  size, v.display));
        }
        if (!workloads::workload_registry().contains(name)) {
            std::string known;
            for (auto& n : workloads::workload_registry().names()) known += (known.empty() ? "" : ", ") + n;
            throw sim::InputError(fmt::format("{}: workload: unknown workload '{}' (known: {})", v.where, name, known));
        }
        set("run.workload=\"" + name + "\"", v);
        if (!size.empty()) set("run.size=" + size, v);
    }

    /// A config error caused by one of this point's values names the sweep file's line instead
    /// of the "--set" it became; any other names the point.
    std::string relocate(const std::string& message) const {
        for (auto it = m_sets.rbegin(); it != m_sets.rend(); ++it) {
            const std::string prefix = "--set " + it->first + ": ";
            if (message.rfind(prefix, 0) == 0) return it->second->where + ": " + message.substr(prefix.size());
        }
        return fmt::format("{}: point [{}]: {}", m_spec.where, m_label, message);
    }

    const SweepFile& m_file;
    const SweepPointSpec& m_spec;
    std::map<std::string, std::string>& m_program_hashes;
    std::vector<std::pair<std::string, const AxisValue*>> m_sets;
    std::string m_label;
};

}  // namespace

SweepPlan SweepPlan::build(const SweepFile& file) {
    SweepPlan plan;
    plan.m_sweep_file = fs::absolute(file.path()).lexically_normal().string();
    plan.m_out = fs::absolute(file.out()).lexically_normal().string();
    plan.m_stats = file.stats();
    plan.m_timeout = file.timeout_seconds();
    const auto specs = file.expand();
    bool trace = false, ptx = false, apps = false, cuda = false;
    for (const auto& s : specs)
        for (const auto& v : s.values) {
            trace = trace || v.axis == "trace";
            ptx = ptx || v.axis == "ptx_dir";
            apps = apps || v.axis == "apps";
            cuda = cuda || v.axis == "cuda";
        }
    plan.m_columns = {"config", "workload", "size", "seed"};
    if (apps) plan.m_columns.push_back("apps");
    if (cuda) plan.m_columns.push_back("cuda");
    if (trace) plan.m_columns.push_back("trace");
    if (ptx) plan.m_columns.push_back("ptx_dir");
    for (const auto& k : file.varied_keys()) plan.m_columns.push_back(k);
    for (size_t i = 0; i < plan.m_stats.size(); ++i)
        if (!stat_is_known(plan.m_stats[i]))
            throw sim::InputError(fmt::format("{}: sweep.stats: no statistic '{}' (stacksim stats --list; a name "
                                              "has instance numbers where the list has N: gpu.sm0.warp_instructions)",
                                              file.stats_where()[i], plan.m_stats[i]));
    std::map<std::string, size_t> seen;
    std::map<std::string, std::string> program_hashes;
    for (const auto& spec : specs) {
        SweepPoint p = PointResolver(file, spec, program_hashes).resolve(plan.m_columns);
        p.index = plan.m_points.size();
        auto [it, fresh] = seen.emplace(p.hash, p.index);
        if (!fresh)
            throw sim::InputError(fmt::format("{}: point: the same effective configuration as the point at {}",
                                              p.where, plan.m_points[it->second].where));
        plan.m_points.push_back(std::move(p));
    }
    return plan;
}

void SweepPlan::save() const {
    nlohmann::json j;
    j["format"] = "stacksim sweep plan 1";
    j["sweep"] = m_sweep_file;
    j["out"] = m_out;
    j["stats"] = m_stats;
    j["timeout"] = m_timeout;
    j["columns"] = m_columns;
    j["points"] = nlohmann::json::array();
    for (const auto& p : m_points)
        j["points"].push_back({{"index", p.index}, {"hash", p.hash}, {"args", p.args}, {"program", p.program},
                               {"values", p.values}, {"label", p.label}, {"where", p.where}});
    std::error_code ec;
    fs::create_directories(m_out, ec);
    if (ec) throw sim::InputError(fmt::format("{}: cannot create the results folder: {}", m_out, ec.message()));
    sim::write_file_atomically(m_out + "/plan.json", j.dump(1) + "\n");
}

SweepPlan SweepPlan::load(const std::string& out_dir) {
    const std::string path = out_dir + "/plan.json";
    std::ifstream in(path);
    if (!in) throw sim::InputError(fmt::format("{}: no sweep plan here (run stacksim sweep SWEEP.toml first)", path));
    SweepPlan plan;
    try {
        nlohmann::json j = nlohmann::json::parse(in);
        if (j.at("format") != "stacksim sweep plan 1") throw std::runtime_error("unknown format");
        plan.m_sweep_file = j.at("sweep").get<std::string>();
        plan.m_out = fs::absolute(out_dir).lexically_normal().string();
        plan.m_stats = j.at("stats").get<std::vector<std::string>>();
        plan.m_timeout = j.at("timeout").get<double>();
        plan.m_columns = j.at("columns").get<std::vector<std::string>>();
        for (const auto& e : j.at("points")) {
            SweepPoint p;
            p.index = e.at("index").get<size_t>();
            p.hash = e.at("hash").get<std::string>();
            p.args = e.at("args").get<std::vector<std::string>>();
            if (e.contains("program")) p.program = e.at("program").get<std::vector<std::string>>();
            p.values = e.at("values").get<std::vector<std::string>>();
            p.label = e.at("label").get<std::string>();
            p.where = e.at("where").get<std::string>();
            if (p.index != plan.m_points.size() || p.values.size() != plan.m_columns.size() ||
                p.hash.size() != 12 || p.hash.find_first_not_of("0123456789abcdef") != std::string::npos)
                throw std::runtime_error("inconsistent point " + std::to_string(plan.m_points.size()));
            plan.m_points.push_back(std::move(p));
        }
    } catch (const std::exception& e) {
        throw sim::InputError(fmt::format("{}: not a sweep plan ({})", path, e.what()));
    }
    return plan;
}

}  // namespace stacksim::top
