// The CLI facing bad options and bad files: one line that names the file, the place and the problem,
// and an exit code that says whether anything was done.
#include <gtest/gtest.h>

#include <fstream>

#include "cli_runner.hpp"

using ws::test::CliOut;
using ws::test::count_lines;
using ws::test::run_cli;

namespace {

void expect_refused(const std::string& args, int code, const std::string& needle) {
  const CliOut o = run_cli(args);
  EXPECT_EQ(o.code, code) << args << "\n" << o.out;
  EXPECT_EQ(count_lines(o.out), 1) << args << "\n" << o.out;
  EXPECT_NE(o.out.find(needle), std::string::npos) << args << "\n" << o.out;
}

}  // namespace

TEST(CliMessages, EachBadInputNamesItsOwnProblem) {
  expect_refused("sweep --variants cub.select --keep-fraction '' --backend sim", 2, "--keep-fraction is empty");
  expect_refused("run --variant epita.reduce3 --backend sim --input /tmp", 2, "input file '/tmp' is a directory");
  const std::string bad = ::testing::TempDir() + "ws_cli_bad.txt";
  std::ofstream(bad) << "1 2 3\n4 five\n";
  expect_refused("run --variant epita.reduce3 --backend sim --input " + bad, 2, bad + ":2: 'five' is not an integer");
}
