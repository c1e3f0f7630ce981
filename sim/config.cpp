// SPDX-License-Identifier: Apache-2.0
// TOML configuration: typed reads with file/line errors, overrides, unknown-key detection.
#include "sim/config.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

namespace stacksim::sim {

namespace {

constexpr std::streamoff kMaxConfigBytes = std::streamoff{16} << 20;
// An array of tables ([[app]]) holds a few entries; an index beyond this is a typo or an
// attack on memory, refused before the array is grown to it.
constexpr size_t kMaxArrayTables = 1024;

std::string type_name(const toml::node& n) {
    switch (n.type()) {
    case toml::node_type::string: return "string";
    case toml::node_type::integer: return "integer";
    case toml::node_type::floating_point: return "float";
    case toml::node_type::boolean: return "boolean";
    case toml::node_type::table: return "table";
    case toml::node_type::array: return "array";
    default: return "date/time";
    }
}

std::vector<std::string> split_path(const std::string& path) {
    std::vector<std::string> parts;
    std::string cur;
    for (char c : path) {
        if (c == '.') {
            parts.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    parts.push_back(cur);
    return parts;
}

/// "app[2]" -> ("app", 2); a plain name -> (name, -1).
std::pair<std::string, long> element(const std::string& part) {
    const auto open = part.find('[');
    if (open == std::string::npos || part.back() != ']') return {part, -1};
    const std::string index = part.substr(open + 1, part.size() - open - 2);
    if (index.empty() || index.find_first_not_of("0123456789") != std::string::npos || index.size() > 6)
        return {part, -1};
    return {part.substr(0, open), std::stol(index)};
}

/// The table at parts[0..n) below `root`, created if absent; "name[i]" is element i of the
/// array of tables `name` (created, and grown, as needed when `grow`; otherwise element i must
/// exist: an override refines a table given, never creates the ones before it).
toml::table& table_at(toml::table& root, const std::vector<std::string>& parts, size_t n, bool grow = true) {
    toml::table* t = &root;
    for (size_t i = 0; i < n; ++i) {
        auto [name, index] = element(parts[i]);
        if (index >= 0) {
            if (static_cast<size_t>(index) >= kMaxArrayTables)
                throw ConfigError(fmt::format("{}: at most {} [[{}]] tables", parts[i], kMaxArrayTables, name));
            auto* arr = t->get_as<toml::array>(name);
            const size_t have = arr ? arr->size() : 0;
            if (!grow && static_cast<size_t>(index) >= have)
                throw ConfigError(have == 0 ? fmt::format("there is no {}: no [[{}]] tables are given{}", parts[i], name,
                                                          name == "app" ? " (--app or [[app]])" : "")
                                            : fmt::format("there is no {}: the [[{}]] tables given are {}[0]..{}[{}]",
                                                          parts[i], name, name, name, have - 1));
            if (!arr) {
                t->insert_or_assign(name, toml::array{});
                arr = t->get_as<toml::array>(name);
            }
            while (static_cast<long>(arr->size()) <= index) arr->push_back(toml::table{});
            t = (*arr)[static_cast<size_t>(index)].as_table();
            if (!t) throw ConfigError(fmt::format("{}: not a table", parts[i]));
            continue;
        }
        auto* next = t->get_as<toml::table>(name);
        if (!next) {
            t->insert_or_assign(name, toml::table{});
            next = t->get_as<toml::table>(name);
        }
        t = next;
    }
    return *t;
}

/// Keys inside a value given whole by an override are located at that override, not at an
/// earlier one: removes the entries of `overridden` below `key`.
void forget_overrides_below(std::map<std::string, std::string>& overridden, const std::string& key) {
    for (auto it = overridden.lower_bound(key); it != overridden.end() && it->first.rfind(key, 0) == 0;) {
        const char next = it->first.size() > key.size() ? it->first[key.size()] : '\0';
        it = next == '.' || next == '[' ? overridden.erase(it) : std::next(it);
    }
}

/// Moves every key of `base` that `mine` lacks into `mine`, merging tables present in both.
/// Moving (not copying) keeps each node's source file and line.
void merge_under(toml::table& mine, toml::table& base) {
    for (auto&& [k, v] : base) {
        toml::node* own = mine.get(k);
        if (!own) {
            mine.insert(k, std::move(v));
        } else if (own->is_table() && v.is_table()) {
            merge_under(*own->as_table(), *v.as_table());
        }
    }
}

}  // namespace

void check_key_depth(std::string_view text, const std::string& source_name) {
    // Key context starts a line and follows '{' or ',' (inline tables); '=' ends it. Dots inside
    // strings and comments do not count; a dot in a value (1.5) is in value context.
    size_t line = 1, dots = 0;
    bool in_key = true;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\n') {
            ++line;
            in_key = true;
            dots = 0;
        } else if (c == '#') {
            while (i + 1 < text.size() && text[i + 1] != '\n') ++i;
        } else if (c == '"' || c == '\'') {
            const bool multi = text.compare(i, 3, std::string(3, c)) == 0;
            const std::string_view close = multi ? std::string_view(c == '"' ? "\"\"\"" : "\'\'\'")
                                                 : std::string_view(c == '"' ? "\"" : "'");
            size_t j = i + (multi ? 3 : 1);
            for (; j < text.size(); ++j) {
                if (c == '"' && text[j] == '\\') {
                    if (++j < text.size() && text[j] == '\n') ++line;
                    continue;
                }
                if (text[j] == '\n') {
                    if (!multi) break;  // unterminated: the parser reports it
                    ++line;
                }
                if (text.compare(j, close.size(), close) == 0) break;
            }
            i = j + (multi && j < text.size() ? 2 : 0);
            if (i < text.size() && text[i] == '\n') --i;  // counted by the loop
        } else if (c == '{' || c == ',') {
            in_key = true;
            dots = 0;
        } else if (c == '=') {
            in_key = false;
        } else if (c == '.' && in_key && ++dots >= kMaxKeyDepth) {
            throw ConfigError(fmt::format("{}:{}: a key of more than {} dotted parts (deeper keys are refused)",
                                          source_name, line, kMaxKeyDepth));
        }
    }
}

ConfigDoc ConfigDoc::from_string(const std::string& text, const std::string& source_name) {
    ConfigDoc doc;
    doc.m_source = source_name;
    check_key_depth(text, source_name);
    try {
        doc.m_root = toml::parse(text, source_name);
    } catch (const toml::parse_error& e) {
        throw ConfigError(fmt::format("{}:{}: {}", source_name, e.source().begin.line,
                                      std::string(e.description())));
    }
    return doc;
}

ConfigDoc ConfigDoc::from_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw ConfigError(fmt::format("{}: cannot open config file", path));
    // A config is a few kilobytes; a huge file (or a device) is refused, not read into memory.
    const std::streamoff bytes = in.tellg();
    if (bytes < 0 || bytes > kMaxConfigBytes)
        throw ConfigError(fmt::format("{}: not a config file (larger than {} MB, or not a regular file)", path,
                                      kMaxConfigBytes >> 20));
    in.seekg(0);
    std::stringstream ss;
    ss << in.rdbuf();
    return from_string(ss.str(), path);
}

void ConfigDoc::apply_override(const std::string& assignment, const std::string& origin) {
    auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw ConfigError(fmt::format("--set {}: expected KEY=VALUE", assignment));
    std::string key = assignment.substr(0, eq);
    std::string value = assignment.substr(eq + 1);
    if (static_cast<size_t>(std::count(key.begin(), key.end(), '.')) >= kMaxKeyDepth)
        throw ConfigError(fmt::format("--set {}...: a key of more than {} dotted parts (deeper keys are refused)",
                                      key.substr(0, 40), kMaxKeyDepth));
    if (value.find('\n') != std::string::npos)
        throw ConfigError(fmt::format("--set {}: the value contains a line break (one value per --set)", assignment));
    check_key_depth("v = " + value, "--set " + key);
    auto parts = split_path(key);
    for (auto& p : parts)
        if (p.empty()) throw ConfigError(fmt::format("--set {}: malformed key '{}'", assignment, key));
    toml::table parsed;
    try {
        parsed = toml::parse("v = " + value);
    } catch (const toml::parse_error&) {
        parsed = toml::table{{"v", value}};  // a bare word is a string
    }
    const std::string at = origin.empty() ? "--set " + assignment : origin;
    toml::table* parent = nullptr;
    try {
        // An element named last ("app[0]={...}") is an element of the array, as in the middle.
        const bool element_last = element(parts.back()).second >= 0;
        if (element_last && !parsed.get("v")->is_table())
            throw ConfigError(fmt::format("{} is a table: give {}={{...}} or {}.KEY=VALUE", parts.back(), key, key));
        parent = &table_at(m_root, parts, parts.size() - (element_last ? 0 : 1), false);
        if (element_last) {
            for (auto&& [k, v] : *parsed.get("v")->as_table()) parent->insert_or_assign(k, v);
            forget_overrides_below(m_overridden, key);
            m_overridden[key] = at;
            return;
        }
    } catch (const ConfigError& e) {
        throw ConfigError(fmt::format("{}: {}", at, e.what()));
    }
    parent->insert_or_assign(parts.back(), *parsed.get("v"));
    forget_overrides_below(m_overridden, key);
    m_overridden[key] = at;
}

std::optional<BaseRef> ConfigDoc::take_base() {
    const toml::node* n = m_root.get("base");
    if (!n) return std::nullopt;
    BaseRef ref{"", where("base", n)};
    if (!n->is_string())
        throw ConfigError(fmt::format("{}: base: expected the name of a preset or a TOML file, got {}", ref.where,
                                      type_name(*n)));
    ref.name = n->as_string()->get();
    m_root.erase("base");
    return ref;
}

void ConfigDoc::inherit(ConfigDoc base) {
    merge_under(m_root, base.m_root);
    m_bases = {base.m_source};
    m_bases.insert(m_bases.end(), base.m_bases.begin(), base.m_bases.end());
}

ConfigSection ConfigDoc::section(const std::string& path) { return ConfigSection(*this, path); }

size_t ConfigDoc::tables_in(const std::string& path) const {
    const toml::node* n = m_root.at_path(path).node();
    if (!n) return 0;
    const toml::array* a = n->as_array();
    if (!a || !a->is_array_of_tables())
        throw ConfigError(fmt::format("{}: {}: expected an array of tables ([[{}]])", where(path, n), path, path));
    if (a->size() > kMaxArrayTables)
        throw ConfigError(fmt::format("{}: {}: {} [[{}]] tables, at most {}", where(path, n), path, a->size(), path,
                                      kMaxArrayTables));
    return a->size();
}

size_t ConfigDoc::append_table(const std::string& path) {
    const size_t i = tables_in(path);
    const auto parts = split_path(path + "[" + std::to_string(i) + "].x");
    table_at(m_root, parts, parts.size() - 1);
    return i;
}

std::string ConfigDoc::where(const std::string& key_path, const toml::node* node) const {
    auto ov = m_overridden.find(key_path);
    if (ov != m_overridden.end()) return ov->second;
    // A key inside a table given whole by an override ("--set app[0]={size=-1}") is located there.
    for (size_t cut = key_path.find_last_of(".["); cut != std::string::npos && cut > 0;
         cut = key_path.find_last_of(".[", cut - 1)) {
        auto up = m_overridden.find(key_path.substr(0, cut));
        if (up != m_overridden.end()) return up->second;
    }
    if (node && node->source().begin.line > 0)
        return fmt::format("{}:{}", node->source().path ? *node->source().path : m_source, node->source().begin.line);
    return m_source;
}

void ConfigDoc::check_table(const toml::table& t, const std::string& prefix) const {
    for (auto&& [k, v] : t) {
        std::string key = prefix.empty() ? std::string(k.str()) : prefix + "." + std::string(k.str());
        if (auto* sub = v.as_table()) {
            check_table(*sub, key);
        } else if (auto* arr = v.as_array(); arr && arr->is_array_of_tables() && !arr->empty()) {
            for (size_t i = 0; i < arr->size(); ++i) check_table(*(*arr)[i].as_table(), key + "[" + std::to_string(i) + "]");
        } else if (!m_used.count(key)) {
            throw ConfigError(fmt::format("{}: unknown key '{}'", where(key, &v), key));
        }
    }
}

void ConfigDoc::check_all_used() const { check_table(m_root, ""); }

ConfigSection::ConfigSection(ConfigDoc& doc, std::string path) : m_doc(doc), m_path(std::move(path)) {}

bool ConfigSection::has(const std::string& key) const {
    const toml::node* n = m_doc.m_root.at_path(full(key)).node();
    return n && !n->is_table();
}

bool ConfigSection::has_table(const std::string& key) const {
    const toml::node* n = m_doc.m_root.at_path(key.empty() ? m_path : full(key)).node();
    return n && n->is_table();
}

std::string ConfigSection::full(const std::string& key) const {
    return m_path.empty() ? key : m_path + "." + key;
}

bool ConfigSection::plain(const std::string& key) {
    // A loop, not find_first_of: libstdc++ calls memchr once per character of the key.
    for (char c : key)
        if (c == '.' || c == '[') return false;
    return !key.empty();
}

const toml::table* ConfigSection::input_table() {
    if (!m_input_found) {
        m_input = m_path.empty() ? &m_doc.m_root : m_doc.m_root.at_path(m_path).as_table();
        m_input_found = true;
    }
    return m_input;
}

toml::table& ConfigSection::effective_table() {
    if (!m_effective) {
        if (m_path.empty()) {
            m_effective = &m_doc.m_effective;
        } else {
            const auto parts = split_path(m_path);
            m_effective = &table_at(m_doc.m_effective, parts, parts.size());
        }
    }
    return *m_effective;
}

const toml::node* ConfigSection::lookup(const std::string& key) {
    std::string k = full(key);
    // A table where a value belongs is reported as a type error by the caller.
    if (plain(key)) {
        m_doc.m_used.insert(std::move(k));
        const toml::table* t = input_table();
        return t ? t->get(key) : nullptr;
    }
    m_doc.m_used.insert(k);
    return m_doc.m_root.at_path(k).node();
}

template <typename T> void ConfigSection::record(const std::string& key, const T& value) {
    if (plain(key)) {
        effective_table().insert_or_assign(key, value);
        return;
    }
    auto parts = split_path(full(key));
    table_at(m_doc.m_effective, parts, parts.size() - 1).insert_or_assign(parts.back(), value);
}

void ConfigSection::fail(const std::string& key, const std::string& message) const {
    std::string k = key.empty() ? m_path : full(key);
    const toml::node* n = m_doc.m_root.at_path(k).node();
    throw ConfigError(fmt::format("{}: {}: {}", m_doc.where(k, n), k, message));
}

void ConfigSection::read(const std::string& key, bool& value) {
    if (const toml::node* n = lookup(key)) {
        if (!n->is_boolean()) fail(key, "expected boolean, got " + type_name(*n));
        value = n->as_boolean()->get();
    }
    record(key, value);
}

void ConfigSection::read(const std::string& key, int64_t& value) {
    if (const toml::node* n = lookup(key)) {
        if (!n->is_integer()) fail(key, "expected integer, got " + type_name(*n));
        value = n->as_integer()->get();
    }
    record(key, value);
}

void ConfigSection::read(const std::string& key, uint64_t& value) {
    int64_t v = static_cast<int64_t>(value);
    if (const toml::node* n = lookup(key)) {
        if (!n->is_integer()) fail(key, "expected integer, got " + type_name(*n));
        v = n->as_integer()->get();
        if (v < 0) fail(key, fmt::format("must not be negative, got {}", v));
    }
    value = static_cast<uint64_t>(v);
    record(key, v);
}

void ConfigSection::read(const std::string& key, uint32_t& value) {
    uint64_t v = value;
    read(key, v);
    if (v > std::numeric_limits<uint32_t>::max()) fail(key, fmt::format("{} is too large", v));
    value = static_cast<uint32_t>(v);
}

void ConfigSection::read(const std::string& key, double& value) {
    if (const toml::node* n = lookup(key)) {
        if (n->is_integer())
            value = static_cast<double>(n->as_integer()->get());
        else if (n->is_floating_point())
            value = n->as_floating_point()->get();
        else
            fail(key, "expected number, got " + type_name(*n));
        if (!std::isfinite(value)) fail(key, "must be a finite number");
    }
    record(key, value);
}

void ConfigSection::read(const std::string& key, std::string& value) {
    if (const toml::node* n = lookup(key)) {
        if (!n->is_string()) fail(key, "expected string, got " + type_name(*n));
        value = n->as_string()->get();
    }
    record(key, value);
}

void ConfigSection::read_choice(const std::string& key, std::string& value,
                                const std::vector<std::string>& choices) {
    read(key, value);
    for (auto& c : choices)
        if (c == value) return;
    std::string list;
    for (auto& c : choices) list += (list.empty() ? "" : ", ") + c;
    fail(key, fmt::format("'{}' is not one of: {}", value, list));
}

}  // namespace stacksim::sim
