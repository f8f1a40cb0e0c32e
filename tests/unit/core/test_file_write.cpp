// Atomic writes and output-path checks: a failed write never replaces a good file, and an output that
// would overwrite an input is refused before anything runs.
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "file_write.hpp"
#include "report.hpp"
#include "unit/cli/cli_runner.hpp"

using namespace ws;
namespace fs = std::filesystem;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

/// A fresh empty directory under the test temp dir.
std::string fresh_dir(const std::string& name) {
  const std::string d = ::testing::TempDir() + "ws_fw_" + name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::size_t entries(const std::string& dir) {
  return std::size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST(FileWrite, AFailedWriteLeavesTheOldFileWholeAndNoTemporary) {
  const std::string dir = fresh_dir("fail");
  const std::string path = dir + "/report.json";
  ASSERT_EQ(write_file_atomic(path, std::string("good report\n")), "");
  EXPECT_EQ(slurp(path), "good report\n");
  // The writer fails half way (as a full disk would): the old file stays, the temporary goes.
  const std::string err = write_file_atomic(path, [](std::FILE* f) {
    std::fputs("{\"trunc", f);
    return false;
  });
  EXPECT_NE(err.find("cannot write '" + path + "'"), std::string::npos) << err;
  EXPECT_NE(err.find("unchanged"), std::string::npos) << err;
  EXPECT_EQ(slurp(path), "good report\n");
  EXPECT_EQ(entries(dir), 1u);
  ASSERT_EQ(write_file_atomic(path, std::string("new\n")), "");
  EXPECT_EQ(slurp(path), "new\n");
  EXPECT_EQ(entries(dir), 1u);
}

TEST(FileWrite, AMissingDirectoryIsReportedWithTheSystemsReason) {
  EXPECT_NE(write_file_atomic("/nonexistent-dir/x.json", std::string("x")).find("No such file or directory"),
            std::string::npos);
}

TEST(FileWrite, AWriteThatHitsAFileSizeLimitKeepsTheOldFile) {
  // A quota or a full disk, made real: a child process limited to 1 KiB files writes 64 KiB.
  const std::string dir = fresh_dir("limit");
  const std::string path = dir + "/report.json";
  ASSERT_EQ(write_file_atomic(path, std::string("good report\n")), "");
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    std::signal(SIGXFSZ, SIG_IGN);  // the write fails with EFBIG instead of killing the process
    const rlimit lim{1024, 1024};
    setrlimit(RLIMIT_FSIZE, &lim);
    const std::string err = write_file_atomic(path, std::string(65536, 'x'));
    _exit(err.find("File too large") != std::string::npos ? 0 : 1);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the limited write did not fail with EFBIG";
  EXPECT_EQ(slurp(path), "good report\n");
  EXPECT_EQ(entries(dir), 1u);
}

TEST(FileWrite, ASymlinkIsNeverFollowedItsTargetKept) {
  const std::string dir = fresh_dir("link");
  ASSERT_EQ(write_file_atomic(dir + "/real.json", std::string("a")), "");
  fs::create_symlink(dir + "/real.json", dir + "/link.json");
  const std::string err = write_file_atomic(dir + "/link.json", std::string("b"));
  EXPECT_NE(err.find("symbolic link, which is not followed"), std::string::npos) << err;
  EXPECT_TRUE(fs::is_symlink(dir + "/link.json"));
  EXPECT_EQ(slurp(dir + "/real.json"), "a");
  // Asked to (the CLI's --force), the link itself is replaced by the file; its target stays.
  OutputPolicy replace;
  replace.replace_symlink = true;
  ASSERT_EQ(write_file_atomic(dir + "/link.json", std::string("b"), replace), "");
  EXPECT_FALSE(fs::is_symlink(dir + "/link.json"));
  EXPECT_EQ(slurp(dir + "/link.json"), "b");
  EXPECT_EQ(slurp(dir + "/real.json"), "a");
  // A dangling link (to a file an attacker wants created) is refused the same way.
  fs::create_symlink(dir + "/nowhere.json", dir + "/dangling.json");
  EXPECT_NE(write_file_atomic(dir + "/dangling.json", std::string("c")).find("symbolic link"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir + "/nowhere.json"));
  EXPECT_EQ(entries(dir), 3u);
}

TEST(FileWrite, WithoutOverwriteAnExistingFileIsKept) {
  const std::string dir = fresh_dir("keep");
  OutputPolicy keep;
  keep.overwrite = false;
  ASSERT_EQ(write_file_atomic(dir + "/r.json", std::string("first"), keep), "");
  const std::string err = write_file_atomic(dir + "/r.json", std::string("second"), keep);
  EXPECT_NE(err.find("exists and is kept"), std::string::npos) << err;
  EXPECT_EQ(slurp(dir + "/r.json"), "first");
  EXPECT_EQ(entries(dir), 1u);
  EXPECT_NE(check_output_path(dir + "/r.json", {}, "--out", keep).find("exists: it is kept (give --force"),
            std::string::npos);
  EXPECT_EQ(check_output_path(dir + "/r.json", {}, "--out"), "");
}

TEST(FileWrite, ASignalDuringAWriteLeavesNoTemporary) {
  for (int sig : {SIGINT, SIGTERM}) {
    const std::string dir = fresh_dir("signal" + std::to_string(sig));
    const std::string path = dir + "/report.json";
    ASSERT_EQ(write_file_atomic(path, std::string("good report\n")), "");
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      write_file_atomic(path, [sig](std::FILE* f) {
        std::fputs("{\"half", f);
        std::fflush(f);
        ::raise(sig);  // as a Ctrl-C or a kill in the middle of the write
        return true;
      });
      _exit(0);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << "the signal did not end the writer: " << status;
    EXPECT_EQ(slurp(path), "good report\n");
    EXPECT_EQ(entries(dir), 1u) << "a temporary file was left behind";
  }
}

TEST(FileWrite, TemporariesOfDeadProcessesAreRemovedByTheNextWrite) {
  const std::string dir = fresh_dir("stale");
  const pid_t dead = fork();
  ASSERT_GE(dead, 0);
  if (dead == 0) _exit(0);
  waitpid(dead, nullptr, 0);  // its pid now names no process (a SIGKILLed writer)
  const std::string stale = dir + "/.r.json." + std::to_string(dead) + ".0.tmp";
  const std::string alive = dir + "/.r.json." + std::to_string(getppid()) + ".0.tmp";  // a live writer's
  const std::string other = dir + "/.other.json." + std::to_string(dead) + ".0.tmp";   // another file's
  for (const auto& p : {stale, alive, other}) std::ofstream(p) << "half";
  ASSERT_EQ(write_file_atomic(dir + "/r.json", std::string("x")), "");
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(alive));
  EXPECT_TRUE(fs::exists(other));
  EXPECT_EQ(slurp(dir + "/r.json"), "x");
}

TEST(FileWrite, SaveReportGoesThroughTheAtomicWrite) {
  const std::string dir = fresh_dir("report");
  Report r = new_report("t", DeviceInfo{});
  save_report(r, dir + "/r.json");
  EXPECT_EQ(load_report(dir + "/r.json").title, "t");
  EXPECT_EQ(entries(dir), 1u);
  EXPECT_THROW(save_report(r, dir + "/missing/r.json"), std::runtime_error);
}

TEST(FileWrite, OutputPathsAreCheckedAgainstDirectoriesAndInputs) {
  const std::string dir = fresh_dir("check");
  const std::string in = dir + "/numbers.txt";
  std::ofstream(in) << "1 2 3\n";
  EXPECT_EQ(check_output_path(dir + "/out.json", {in}, "--out"), "");
  EXPECT_NE(check_output_path(dir, {}, "--out").find("is a directory"), std::string::npos);
  EXPECT_NE(check_output_path(dir + "/no/out.json", {}, "--out").find("does not exist"), std::string::npos);
  EXPECT_NE(check_output_path(in, {in}, "--out").find("is the input file"), std::string::npos);
  fs::create_symlink(in, dir + "/alias.txt");  // the same file by another name
  EXPECT_NE(check_output_path(dir + "/alias.txt", {in}, "--out").find("is the input file"), std::string::npos);
  EXPECT_NE(check_output_path("/dev/null", {}, "--out").find("not a regular file"), std::string::npos);
}

TEST(FileWrite, TheCliRefusesAnOutputThatIsItsInputBeforeRunning) {
  const std::string dir = fresh_dir("cli");
  const std::string in = dir + "/numbers.txt";
  std::ofstream(in) << "1 2 3 4\n";
  for (const std::string& args :
       {"report --variants epita.reduce3 --backend sim --input " + in + " --out " + in,
        "run --variant stevens.kogge_stone --backend sim --input " + in + " --output " + in,
        "sweep --variants epita.reduce3 --from 10 --to 10 --backend sim --input " + in + " --report " + in}) {
    const test::CliOut o = test::run_cli(args);
    EXPECT_EQ(o.code, 2) << args << "\n" << o.out;
    EXPECT_NE(o.out.find("is the input file"), std::string::npos) << o.out;
    EXPECT_EQ(test::count_lines(o.out), 1) << o.out;
    EXPECT_EQ(slurp(in), "1 2 3 4\n");
  }
  const test::CliOut o = test::run_cli("report --variants epita.reduce3 --backend sim --out " + dir + "/nodir/r.json");
  EXPECT_EQ(o.code, 2) << o.out;
  EXPECT_NE(o.out.find("does not exist"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("epita.reduce3"), std::string::npos) << "ran before the check: " << o.out;
}

TEST(FileWrite, AnUnusedPathNumbersANewNameBesideWhatExists) {
  const std::string d = fresh_dir("unused");
  EXPECT_EQ(unused_path(d + "/a.png"), d + "/a.png");  // nothing there: the name itself
  std::ofstream(d + "/a.png") << "old";
  EXPECT_EQ(unused_path(d + "/a.png"), d + "/a-2.png");
  std::ofstream(d + "/a-2.png") << "old";
  fs::create_symlink(d + "/nowhere", d + "/a-3.png");  // a dangling link is something there too
  EXPECT_EQ(unused_path(d + "/a.png"), d + "/a-4.png");
  fs::create_directories(d + "/steps");  // folders (the step export's) take a number the same way
  EXPECT_EQ(unused_path(d + "/steps"), d + "/steps-2");
  EXPECT_EQ(slurp(d + "/a.png"), "old");
  // --force's policy replaces a file or a link itself; without it nothing.
  EXPECT_TRUE(output_policy(true).overwrite && output_policy(true).replace_symlink);
  EXPECT_FALSE(output_policy(false).overwrite || output_policy(false).replace_symlink);
  fs::remove_all(d);
}
