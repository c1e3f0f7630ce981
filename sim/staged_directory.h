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
class StagedDirectory {
public:
    /// Creates the staging folder beside `target` (whose parent must exist). Throws InputError
    /// naming `target` when the staging folder cannot be created.
    explicit StagedDirectory(std::string target);
    /// Removes the staging folder and its files unless published.
    ~StagedDirectory();
    StagedDirectory(const StagedDirectory&) = delete;
    StagedDirectory& operator=(const StagedDirectory&) = delete;

    /// Writes `content` to the file `name` (no '/') of the staging folder.
    void write(const std::string& name, const std::string& content);
    /// Moves the staging folder to `target` in one rename. `target` may be absent or an empty
    /// folder; a non-empty `target` is replaced (swapped in one step, then deleted) only when
    /// `replace` is set, else publish() throws InputError and `target` is left as it was.
    void publish(bool replace);

    const std::string& target() const { return m_target; }
    /// Path of the staging folder (for tests).
    const std::string& staging() const { return m_staging; }

private:
    std::string m_target;
    std::string m_staging;
    bool m_published = false;
};

/// True when `path` does not exist or is an empty folder: a results folder a run may fill
/// without --force. Throws InputError when `path` exists but is not a folder.
bool results_folder_free(const std::string& path);

}  // namespace stacksim::sim
