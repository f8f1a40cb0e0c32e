// The CLI facing bad options and bad files: one line that names the file, the place and the problem,
// and an exit code that says whether anything was done.
#include <gtest/gtest.h>

#include <fstream>

#include "unit/cli/cli_runner.hpp"

using ws::test::CliOut;
using ws::test::count_lines;
using ws::test::expect_one_line;
using ws::test::run_cli;

TEST(CliMessages, EachBadInputNamesItsOwnProblem) {
  expect_one_line("sweep --variants cub.select --keep-fraction '' --backend sim", 2, "--keep-fraction is empty");
  expect_one_line("run --variant epita.reduce3 --backend sim --input /tmp", 2, "input file '/tmp' is a directory");
  const std::string bad = ::testing::TempDir() + "ws_cli_bad.txt";
  std::ofstream(bad) << "1 2 3\n4 five\n";
  expect_one_line("run --variant epita.reduce3 --backend sim --input " + bad, 2, bad + ":2: 'five' is not an integer");
}

TEST(CliExitCodes, OptionsOfAnotherPatternAndBadSeedsAreRefused) {
  expect_one_line("run --variant epita.reduce3 --backend sim --mask-width 7", 2,
                  "--mask-width applies to convolutions only (epita.reduce3 is a reduction)");
  expect_one_line("trace --variant epita.reduce3 --tile 64", 2, "--tile applies to convolutions only");
  expect_one_line("run --variant stevens.kogge_stone --backend sim --keep 0.3", 2, "--keep applies to filters only");
  expect_one_line("report --variants epita --backend sim --mask gauss --out " + ::testing::TempDir() + "ws_x.json", 2,
                  "--mask applies to convolutions only (none of the variants chosen is one)");
  expect_one_line("run --variant epita.reduce3 --backend sim --seed -1", 2,
                  "-1 is negative (a seed is a whole number from 0 to 2^64 - 1)");
  expect_one_line("run --variant epita.reduce3 --backend sim --seed 18446744073709551616", 2,
                  "is too large (a seed is a whole number from 0 to 2^64 - 1)");
  EXPECT_EQ(run_cli("run --variant epita.reduce3 --backend sim --seed 18446744073709551615").code, 0);
  EXPECT_EQ(run_cli("run --variant stevens.conv1d_tiled --backend sim --n 4096 --mask-width 7").code, 0);
}

TEST(CliExitCodes, AReportWhereEveryVariantWasSkippedIsNotASuccess) {
  const CliOut o = run_cli("report --force --variants epita.reduce8 --block 64 --backend sim --out " +
                           ::testing::TempDir() + "ws_skipped.json");
  EXPECT_EQ(o.code, 2) << o.out;
  EXPECT_NE(o.out.find("every variant was skipped: nothing ran"), std::string::npos) << o.out;
  EXPECT_EQ(o.out.find("0 failed"), std::string::npos) << o.out;
}

// An argument holding a newline ("--block\n256", a pasted line) would come back inside CLI11's message
// and split the one-line error in two (tests/fuzz/corpus/cli/crash-newline-in-argument): such arguments
// are refused first, escaped.
TEST(CliMessages, AnArgumentHoldingANewlineIsRefusedOnOneLine) {
  // popen's shell is dash: printf makes the control characters.
  expect_one_line("run --variant epita.reduce3 \"$(printf -- '--block\\n256')\" --backend sim", 2,
                  "argument 4 holds a control character: '--block\\n256'");
  expect_one_line("run --variant \"$(printf -- 'epita.reduce3\\r')\" --backend sim", 2,
                  "argument 3 holds a control character: 'epita.reduce3\\x0d'");
  const CliOut tab = run_cli("run --variant epita.reduce3 --backend sim --n 1024 --input \"$(printf -- 'no\\tfile')\"");
  EXPECT_EQ(tab.code, 2) << tab.out;  // a tab keeps the line whole: the file's own problem is reported
  EXPECT_EQ(tab.out.find("control character"), std::string::npos) << tab.out;
}
