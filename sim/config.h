// SPDX-License-Identifier: Apache-2.0
// TOML configuration: typed reads with file/line errors, overrides, unknown-key detection.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <toml++/toml.h>

#include "sim/error.h"

namespace stacksim::sim {

class ConfigSection;

/// A `base = "..."` line of a document: the preset or file it names and where ("FILE:LINE").
struct BaseRef {
    std::string name;
    std::string where;
};

/// A parsed configuration file plus `--set` overrides. Modules never see this: `top/` reads
/// one ConfigSection per module into that module's config struct, then calls
/// check_all_used() so that misspelled keys are errors, and effective() for the results.
/// The most dotted parts a key may have ("a.b.c" has 3), in config files, table headers, inline
/// tables, sweep files and --set: deeper keys are refused before parsing (toml++ nests a table
/// per part recursively: 30,000 parts overflowed the stack). Real keys have at most 6.
constexpr size_t kMaxKeyDepth = 32;

/// Throws ConfigError "SOURCE:LINE: a key of more than 32 dotted parts..." when a key or table
/// header of the TOML `text` has more than kMaxKeyDepth parts (a linear scan, before parsing).
void check_key_depth(std::string_view text, const std::string& source_name);

class ConfigDoc {
public:
    /// An empty document (all defaults).
    ConfigDoc() = default;
    /// Parses `path`; throws ConfigError "FILE:LINE: message" on a syntax error.
    static ConfigDoc from_file(const std::string& path);
    /// Parses `text`, naming it `source_name` in errors.
    static ConfigDoc from_string(const std::string& text, const std::string& source_name);

    /// Applies "a.b.c=value"; value is a TOML value (42, 1.5, true, "x") or a bare string.
    /// "name[i].key=value" and "name[i]={...}" refine element i of the array of tables `name`,
    /// which must exist (no element is created). Errors about the key name `origin` (default
    /// "--set ASSIGNMENT"; "--app vecadd:64" when the CLI translates an option into keys).
    /// Refuses a line break in the value and keys deeper than kMaxKeyDepth.
    void apply_override(const std::string& assignment, const std::string& origin = "");

    /// Removes the root key `base` and returns what it names; nullopt when there is none.
    /// Throws ConfigError "FILE:LINE: base: ..." when it is not a string.
    std::optional<BaseRef> take_base();
    /// Puts `base` under this document: every key this document does not give takes base's
    /// value (tables merge key by key). Errors about an inherited key name base's file and line.
    void inherit(ConfigDoc base);
    /// The documents this one stands on, nearest first ("preset gtx980.toml"); empty: none.
    const std::vector<std::string>& bases() const { return m_bases; }

    /// The section at dotted `path` ("gpu.sm", or "app[1]" for an element of an array of
    /// tables); absent sections read as all defaults.
    ConfigSection section(const std::string& path);
    /// Tables in the array of tables at `path` ([[app]]); 0 if absent. Throws ConfigError if
    /// the key holds something else, or more than 1024 tables (the most an array may hold, also
    /// for "name[i]" in overrides).
    size_t tables_in(const std::string& path) const;
    /// Appends an empty table to the array of tables at `path`; returns its index.
    size_t append_table(const std::string& path);

    /// Throws ConfigError naming the first key that no section read ("FILE:LINE: unknown key").
    void check_all_used() const;
    /// Every value read (given or default), as a TOML table.
    const toml::table& effective() const { return m_effective; }
    const std::string& source_name() const { return m_source; }

private:
    friend class ConfigSection;
    std::string where(const std::string& key_path, const toml::node* node) const;
    void check_table(const toml::table& t, const std::string& prefix) const;

    toml::table m_root;
    toml::table m_effective;
    std::string m_source = "<defaults>";
    std::vector<std::string> m_bases;
    std::set<std::string> m_used;            ///< dotted keys read
    std::map<std::string, std::string> m_overridden;  ///< dotted key -> "--set k=v"
};

/// A view of one table of a ConfigDoc. read() leaves the target at its default when the key
/// is absent, and throws ConfigError when the value has the wrong type or range.
class ConfigSection {
public:
    ConfigSection(ConfigDoc& doc, std::string path);

    void read(const std::string& key, bool& value);
    void read(const std::string& key, int64_t& value);
    void read(const std::string& key, uint64_t& value);
    void read(const std::string& key, uint32_t& value);
    void read(const std::string& key, double& value);
    void read(const std::string& key, std::string& value);
    /// A string that must be one of `choices`.
    void read_choice(const std::string& key, std::string& value,
                     const std::vector<std::string>& choices);
    /// Throws ConfigError naming `key` of this section with `message` (for validate()).
    [[noreturn]] void fail(const std::string& key, const std::string& message) const;
    const std::string& path() const { return m_path; }
    /// The section below this one at `key` ("gpu.sm" + "alu").
    ConfigSection subsection(const std::string& key) const { return ConfigSection(m_doc, full(key)); }
    /// The section at the absolute dotted `path` of the same document.
    ConfigSection at(const std::string& path) const { return ConfigSection(m_doc, path); }
    /// The document gives a value (not a table) at `key` of this section.
    bool has(const std::string& key) const;
    /// The document has a table at `key` of this section.
    bool has_table(const std::string& key) const;
    /// "section.key".
    std::string full(const std::string& key) const;

private:
    const toml::node* lookup(const std::string& key);
    template <typename T> void record(const std::string& key, const T& value);
    // A plain key (no '.', no '[') is looked up and recorded in this section's two tables,
    // found once per section object: a sweep reads ~300 keys per point, 10^5 points.
    static bool plain(const std::string& key);
    const toml::table* input_table();
    toml::table& effective_table();

    ConfigDoc& m_doc;
    std::string m_path;
    bool m_input_found = false;
    const toml::table* m_input = nullptr;
    toml::table* m_effective = nullptr;
};

}  // namespace stacksim::sim

namespace stacksim::sim {

/// Calls `cfg.validate()` and re-throws its ConfigError ("key: message") as
/// "FILE:LINE: section.key: message".
template <typename Cfg> void validate_in(ConfigSection& section, const Cfg& cfg) {
    try {
        cfg.validate();
    } catch (const ConfigError& e) {
        std::string m = e.what();
        auto colon = m.find(": ");
        if (colon == std::string::npos) section.fail("", m);
        section.fail(m.substr(0, colon), m.substr(colon + 2));
    }
}

}  // namespace stacksim::sim
