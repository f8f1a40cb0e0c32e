// The enums named in JSON, the worker protocol, lessons and the CLI (RunStatus, BackendKind, PatternKind,
// TracePhase), checked by one typed test: every value's name parses back to that value, no two values
// share a name, the names are exactly the expected ones, and unknown names are refused without touching
// the value. What only one enum has (its messages, its lists of names) is tested beside that enum.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "backend_kind.hpp"
#include "pattern_kind.hpp"
#include "run_status.hpp"
#include "trace/trace_phase.hpp"

using namespace ws;

namespace {

/// What the typed test needs of one enum: its last value (values run 0..kLast), its parse function
/// (to_string is overloaded for all of them), the names it must have, names it must refuse, and the
/// value a refused parse must leave alone.
template <class E>
struct EnumNames;

template <>
struct EnumNames<RunStatus> {
  static constexpr RunStatus kLast = RunStatus::Skipped;
  static bool parse(const std::string& s, RunStatus& out) { return parse_run_status(s, out); }
  inline static const std::set<std::string> kNames{"",          "done",  "ok",      "wrong",  "race",
                                                   "slide-bug", "error", "faulted", "skipped"};
  inline static const std::vector<std::string> kRefused{"OK", "slide_bug", "passed", " ok", "ok "};
  static constexpr RunStatus kKept = RunStatus::Ok;
};

template <>
struct EnumNames<BackendKind> {
  static constexpr BackendKind kLast = BackendKind::Cpu;
  static bool parse(const std::string& s, BackendKind& out) { return parse_backend(s, out); }
  inline static const std::set<std::string> kNames{"cuda", "sim", "cpu"};
  inline static const std::vector<std::string> kRefused{"tpu", "CUDA", "", "gpu"};
  static constexpr BackendKind kKept = BackendKind::Sim;
};

template <>
struct EnumNames<PatternKind> {
  static constexpr PatternKind kLast = PatternKind::Fixture;
  static bool parse(const std::string& s, PatternKind& out) { return parse_pattern(s, out); }
  inline static const std::set<std::string> kNames{"reduction", "scan", "convolution", "atomics", "fixture"};
  inline static const std::vector<std::string> kRefused{"Reduction", "reductions", "",    " scan",
                                                        "scan ",     "stencil",    "conv"};
  static constexpr PatternKind kKept = PatternKind::Scan;
};

template <>
struct EnumNames<TracePhase> {
  static constexpr TracePhase kLast = TracePhase::Stage;
  static bool parse(const std::string& s, TracePhase& out) { return parse_trace_phase(s, out); }
  inline static const std::set<std::string> kNames{
      "step",       "load",     "halo",       "compute", "tree",  "warp", "combine", "atomic",    "pass", "store",
      "sequential", "up-sweep", "down-sweep", "thread",  "block", "scan", "count",   "look-back", "stage"};
  inline static const std::vector<std::string> kRefused{"",        "Load",  "lookback", "look_back",
                                                        "upsweep", " tree", "tree ",    "?"};
  static constexpr TracePhase kKept = TracePhase::Warp;
};

template <class E>
class EnumNameTable : public ::testing::Test {};

using NamedEnums = ::testing::Types<RunStatus, BackendKind, PatternKind, TracePhase>;
// ctest names them by type: EnumNameTable.EveryValueRoundTrips<ws::RunStatus>.
TYPED_TEST_SUITE(EnumNameTable, NamedEnums);

}  // namespace

TYPED_TEST(EnumNameTable, EveryValueRoundTrips) {
  using Names = EnumNames<TypeParam>;
  const int count = int(Names::kLast) + 1;
  std::set<std::string> names;
  for (int i = 0; i < count; ++i) {
    const TypeParam v = TypeParam(i);
    // Starts at another value, so a parse that returns true without writing fails.
    TypeParam back = TypeParam((i + 1) % count);
    EXPECT_TRUE(Names::parse(to_string(v), back)) << i;
    EXPECT_EQ(back, v) << to_string(v);
    EXPECT_TRUE(names.insert(to_string(v)).second) << "two values named '" << to_string(v) << "'";
  }
  EXPECT_EQ(names, Names::kNames);
}

TYPED_TEST(EnumNameTable, UnknownNamesAreRefused) {
  using Names = EnumNames<TypeParam>;
  TypeParam v = Names::kKept;
  for (const std::string& bad : Names::kRefused) {
    EXPECT_FALSE(Names::parse(bad, v)) << "'" << bad << "'";
    EXPECT_EQ(v, Names::kKept) << "a refused name leaves the value alone";
  }
  // Every name with a space before or after it is refused too: names are matched exactly.
  for (const std::string& name : Names::kNames)
    for (const std::string& padded : {" " + name, name + " "}) {
      EXPECT_FALSE(Names::parse(padded, v)) << "'" << padded << "'";
      EXPECT_EQ(v, Names::kKept);
    }
}
