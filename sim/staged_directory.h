// SPDX-License-Identifier: Apache-2.0
// A results folder written whole: files go into a private staging folder published by one rename.
#pragma once
#include <string>

namespace stacksim::sim {

/// Writes a set of files so that `target` holds either nothing (or what it held before) or
/// every file of the set. The files are written into a staging folder created exclusively
/// (mkdtemp: a fresh name, mode 0700) beside `target`, which publish() renames to `target` in
/// one step. A process killed before publish() leaves at most a hidden `.NAME.stacksim-XXXXXX`
/// folder beside `target`, never a mix of two runs in `target`.
///
/// Every results folder carries a marker file (kResultsMarker) naming its kind ("run", "noc",
/// "sweep"): only a folder with the marker of the same kind is ever replaced.
class StagedDirectory {
public:
    /// Creates the staging folder beside `target` (whose parent must exist) holding the marker
    /// of `kind`. Throws InputError naming `target` when the staging folder cannot be created.
    explicit StagedDirectory(std::string target, std::string kind = "run");
    /// Removes the staging folder and its files unless published.
    ~StagedDirectory();
    StagedDirectory(const StagedDirectory&) = delete;
    StagedDirectory& operator=(const StagedDirectory&) = delete;

    /// Writes `content` to the file `name` (no '/') of the staging folder.
    void write(const std::string& name, const std::string& content);
    /// Moves the staging folder to `target` in one rename. `target` may be absent or an empty
    /// folder; a non-empty `target` is replaced (swapped in one step, then deleted) only when
    /// `replace` is set and it carries the marker of the same kind, else publish() throws
    /// InputError and `target` is left as it was.
    void publish(bool replace);

    const std::string& target() const { return m_target; }
    /// Path of the staging folder (for tests).
    const std::string& staging() const { return m_staging; }

private:
    std::string m_target;
    std::string m_kind;
    std::string m_staging;
    bool m_published = false;
};

/// True when `path` does not exist or is an empty folder: a results folder a run may fill
/// without --force. Throws InputError when `path` exists but is not a folder.
bool results_folder_free(const std::string& path);

/// Name of the marker file of a results folder; it holds the folder's kind and a newline.
inline constexpr const char* kResultsMarker = ".stacksim-results";

/// The kind recorded by the marker in folder `path` ("run", "noc", "sweep"), or "" when `path`
/// is no folder or holds no readable marker (a marker that is a link is not followed).
std::string results_folder_kind(const std::string& path);

/// Creates the marker of `kind` in the existing folder `path` (exclusively, never through a link).
/// Throws InputError naming `option` and `path` when it cannot.
void mark_results_folder(const std::string& path, const std::string& kind, const std::string& option = "--out");

/// Checks, before any work, that a results folder of `kind` may be written at `path` (named by
/// `option`): the path is not empty, does not end in "." or "..", is not a symbolic link, and
/// is absent, an empty folder, or (when `replace`) a folder with the marker of `kind`. Throws
/// InputError with one line saying which rule failed.
void check_results_target(const std::string& path, bool replace, const std::string& kind,
                          const std::string& option = "--out");

}  // namespace stacksim::sim
