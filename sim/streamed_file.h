// SPDX-License-Identifier: Apache-2.0
// An output file written as it goes (FILE.part) and renamed into place when complete.
#pragma once
#include <fstream>
#include <string>

namespace stacksim::sim {

/// A file too large to hold in memory (a timeline, a waveform): written to `path`.part as the
/// run goes and renamed to `path` by commit(), so readers never see half a file; removed if the
/// run stops before commit(). The folders above `path` are created.
class StreamedFile {
public:
    /// `what` names the file in errors ("--timeline out/t.json"). Throws InputError.
    StreamedFile(std::string path, std::string what);
    ~StreamedFile();
    StreamedFile(const StreamedFile&) = delete;
    StreamedFile& operator=(const StreamedFile&) = delete;

    std::ofstream& out() { return m_out; }
    /// Closes the file and renames it into place; throws InputError when writing failed.
    void commit();

private:
    std::string m_path, m_what;
    std::ofstream m_out;
    bool m_done = false;
};

}  // namespace stacksim::sim
