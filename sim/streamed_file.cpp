// SPDX-License-Identifier: Apache-2.0
// An output file written as it goes (a new FILE.XXXXXX.part) and renamed into place when complete.
#include "sim/streamed_file.h"

#include <unistd.h>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <streambuf>
#include <vector>

#include "sim/error.h"

namespace stacksim::sim {

/// A write buffer over a file descriptor; a write error is kept (and the rest discarded) until
/// close() reports it, so the simulation is not interrupted mid-event.
class StreamedFile::Buffer : public std::streambuf {
public:
    Buffer(int fd, std::string what) : m_fd(fd), m_what(std::move(what)), m_data(1 << 16) {
        setp(m_data.data(), m_data.data() + m_data.size());
    }
    ~Buffer() override {
        if (m_fd >= 0) ::close(m_fd);
    }
    /// Writes what is buffered and closes; throws InputError if any write failed.
    void close() {
        drain();
        const int fd = m_fd;
        m_fd = -1;
        if (fd >= 0 && ::close(fd) != 0 && m_error.empty()) m_error = "closing the file failed";
        if (!m_error.empty()) throw InputError(fmt::format("{}: {}", m_what, m_error));
    }

protected:
    int_type overflow(int_type ch) override {
        drain();
        if (!traits_type::eq_int_type(ch, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(ch);
            pbump(1);
        }
        return traits_type::not_eof(ch);
    }
    int sync() override {
        drain();
        return 0;
    }

private:
    void drain() {
        const size_t n = static_cast<size_t>(pptr() - pbase());
        if (n > 0 && m_error.empty() && m_fd >= 0) {
            try {
                write_all(m_fd, pbase(), n, m_what);
            } catch (const InputError& e) {
                m_error = e.what() + m_what.size() + 2;
            }
        }
        setp(m_data.data(), m_data.data() + m_data.size());
    }
    int m_fd;
    std::string m_what, m_error;
    std::vector<char> m_data;
};

StreamedFile::StreamedFile(std::string path, std::string what)
    : m_path(std::move(path)), m_what(std::move(what)), m_kind(classify_output(m_path, m_what)) {
    int fd = -1;
    if (m_kind == OutputKind::Stream) {
        fd = open_stream_output(m_path, m_what);
    } else {
        const std::filesystem::path parent = std::filesystem::path(m_path).parent_path();
        std::error_code ec;
        if (!parent.empty()) std::filesystem::create_directories(parent, ec);
        fd = create_temp_beside(m_path, ".part", m_what, m_tmp);
    }
    m_buf = std::make_unique<Buffer>(fd, m_what);
    m_out = std::make_unique<std::ostream>(m_buf.get());
}

StreamedFile::~StreamedFile() {
    if (m_done) return;
    m_out.reset();
    m_buf.reset();
    if (!m_tmp.empty()) std::remove(m_tmp.c_str());
}

void StreamedFile::commit() {
    m_out->flush();
    try {
        m_buf->close();
    } catch (...) {
        if (!m_tmp.empty()) std::remove(m_tmp.c_str());
        m_done = true;
        throw;
    }
    if (m_kind == OutputKind::Replace) rename_into_place(m_tmp, m_path, m_what);
    m_done = true;
}

}  // namespace stacksim::sim
