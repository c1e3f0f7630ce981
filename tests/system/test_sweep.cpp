// SPDX-License-Identifier: Apache-2.0
// System tests of `stacksim sweep`: kill and resume, failures, bad files, status and the merged table.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <set>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "tests/system/cli_runner.h"

using namespace stacksim::test;
namespace fs = std::filesystem;

namespace {

/// The README's sweep (examples/sweeps/schedulers.toml): 12 points of 0.05-0.3 s each on the small preset.
std::string twelve() { return read_file(std::string(STACKSIM_SOURCE_DIR) + "/examples/sweeps/schedulers.toml"); }

/// Point folders holding summary.json and stats.json.
std::set<std::string> complete_points(const std::string& out) {
    std::set<std::string> done;
    std::error_code ec;
    for (auto& d : fs::directory_iterator(out + "/points", ec))
        if (fs::exists(d.path() / "summary.json") && fs::exists(d.path() / "stats.json"))
            done.insert(d.path().filename().string());
    return done;
}

/// Hashes of the points a sweep's output says it finished ("sweep: [ 3/12] done   HASH ...").
std::set<std::string> finished_in(const std::string& output) {
    std::set<std::string> out;
    std::istringstream in(output);
    std::string line;
    while (std::getline(in, line)) {
        auto at = line.find("] done ");
        if (line.rfind("sweep: [", 0) == 0 && at != std::string::npos) {
            std::istringstream words(line.substr(at + 7));
            std::string hash;
            words >> hash;
            out.insert(hash);
        }
    }
    return out;
}

/// Processes whose command line mentions `text` (a killed sweep must leave no point running).
int processes_mentioning(const std::string& text) {
    int n = 0;
    for (auto& p : fs::directory_iterator("/proc")) {
        std::string cmd = read_file(p.path().string() + "/cmdline");
        for (char& c : cmd)
            if (c == '\0') c = ' ';
        if (cmd.find(text) != std::string::npos && p.path().filename() != std::to_string(::getpid())) ++n;
    }
    return n;
}

/// summary.json without its host-time fields.
nlohmann::json summary_without_host_time(const std::string& path) {
    auto j = nlohmann::json::parse(read_file(path));
    for (const char* k : {"host_seconds", "warp_instructions_per_second", "cycles_per_second"}) j.erase(k);
    return j;
}

/// results.csv without its host_seconds column.
std::string table_without_host_time(const std::string& path) {
    std::istringstream in(read_file(path));
    std::string line, out;
    size_t column = std::string::npos;
    while (std::getline(in, line)) {
        std::vector<std::string> cells;
        std::stringstream ss(line);
        std::string c;
        while (std::getline(ss, c, ',')) cells.push_back(c);
        if (column == std::string::npos)
            for (size_t i = 0; i < cells.size(); ++i)
                if (cells[i] == "host_seconds") column = i;
        for (size_t i = 0; i < cells.size(); ++i)
            if (i != column) out += cells[i] + ",";
        out += "\n";
    }
    return out;
}

}  // namespace

TEST_CASE("sweep: a 12-point sweep killed with SIGKILL midway resumes to the results of a straight run",
          "[sweep][system]") {
    const std::string dir = temp_dir();
    write_file(dir + "/twelve.toml", twelve());
    CliResult straight = run_cli("sweep " + dir + "/twelve.toml --out " + dir + "/straight --jobs 2");
    INFO(straight.output);
    REQUIRE(straight.exit_code == 0);
    REQUIRE(complete_points(dir + "/straight").size() == 12);

    const std::string out = dir + "/killed";
    const pid_t pid = ::fork();
    if (pid == 0) {
        const int log = ::open((dir + "/killed.log").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        ::dup2(log, 1);
        ::dup2(log, 2);
        ::execl(STACKSIM_BINARY, STACKSIM_BINARY, "sweep", (dir + "/twelve.toml").c_str(), "--out", out.c_str(),
                "--jobs", "2", static_cast<char*>(nullptr));
        ::_exit(127);
    }
    REQUIRE(pid > 0);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (complete_points(out).size() < 3 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0);
    REQUIRE(WIFSIGNALED(status));
    const std::set<std::string> before = complete_points(out);
    INFO("points complete when killed: " << before.size());
    REQUIRE(before.size() >= 3);
    REQUIRE(before.size() < 12);  // midway: the kill came before the end
    // The points that were running died with the sweep (PR_SET_PDEATHSIG).
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    CHECK(processes_mentioning(out + "/tmp/") == 0);

    CliResult resumed = run_cli("sweep " + dir + "/twelve.toml --out " + out + " --jobs 2");
    INFO(resumed.output);
    REQUIRE(resumed.exit_code == 0);
    CHECK(resumed.output.find(std::to_string(before.size()) + " done, 0 failed, " +
                              std::to_string(12 - before.size()) + " to run") != std::string::npos);
    // No point ran twice to completion: the resumed sweep ran exactly the others.
    const std::set<std::string> ran = finished_in(resumed.output);
    CHECK(ran.size() == 12 - before.size());
    for (const auto& h : ran) CHECK(before.count(h) == 0);

    // Every point present once, nothing left over, and bit-identical to the straight run.
    std::set<std::string> folders;
    for (auto& d : fs::directory_iterator(out + "/points")) folders.insert(d.path().filename().string());
    CHECK(folders == complete_points(dir + "/straight"));
    CHECK(fs::is_empty(out + "/tmp"));
    for (const auto& h : folders) {
        INFO("point " << h);
        for (const char* f : {"stats.json", "stats.csv", "config.toml"})
            CHECK(read_file(out + "/points/" + h + "/" + f) == read_file(dir + "/straight/points/" + h + "/" + f));
        CHECK(summary_without_host_time(out + "/points/" + h + "/summary.json") ==
              summary_without_host_time(dir + "/straight/points/" + h + "/summary.json"));
    }
    CHECK(table_without_host_time(out + "/results.csv") == table_without_host_time(dir + "/straight/results.csv"));

    // Run again: nothing to do.
    CliResult again = run_cli("sweep " + dir + "/twelve.toml --out " + out);
    CHECK(again.exit_code == 0);
    CHECK(again.output.find("12 done, 0 failed, 0 to run") != std::string::npos);
}

TEST_CASE("sweep: results.csv has one row per point with its values, key stats, status and host time",
          "[sweep][system]") {
    const std::string dir = temp_dir();
    write_file(dir + "/s.toml", twelve());
    REQUIRE(run_cli("sweep " + dir + "/s.toml --jobs 2").exit_code == 0);
    std::istringstream table(read_file(dir + "/s/results.csv"));
    std::string header, row;
    std::getline(table, header);
    CHECK(header == "point,hash,status,config,workload,size,seed,gpu.sm.warp_scheduler,cycles,kernel_cycles,"
                    "warp_instructions,ipc,simulated_seconds,verified,host_seconds,gpu.sm0.warp_instructions,"
                    "gpu.mem.memory.bytes,error");
    int rows = 0;
    while (std::getline(table, row)) {
        ++rows;
        if (rows == 1) CHECK(row.rfind("0,", 0) == 0);
        CHECK(row.find(",done,small,") != std::string::npos);
        CHECK(row.find(",true,") != std::string::npos);
    }
    CHECK(rows == 12);
    // The per-point stats.json beside it is the one `stacksim run` wrote.
    auto plan = nlohmann::json::parse(read_file(dir + "/s/plan.json"));
    const std::string hash = plan["points"][5]["hash"];
    auto stats = nlohmann::json::parse(read_file(dir + "/s/points/" + hash + "/stats.json"));
    CHECK(stats.contains("gpu.sm0.warp_instructions"));
    auto point = nlohmann::json::parse(read_file(dir + "/s/points/" + hash + "/point.json"));
    CHECK(point["status"] == "done");
    CHECK(point["label"] == "workload=bfs:2000 gpu.sm.warp_scheduler=lrr seed=2");
}

TEST_CASE("sweep: points of several applications each run as stacksim run --app, with STP and ANTT in results.csv",
          "[sweep][system]") {
    const std::string dir = temp_dir();
    write_file(dir + "/m.toml", "[base]\nconfig = \"small\"\n\"run.alone_runs\" = true\n"
                                "[grid]\napps = [[\"matmul:64\", \"bfs:2000@5us\"], [\"matmul:64\", \"vecadd:65536^1\"]]\n");
    CliResult r = run_cli("sweep " + dir + "/m.toml --jobs 2");
    INFO(r.output);
    REQUIRE(r.exit_code == 0);
    std::istringstream table(read_file(dir + "/m/results.csv"));
    std::string header, row;
    std::getline(table, header);
    CHECK(header.find(",seed,apps,cycles,") != std::string::npos);
    CHECK(header.find(",simulated_seconds,stp,antt,verified,") != std::string::npos);
    auto plan = nlohmann::json::parse(read_file(dir + "/m/plan.json"));
    for (int i = 0; i < 2; ++i) {
        REQUIRE(std::getline(table, row));
        CHECK(row.find(i ? ",matmul:64+vecadd:65536^1," : ",matmul:64+bfs:2000@5us,") != std::string::npos);
        CHECK(row.find(",true,") != std::string::npos);
        CHECK(row.find(",,true,") == std::string::npos);  // STP and ANTT are filled in
        // The point's results are those of the same stacksim run by hand.
        const std::string hash = plan["points"][i]["hash"];
        const std::string by_hand = dir + "/hand" + std::to_string(i);
        REQUIRE(run_cli("run small --set run.alone_runs=true --app matmul:64 --app " +
                        std::string(i ? "vecadd:65536^1" : "bfs:2000@5us") + " --quiet --out " + by_hand)
                    .exit_code == 0);
        CHECK(read_file(by_hand + "/stats.json") == read_file(dir + "/m/points/" + hash + "/stats.json"));
        auto summary = nlohmann::json::parse(read_file(dir + "/m/points/" + hash + "/summary.json"));
        CHECK(summary["applications"].size() == 2);
    }
}

TEST_CASE("sweep: a failing point is recorded with its error, the others run, --retry-failed reruns it",
          "[sweep][system]") {
    const std::string dir = temp_dir();
    fs::create_directories(dir + "/ptx");
    std::string ptx = read_file(std::string(STACKSIM_SOURCE_DIR) + "/workloads/kernels/vecadd.ptx");
    const std::string good = ptx;
    auto pos = ptx.find("add.f32");
    REQUIRE(pos != std::string::npos);
    ptx.replace(pos, 7, "sub.f32");
    write_file(dir + "/ptx/vecadd.ptx", ptx);
    write_file(dir + "/f.toml",
               "[base]\nconfig = \"small\"\nworkload = \"vecadd:1024\"\n[grid]\nseed = [1, 2]\n"
               "[[point]]\nptx_dir = \"ptx\"\n");
    CliResult r = run_cli("sweep " + dir + "/f.toml --jobs 2");
    INFO(r.output);
    CHECK(r.exit_code == 3);
    CHECK(r.output.find("FAILED") != std::string::npos);
    CliResult st = run_cli("sweep " + dir + "/f --status");
    INFO(st.output);
    CHECK(st.output.find("3 points: 2 done, 1 failed, 0 pending") != std::string::npos);
    CHECK(st.output.find("ptx_dir=ptx: exit 4 (output verification failed)") != std::string::npos);
    CHECK(read_file(dir + "/f/results.csv").find(",failed,") != std::string::npos);

    CliResult kept = run_cli("sweep " + dir + "/f.toml");
    CHECK(kept.output.find("2 done, 1 failed (kept; --retry-failed reruns them), 0 to run") != std::string::npos);
    write_file(dir + "/ptx/vecadd.ptx", good);
    CliResult retried = run_cli("sweep " + dir + "/f.toml --retry-failed");
    INFO(retried.output);
    CHECK(retried.exit_code == 0);
    CHECK(run_cli("sweep " + dir + "/f --status").output.find("3 done, 0 failed") != std::string::npos);
}

TEST_CASE("sweep: bad sweep files exit 2 before any point runs, naming file, line and key", "[sweep][errors]") {
    const std::string dir = temp_dir();
    struct Case {
        const char* text;
        const char* expected;
    };
    const Case cases[] = {
        {"[base]\nconfig = \"small\"\n[grid]\ngpu.sm.warp_schedulr = [\"lrr\", \"gto\"]\n",
         "bad.toml:4: unknown key 'gpu.sm.warp_schedulr'"},
        {"[base]\nconfig = \"small\"\n[grid]\nseed = [1, 2]\nworkload = []\n",
         "bad.toml:5: grid.workload: empty axis"},
        {"[base]\nconfig = \"small\"\n[grid]\nseed = [1, 2]\ngpu.num_sms = [4, -1]\n",
         "bad.toml:5: gpu.num_sms: must not be negative, got -1"},
        {"[base]\nconfig = \"small\"\n[grid]\n\"memory.dram.preset\" = [\"gddr5\", \"hbm9\"]\n",
         "bad.toml:4: memory.dram.preset: "},
    };
    for (const Case& c : cases) {
        write_file(dir + "/bad.toml", c.text);
        CliResult r = run_cli("sweep " + dir + "/bad.toml --jobs 2");
        INFO(c.text << "\n" << r.output);
        CHECK(r.exit_code == 2);
        CHECK(r.output.find(c.expected) != std::string::npos);
        CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);  // one line
        CHECK_FALSE(fs::exists(dir + "/bad"));                             // nothing ran, nothing written
    }
}

TEST_CASE("sweep: --dry-run lists the points and their commands without running any", "[sweep]") {
    const std::string dir = temp_dir();
    write_file(dir + "/d.toml", "[base]\nconfig = \"small\"\n[grid]\nseed = [1, 2]\n");
    CliResult r = run_cli("sweep " + dir + "/d.toml --dry-run");
    INFO(r.output);
    CHECK(r.exit_code == 0);
    CHECK(r.output.find("stacksim run small --set run.seed=2") != std::string::npos);
    CHECK(r.output.find("sweep: 2 points") != std::string::npos);
    CHECK_FALSE(fs::exists(dir + "/d"));
}

TEST_CASE("sweep: a point running past sweep.timeout is killed and recorded as failed", "[sweep][errors]") {
    const std::string dir = temp_dir();
    fs::create_directories(dir + "/spin");
    std::string ptx = read_file(std::string(STACKSIM_SOURCE_DIR) + "/workloads/kernels/vecadd.ptx");
    auto pos = ptx.find("ret;");
    REQUIRE(pos != std::string::npos);
    ptx.replace(pos, 4, "$L__spin:\n\tbra.uni $L__spin;");
    write_file(dir + "/spin/vecadd.ptx", ptx);
    write_file(dir + "/t.toml", "[sweep]\ntimeout = 1\n[base]\nconfig = \"small\"\nworkload = \"vecadd:256\"\n"
                                "[[point]]\nptx_dir = \"spin\"\n[[point]]\nseed = 2\n");
    const auto t0 = std::chrono::steady_clock::now();
    CliResult r = run_cli("sweep " + dir + "/t.toml --jobs 2");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    INFO(r.output);
    CHECK(r.exit_code == 3);
    CHECK(r.output.find("timed out after 1 s") != std::string::npos);
    CHECK(r.output.find("1 done, 1 failed, 0 pending") != std::string::npos);
    CHECK(seconds < 30);
    CHECK(processes_mentioning(dir + "/t/tmp/") == 0);
}
