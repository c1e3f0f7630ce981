// SPDX-License-Identifier: Apache-2.0
// Results written whole: the staged results folder and atomic single files.
#include <catch2/catch.hpp>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/atomic_file.h"
#include "sim/error.h"
#include "sim/staged_directory.h"

using namespace stacksim;
namespace fs = std::filesystem;

namespace {

std::string scratch() {
    char tmpl[] = "/tmp/stacksim-results-XXXXXX";
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

size_t entries(const std::string& dir) {
    return static_cast<size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("results folder: files appear together, only at publish", "[results]") {
    const std::string root = scratch(), target = root + "/run";
    {
        sim::StagedDirectory out(target);
        out.write("stats.json", "{}\n");
        out.write("summary.json", "{\"a\": 1}\n");
        CHECK_FALSE(fs::exists(target));
        out.publish(false);
    }
    CHECK(slurp(target + "/stats.json") == "{}\n");
    CHECK(slurp(target + "/summary.json") == "{\"a\": 1}\n");
    CHECK(slurp(target + "/" + sim::kResultsMarker) == "run\n");
    CHECK(entries(root) == 1);  // no staging folder left
    const mode_t mask = ::umask(0);
    ::umask(mask);
    CHECK(static_cast<unsigned>(fs::status(target).permissions()) == (0777u & ~mask));  // not mkdtemp's 0700
}

TEST_CASE("results folder: a process killed before publishing leaves the old results whole", "[results]") {
    const std::string root = scratch(), target = root + "/run";
    fs::create_directories(target);
    spit(target + "/stats.json", "old stats");
    spit(target + "/summary.json", "old summary");
    const pid_t pid = fork();
    if (pid == 0) {
        sim::StagedDirectory out(target);
        out.write("stats.json", "new stats");
        _exit(0);  // as a SIGKILL would: no destructor, no publish
    }
    int status = 0;
    REQUIRE(waitpid(pid, &status, 0) == pid);
    CHECK(slurp(target + "/stats.json") == "old stats");
    CHECK(slurp(target + "/summary.json") == "old summary");
    CHECK(entries(target) == 2);  // nothing of the new run mixed in
}

TEST_CASE("results folder: a non-empty folder is refused unless replaced, and replaced whole", "[results]") {
    const std::string root = scratch(), target = root + "/run";
    fs::create_directories(target);
    spit(target + "/stats.json", "old stats");
    spit(target + "/extra.txt", "old extra");
    spit(target + "/" + sim::kResultsMarker, "run\n");  // an earlier run's results
    CHECK_FALSE(sim::results_folder_free(target));
    {
        sim::StagedDirectory out(target);
        out.write("stats.json", "new stats");
        CHECK_THROWS_AS(out.publish(false), sim::InputError);
    }
    CHECK(slurp(target + "/stats.json") == "old stats");
    CHECK(entries(root) == 1);  // the refused staging folder was removed
    {
        sim::StagedDirectory out(target);
        out.write("stats.json", "new stats");
        out.publish(true);
    }
    CHECK(slurp(target + "/stats.json") == "new stats");
    CHECK_FALSE(fs::exists(target + "/extra.txt"));
    CHECK(entries(root) == 1);
    // An empty folder (made by the user beforehand) is free and simply filled.
    fs::create_directories(root + "/empty");
    CHECK(sim::results_folder_free(root + "/empty"));
    CHECK(sim::results_folder_free(root + "/absent"));
    spit(root + "/file", "x");
    CHECK_THROWS_AS(sim::results_folder_free(root + "/file"), sim::InputError);
}

TEST_CASE("results folder: --force replaces only a folder with the marker of the same kind", "[results]") {
    const std::string root = scratch(), target = root + "/run";
    {
        sim::StagedDirectory out(target);
        out.write("stats.json", "first");
        out.publish(false);
    }
    CHECK(sim::results_folder_kind(target) == "run");
    CHECK_NOTHROW(sim::check_results_target(target, true, "run"));
    CHECK_THROWS_AS(sim::check_results_target(target, false, "run"), sim::InputError);
    CHECK_THROWS_AS(sim::check_results_target(target, true, "noc"), sim::InputError);
    // A source tree (no marker) is never replaced, even when asked to.
    fs::create_directories(root + "/src");
    spit(root + "/src/main.c", "int main;");
    CHECK_THROWS_AS(sim::check_results_target(root + "/src", true, "run"), sim::InputError);
    {
        sim::StagedDirectory out(root + "/src");
        out.write("stats.json", "new");
        CHECK_THROWS_AS(out.publish(true), sim::InputError);
    }
    CHECK(slurp(root + "/src/main.c") == "int main;");
    // A marker that is a link is not a marker.
    fs::create_directories(root + "/linked");
    spit(root + "/linked/data", "x");
    spit(root + "/marker", "run\n");
    fs::create_symlink(root + "/marker", root + "/linked/" + sim::kResultsMarker);
    CHECK(sim::results_folder_kind(root + "/linked") == "");
    // Names refused before any work: empty, ".", "..", links.
    for (const std::string& bad : {std::string(""), root + "/.", target + "/..", root + "/x/."}) {
        INFO(bad);
        CHECK_THROWS_AS(sim::check_results_target(bad, true, "run"), sim::InputError);
    }
    fs::create_directory_symlink(target, root + "/link");
    CHECK_THROWS_AS(sim::check_results_target(root + "/link", true, "run"), sim::InputError);
    CHECK_NOTHROW(sim::check_results_target(root + "/absent", false, "run"));
    fs::create_directories(root + "/empty");
    CHECK_NOTHROW(sim::check_results_target(root + "/empty", false, "run"));
    sim::mark_results_folder(root + "/empty", "sweep");
    CHECK(sim::results_folder_kind(root + "/empty") == "sweep");
    CHECK_THROWS_AS(sim::mark_results_folder(root + "/empty", "sweep"), sim::InputError);  // exclusive
}

TEST_CASE("atomic file: a symlink planted at the old temporary name is not followed", "[results]") {
    // Before, the temporary was PATH.tmp.<pid>, opened without O_EXCL: a link planted there made
    // the write land in the link's target.
    const std::string root = scratch(), victim = root + "/victim", out = root + "/out.json";
    spit(victim, "precious");
    fs::create_symlink(victim, out + ".tmp." + std::to_string(::getpid()));
    fs::create_symlink(victim, root + "/linked.json");
    sim::write_file_atomically(out, "result\n");
    // A link named as the output itself is refused (sim/output_path.h): neither followed nor replaced.
    CHECK_THROWS_AS(sim::write_file_atomically(root + "/linked.json", "result\n"), sim::InputError);
    CHECK(slurp(victim) == "precious");
    CHECK(slurp(out) == "result\n");
    CHECK(fs::is_symlink(fs::symlink_status(root + "/linked.json")));
    CHECK(entries(root) == 4);  // victim, the planted link, out.json, linked.json: no temporary left
}
