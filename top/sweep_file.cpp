// SPDX-License-Identifier: Apache-2.0
// A sweep file (`stacksim sweep SWEEP.toml`): its settings, base values and axes, expanded into points.
#include "top/sweep_file.h"

#include <fmt/format.h>
#include <toml++/toml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/config.h"
#include "sim/error.h"

namespace stacksim::top {

namespace {

namespace fs = std::filesystem;

const char* const kLayout = "a sweep file has [sweep], [base], [grid], [[zip]] and [[point]]";

/// One leaf of a table: its dotted key and node.
struct Leaf {
    std::string key;
    const toml::node* node;
};

/// Throws "FILE:LINE: key: message".
[[noreturn]] void fail(const std::string& file, const toml::node* n, const std::string& key, const std::string& msg) {
    const auto line = n ? n->source().begin.line : 0;
    if (line) throw sim::InputError(fmt::format("{}:{}: {}: {}", file, line, key, msg));
    throw sim::InputError(fmt::format("{}: {}: {}", file, key, msg));
}

/// The leaves below `t` in the order they are written (config keys may be dotted or quoted).
std::vector<Leaf> leaves(const toml::table& t, const std::string& prefix) {
    std::vector<Leaf> out;
    for (auto&& [k, v] : t) {
        std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
        if (auto* sub = v.as_table()) {
            auto below = leaves(*sub, key);
            out.insert(out.end(), below.begin(), below.end());
        } else {
            out.push_back({key, &v});
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const Leaf& a, const Leaf& b) {
        const auto &x = a.node->source().begin, &y = b.node->source().begin;
        return x.line != y.line ? x.line < y.line : x.column < y.column;
    });
    return out;
}

std::string toml_string(const std::string& s) {
    std::string out = "\"";
    for (unsigned char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c < 0x20 || c == 0x7f) {
            out += fmt::format("\\u{:04x}", c);
        } else {
            out += static_cast<char>(c);
        }
    }
    return out + "\"";
}

/// The value of an axis that is a list of strings, given as one string or an array of them:
/// `words` gets the strings (each checked by `ok(word, index)`), `display` joins them with
/// `joiner`. Throws naming file, line and axis with `expected`.
template <typename Ok>
AxisValue string_list_value(const std::string& file, const toml::node& n, const std::string& axis,
                            std::vector<std::string> AxisValue::*words, const char* joiner, const char* expected,
                            Ok ok) {
    AxisValue v;
    v.axis = axis;
    v.where = fmt::format("{}:{}", file, n.source().begin.line);
    auto add = [&](const toml::node& e) {
        auto* s = e.as_string();
        if (!s || !ok(s->get(), (v.*words).size())) fail(file, &e, axis, expected);
        (v.*words).push_back(s->get());
    };
    if (auto* a = n.as_array()) {
        if (a->empty()) fail(file, &n, axis, expected);
        for (const toml::node& e : *a) add(e);
    } else {
        add(n);
    }
    for (const std::string& word : v.*words) {
        v.display += (v.display.empty() ? "" : joiner) + word;
        v.toml += (v.toml.empty() ? "" : ", ") + toml_string(word);
    }
    v.toml = "[" + v.toml + "]";
    return v;
}

/// The value of axis "apps": one `--app` spec, or an array of them (one per application).
AxisValue apps_value(const std::string& file, const toml::node& n) {
    return string_list_value(file, n, "apps", &AxisValue::apps, "+",
                             "expected an application NAME[:SIZE][@START][^PRIORITY] or an array of them",
                             [](const std::string& w, size_t) { return !w.empty() && w.find('+') == std::string::npos; });
}

/// The value of axis "cuda": a CUDA program and its arguments, as an array of strings (or the
/// program alone as a string).
AxisValue cuda_value(const std::string& file, const toml::node& n) {
    return string_list_value(file, n, "cuda", &AxisValue::command, " ",
                             "expected a program and its arguments, [\"./app\", \"ARG\", ...], or the program alone",
                             [](const std::string& w, size_t i) { return i > 0 || !w.empty(); });
}

constexpr size_t kMaxPathChars = 4095;  // PATH_MAX - 1
constexpr size_t kMaxNameChars = 255;   // NAME_MAX

/// The value of a scalar axis; checks the run axes' kinds. Throws naming file, line and key.
AxisValue scalar(const std::string& file, const std::string& axis, const toml::node& n) {
    if (axis == "apps") return apps_value(file, n);
    if (axis == "cuda") return cuda_value(file, n);
    AxisValue v;
    v.axis = axis;
    v.where = fmt::format("{}:{}", file, n.source().begin.line);
    if (auto* s = n.as_string()) {
        v.display = s->get();
        v.toml = toml_string(v.display);
    } else if (auto* i = n.as_integer()) {
        v.display = v.toml = std::to_string(i->get());
    } else if (auto* d = n.as_floating_point()) {
        v.display = v.toml = fmt::format("{}", d->get());
        if (v.toml.find_first_of(".eEn") == std::string::npos) v.toml += ".0";  // stays a float
    } else if (auto* b = n.as_boolean()) {
        v.display = v.toml = b->get() ? "true" : "false";
    } else {
        fail(file, &n, axis, "expected a single value (string, number or boolean)");
    }
    const bool text = n.is_string();
    if ((axis == "config" || axis == "workload" || axis == "trace" || axis == "ptx_dir") && !text)
        fail(file, &n, axis, "expected a string");
    if ((axis == "config" || axis == "workload" || axis == "trace" || axis == "ptx_dir") && v.display.empty())
        fail(file, &n, axis, "must not be empty");
    // A path the system would refuse ("File name too long") is refused here, without echoing it.
    if (axis == "config" || axis == "trace" || axis == "ptx_dir" || axis == "workload") {
        size_t longest = 0, part = 0;
        for (char c : v.display) {
            part = c == '/' ? 0 : part + 1;
            longest = std::max(longest, part);
        }
        if (v.display.size() > kMaxPathChars || longest > kMaxNameChars)
            fail(file, &n, axis,
                 fmt::format("a value of {} characters{}: a path has at most {} characters and {} per folder or file "
                             "name",
                             v.display.size(), longest > kMaxNameChars ? fmt::format(" (a name of {})", longest) : "",
                             kMaxPathChars, kMaxNameChars));
    }
    if (axis == "size" && !(n.is_integer() && n.as_integer()->get() >= 1))
        fail(file, &n, axis, "expected a positive integer");
    if (axis == "seed" && !(n.is_integer() && n.as_integer()->get() >= 0))
        fail(file, &n, axis, "expected a non-negative integer");
    return v;
}

/// The values of one axis of [grid] or [[zip]]: a non-empty array of scalars.
std::vector<AxisValue> axis_values(const std::string& file, const std::string& where_key, const Leaf& leaf) {
    const toml::array* a = leaf.node->as_array();
    if (!a) fail(file, leaf.node, where_key, "an axis is an array of values, e.g. [1, 2]");
    if (a->empty()) fail(file, leaf.node, where_key, "empty axis: give at least one value");
    std::vector<AxisValue> out;
    for (const toml::node& e : *a) out.push_back(scalar(file, leaf.key, e));
    return out;
}

const toml::table* table_or_fail(const std::string& file, const toml::node& n, const std::string& key) {
    const toml::table* t = n.as_table();
    if (!t) fail(file, &n, key, "expected a table ([" + key + "])");
    return t;
}

}  // namespace

bool is_run_axis(const std::string& axis) {
    return axis == "config" || axis == "workload" || axis == "apps" || axis == "cuda" || axis == "size" ||
           axis == "seed" ||
           axis == "trace" || axis == "ptx_dir";
}

SweepFile SweepFile::read(const std::string& path) {
    SweepFile f;
    f.m_path = path;
    f.m_dir = fs::path(path).parent_path().string();
    if (f.m_dir.empty()) f.m_dir = ".";
    std::ifstream in(path);
    if (!in || fs::is_directory(path)) throw sim::InputError(fmt::format("{}: cannot open sweep file", path));
    std::stringstream text;
    text << in.rdbuf();
    toml::table root;
    sim::check_key_depth(text.str(), path);
    try {
        root = toml::parse(text.str(), std::string_view(path));
    } catch (const toml::parse_error& e) {
        throw sim::InputError(fmt::format("{}:{}: {}", path, e.source().begin.line, std::string(e.description())));
    }
    fs::path out = fs::path(path);
    out.replace_extension();
    f.m_out = out.string();
    f.m_out_where = path;

    std::map<std::string, std::string> varied_at;  // axis -> where it is varied ([grid], [[zip]])
    auto note_varied = [&](const std::string& axis) {
        if (!is_run_axis(axis) && std::find(f.m_varied.begin(), f.m_varied.end(), axis) == f.m_varied.end())
            f.m_varied.push_back(axis);
    };
    auto claim = [&](const Leaf& leaf, const std::string& table) {
        auto [it, fresh] = varied_at.emplace(leaf.key, fmt::format("{}:{}", path, leaf.node->source().begin.line));
        if (!fresh)
            fail(path, leaf.node, table + "." + leaf.key, "axis already varied at " + it->second);
        note_varied(leaf.key);
    };

    for (auto&& [k, v] : root) {
        const std::string key(k.str());
        if (key == "sweep") {
            for (const Leaf& leaf : leaves(*table_or_fail(path, v, key), "")) {
                const std::string name = "sweep." + leaf.key;
                if (leaf.key == "out") {
                    auto* s = leaf.node->as_string();
                    if (!s || s->get().empty()) fail(path, leaf.node, name, "expected a folder name");
                    f.m_out = (fs::path(f.m_dir) / s->get()).lexically_normal().string();
                    f.m_out_where = fmt::format("{}:{}", path, leaf.node->source().begin.line);
                } else if (leaf.key == "stats") {
                    auto* a = leaf.node->as_array();
                    if (!a) fail(path, leaf.node, name, "expected an array of stat names");
                    for (const toml::node& e : *a) {
                        if (!e.is_string() || e.as_string()->get().empty())
                            fail(path, &e, name, "expected a stat name (a string)");
                        f.m_stats.push_back(e.as_string()->get());
                        f.m_stats_where.push_back(fmt::format("{}:{}", path, e.source().begin.line));
                    }
                } else if (leaf.key == "timeout") {
                    auto t = leaf.node->value<double>();
                    if (!t || !(*t >= 0) || *t > 1e7) fail(path, leaf.node, name, "expected seconds (0 = no limit)");
                    f.m_timeout = *t;
                } else {
                    fail(path, leaf.node, name, "unknown setting (known: out, stats, timeout)");
                }
            }
        } else if (key == "base") {
            for (const Leaf& leaf : leaves(*table_or_fail(path, v, key), ""))
                f.m_base.push_back(scalar(path, leaf.key, *leaf.node));
        } else if (key == "grid") {
            for (const Leaf& leaf : leaves(*table_or_fail(path, v, key), "")) {
                claim(leaf, "grid");
                Axis axis;
                axis.where = fmt::format("{}:{}", path, leaf.node->source().begin.line);
                axis.key = "grid." + leaf.key;
                axis.values = axis_values(path, "grid." + leaf.key, leaf);
                f.m_axes.push_back(std::move(axis));
            }
        } else if (key == "zip" || key == "point") {
            const toml::array* tables = v.as_array();
            if (!tables || !tables->is_array_of_tables())
                fail(path, &v, key, "expected tables ([[" + key + "]])");
            for (const toml::node& t : *tables) {
                auto list = leaves(*t.as_table(), "");
                if (list.empty()) fail(path, &t, key, "empty [[" + key + "]] table");
                if (key == "point") {
                    SweepPointSpec p;
                    p.where = fmt::format("{}:{}", path, list.front().node->source().begin.line);
                    for (const Leaf& leaf : list) {
                        p.values.push_back(scalar(path, leaf.key, *leaf.node));
                        note_varied(leaf.key);
                    }
                    f.m_points.push_back(std::move(p));
                    continue;
                }
                std::vector<std::vector<AxisValue>> columns;
                for (const Leaf& leaf : list) {
                    claim(leaf, "zip");
                    columns.push_back(axis_values(path, "zip." + leaf.key, leaf));
                    if (columns.back().size() != columns.front().size())
                        fail(path, leaf.node, "zip." + leaf.key,
                             fmt::format("{} values, but zip.{} has {}: zipped axes need the same length",
                                         columns.back().size(), list.front().key, columns.front().size()));
                }
                Axis axis;
                axis.where = fmt::format("{}:{}", path, list.front().node->source().begin.line);
                axis.key = "zip." + list.front().key;
                axis.width = columns.size();
                for (size_t i = 0; i < columns.front().size(); ++i)
                    for (auto& c : columns) axis.values.push_back(c[i]);
                f.m_axes.push_back(std::move(axis));
            }
        } else {
            fail(path, &v, key, fmt::format("unknown table ({})", kLayout));
        }
    }
    // The number of points, counted before any is made: a product of a few short axes can be huge.
    uint64_t count = 1;
    for (const Axis& a : f.m_axes) {
        count *= a.values.size() / a.width;
        if (count + f.m_points.size() > kMaxSweepPoints)
            throw sim::InputError(fmt::format("{}: {}: the sweep would have more than {} points (the product of its "
                                              "axes up to this one is {}); split it into several sweeps",
                                              a.where, a.key, kMaxSweepPoints, count));
    }
    if (f.m_points.size() > kMaxSweepPoints)
        throw sim::InputError(fmt::format("{}: point: more than {} [[point]] tables", path, kMaxSweepPoints));
    return f;
}

size_t SweepFile::point_count() const {
    size_t count = m_axes.empty() ? 0 : 1;
    for (const Axis& a : m_axes) count *= a.values.size() / a.width;
    count += m_points.size();
    return count ? count : 1;
}

std::vector<SweepPointSpec> SweepFile::expand() const {
    std::vector<SweepPointSpec> out;
    std::vector<size_t> at(m_axes.size(), 0);
    for (bool more = !m_axes.empty(); more;) {
        SweepPointSpec p;
        p.values = m_base;
        for (size_t a = 0; a < m_axes.size(); ++a)
            for (size_t w = 0; w < m_axes[a].width; ++w)
                p.values.push_back(m_axes[a].values[at[a] * m_axes[a].width + w]);
        p.first_axis = m_base.size();
        p.where = p.values[m_base.size()].where;
        out.push_back(std::move(p));
        more = false;
        for (size_t a = m_axes.size(); a-- > 0;) {  // the last axis advances fastest
            if (++at[a] < m_axes[a].values.size() / m_axes[a].width) {
                more = true;
                break;
            }
            at[a] = 0;
        }
    }
    for (const SweepPointSpec& explicit_point : m_points) {
        SweepPointSpec p = explicit_point;
        p.values.insert(p.values.begin(), m_base.begin(), m_base.end());
        p.first_axis = m_base.size();
        out.push_back(std::move(p));
    }
    if (out.empty()) out.push_back({m_base, m_base.size(), m_base.empty() ? m_path : m_base.front().where});
    return out;
}

}  // namespace stacksim::top
