// SPDX-License-Identifier: Apache-2.0
// An output file written as it goes (a new FILE.XXXXXX.part) and renamed into place when complete.
#pragma once
#include <memory>
#include <ostream>
#include <string>

#include "sim/output_path.h"

namespace stacksim::sim {

/// A file too large to hold in memory (a timeline, a waveform). A regular or missing `path` is
/// written to a new `path`.XXXXXX.part (created with O_EXCL|O_NOFOLLOW: a planted file or link
/// is never opened) as the run goes and renamed to `path` by commit(), so readers never see half
/// a file; the temporary is removed if the run stops before commit(). A FIFO, a character device
/// (/dev/null) or /dev/stdout is written directly and never replaced; a folder, another link or
/// a block device is refused (sim/output_path.h). The folders above `path` are created.
class StreamedFile {
public:
    /// `what` names the file in errors ("--timeline out/t.json"). Throws InputError.
    StreamedFile(std::string path, std::string what);
    ~StreamedFile();
    StreamedFile(const StreamedFile&) = delete;
    StreamedFile& operator=(const StreamedFile&) = delete;

    std::ostream& out() { return *m_out; }
    /// Flushes and closes the file and renames it into place; throws InputError when writing failed.
    void commit();
    OutputKind kind() const { return m_kind; }

private:
    class Buffer;
    std::string m_path, m_what, m_tmp;
    OutputKind m_kind;
    std::unique_ptr<Buffer> m_buf;
    std::unique_ptr<std::ostream> m_out;
    bool m_done = false;
};

}  // namespace stacksim::sim
