// SPDX-License-Identifier: Apache-2.0
// Outputs the user names: devices and FIFOs written in place, planted links never followed.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "sim/atomic_file.h"
#include "sim/error.h"
#include "sim/streamed_file.h"

using namespace stacksim;
namespace fs = std::filesystem;

namespace {

std::string scratch() {
    char tmpl[] = "/tmp/stacksim-outputs-XXXXXX";
    REQUIRE(::mkdtemp(tmpl) != nullptr);
    return tmpl;
}

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

void spit(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

/// A child that copies the FIFO `fifo` into `copy`; returns its pid.
pid_t fifo_reader(const std::string& fifo, const std::string& copy) {
    const pid_t pid = fork();
    if (pid == 0) {
        {
            std::ifstream in(fifo, std::ios::binary);
            std::ofstream out(copy, std::ios::binary);
            out << in.rdbuf();
        }
        _exit(0);
    }
    return pid;
}

size_t entries(const std::string& dir) {
    return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("outputs: a FIFO named as an output is written in place, not replaced by a file", "[outputs]") {
    const std::string dir = scratch(), fifo = dir + "/fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const pid_t reader = fifo_reader(fifo, dir + "/copy");
    {
        sim::StreamedFile f(fifo, "--timeline " + fifo);
        CHECK(f.kind() == sim::OutputKind::Stream);
        f.out() << "streamed\n";
        f.commit();
    }
    int status = 0;
    REQUIRE(waitpid(reader, &status, 0) == reader);
    struct stat st {};
    REQUIRE(::lstat(fifo.c_str(), &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));
    CHECK(slurp(dir + "/copy") == "streamed\n");
    CHECK(entries(dir) == 2);  // no temporary left beside it

    const pid_t reader2 = fifo_reader(fifo, dir + "/copy2");
    sim::write_file_atomically(fifo, "whole\n");
    REQUIRE(waitpid(reader2, &status, 0) == reader2);
    REQUIRE(::lstat(fifo.c_str(), &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));
    CHECK(slurp(dir + "/copy2") == "whole\n");
}

TEST_CASE("outputs: a character device named as an output stays a device (root)", "[outputs][root]") {
    if (::geteuid() != 0) {
        std::cout << "skipped: mknod of a character device needs root (CI runs as root)\n";
        return;
    }
    const std::string dir = scratch(), null = dir + "/null";
    // A private copy of /dev/null (1,3): the machine's own /dev/null is never put at risk.
    REQUIRE(::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
    {
        sim::StreamedFile f(null, "--vcd " + null);
        f.out() << std::string(100000, 'x');
        f.commit();
    }
    sim::write_file_atomically(null, "x");
    struct stat st {};
    REQUIRE(::lstat(null.c_str(), &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
    CHECK(major(st.st_rdev) == 1);
    CHECK(minor(st.st_rdev) == 3);
    CHECK(entries(dir) == 1);

    // /dev/full (1,7): the write error is reported naming the option, and the device stays.
    const std::string full = dir + "/full";
    REQUIRE(::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0);
    sim::StreamedFile f(full, "--samples " + full);
    f.out() << std::string(100000, 'x');
    CHECK_THROWS_WITH(f.commit(), Catch::StartsWith("--samples " + full + ": write failed"));
    REQUIRE(::lstat(full.c_str(), &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
}

TEST_CASE("outputs: a planted FILE.part link is never followed and the output replaces only its own name", "[outputs]") {
    const std::string dir = scratch(), out = dir + "/t.json", victim = dir + "/victim";
    spit(victim, "precious");
    REQUIRE(::symlink(victim.c_str(), (out + ".part").c_str()) == 0);
    {
        sim::StreamedFile f(out, "--timeline " + out);
        f.out() << "{}\n";
        f.commit();
    }
    CHECK(slurp(victim) == "precious");
    CHECK(slurp(out) == "{}\n");
    CHECK(fs::is_symlink(out + ".part"));  // left as it was
    CHECK(entries(dir) == 3);              // t.json, victim, the planted link: no temporary left
}

TEST_CASE("outputs: a link, a folder or a block device named as an output is refused before writing", "[outputs]") {
    const std::string dir = scratch(), victim = dir + "/victim", link = dir + "/link";
    spit(victim, "precious");
    REQUIRE(::symlink(victim.c_str(), link.c_str()) == 0);
    CHECK_THROWS_AS(sim::StreamedFile(link, "--vcd " + link), sim::InputError);
    CHECK_THROWS_WITH(sim::StreamedFile(link, "--vcd " + link), Catch::Contains("is a symbolic link"));
    CHECK_THROWS_WITH(sim::write_file_atomically(link, "x"), Catch::Contains("is a symbolic link"));
    CHECK(slurp(victim) == "precious");
    CHECK(fs::is_symlink(link));
    CHECK_THROWS_WITH(sim::StreamedFile(dir, "--samples " + dir), Catch::Contains("is a folder"));
    CHECK_THROWS_WITH(sim::StreamedFile("", "--samples"), Catch::Contains("empty"));
    if (::geteuid() == 0) {
        const std::string blk = dir + "/blk";
        REQUIRE(::mknod(blk.c_str(), S_IFBLK | 0600, makedev(7, 200)) == 0);
        CHECK_THROWS_WITH(sim::StreamedFile(blk, "--vcd " + blk), Catch::Contains("is a block device"));
    }
}

TEST_CASE("outputs: a stream abandoned before commit leaves no temporary and the old file whole", "[outputs]") {
    const std::string dir = scratch(), out = dir + "/s.csv";
    spit(out, "old");
    {
        sim::StreamedFile f(out, "--samples " + out);
        f.out() << "new";
        CHECK(entries(dir) == 2);
    }
    CHECK(slurp(out) == "old");
    CHECK(entries(dir) == 1);
}
