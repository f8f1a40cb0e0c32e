// NVRTC compiles users' kernels without a GPU: real compiles of tests/kernels/*.cu for sm_90, errors on
// the right line, the time limit, a missing entry, template entries through warpscope's headers, and the
// memory and disk caches.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "kernel_compile.hpp"

using namespace ws;

namespace {

std::string read_kernel(const std::string& name) {
  std::ifstream in(std::string(WS_TEST_DIR) + "/kernels/" + name);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

CompileOptions options_for(const std::string& file, const std::string& cache = "-") {
  CompileOptions o;
  o.file = file;
  o.cache_dir = cache;
  return o;
}

}  // namespace

TEST(Nvrtc, CompilesTheGoodKernelToACubinWithLineInfo) {
  ASSERT_TRUE(built_with_nvrtc());
  EXPECT_FALSE(nvrtc_version().empty());
  const CompileResult c = compile_user_kernel(read_kernel("reduce_good.cu"), options_for("reduce_good.cu"));
  ASSERT_TRUE(c.ok()) << c.error << "\n" << c.log;
  EXPECT_EQ(c.lowered_entry, "kernel");  // extern "C": not mangled
  ASSERT_GT(c.image.size(), 4u);
  EXPECT_EQ(c.image[0], 0x7f);  // an ELF cubin
  EXPECT_EQ(c.image[1], 'E');
  EXPECT_EQ(c.key.size(), 16u);
}

TEST(Nvrtc, ACompileErrorLandsOnItsLine) {
  const CompileResult c = compile_user_kernel(read_kernel("reduce_broken.cu"), options_for("reduce_broken.cu"));
  ASSERT_EQ(c.status, CompileStatus::Failed);
  ASSERT_FALSE(c.diagnostics.empty()) << c.log;
  EXPECT_EQ(c.diagnostics[0].line, 7) << c.log;
  EXPECT_EQ(c.diagnostics[0].severity, "error");
  EXPECT_EQ(c.error.rfind("reduce_broken.cu:7: error: identifier \"undeclared_value\" is undefined", 0), 0u) << c.error;
}

TEST(Nvrtc, TheTimeLimitStopsTheCompile) {
  CompileOptions o = options_for("reduce_good.cu");
  o.timeout_s = 1e-9;  // past at NVRTC's first check
  const CompileResult c = compile_user_kernel(read_kernel("reduce_good.cu") + "\n// another key\n", o);
  EXPECT_EQ(c.status, CompileStatus::TimedOut) << c.error;
  EXPECT_EQ(c.error, "reduce_good.cu: the compile took longer than 1e-09 s and was stopped (the limit for a kernel)");
}

TEST(Nvrtc, AMissingEntrySaysSo) {
  CompileOptions o = options_for("reduce_good.cu");
  o.entry = "reduce";
  const CompileResult c = compile_user_kernel(read_kernel("reduce_good.cu"), o);
  EXPECT_EQ(c.status, CompileStatus::EntryMissing) << c.log;
  EXPECT_NE(c.error.find("no __global__ function 'reduce'"), std::string::npos) << c.error;
}

TEST(Nvrtc, TemplateEntriesAndWarpscopeHeaders) {
  const std::string src =
      "#include \"common/dynamic_shared.cuh\"\n"
      "template <typename T>\n"
      "__global__ void reduce3(const T* in, T* out, unsigned n) {\n"
      "  T* s = ws::kernels::dynamic_shared<T>();\n"
      "  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];\n"
      "  __syncthreads();\n"
      "  if (threadIdx.x == 0) atomicAdd(out, s[0]);\n"
      "}\n"
      "template __global__ void reduce3<int>(const int*, int*, unsigned);\n";
  CompileOptions o = options_for("t.cu");
  o.entry = "reduce3<int>";
  const CompileResult c = compile_user_kernel(src, o);
  ASSERT_TRUE(c.ok()) << c.error << "\n" << c.log;
  EXPECT_NE(c.lowered_entry, "reduce3<int>");
  EXPECT_EQ(c.lowered_entry.rfind("_Z", 0), 0u) << c.lowered_entry;  // the mangled symbol
}

TEST(Nvrtc, IncludesOutsideTheKernelHeadersAreNotFound) {
  const CompileResult c = compile_user_kernel(
      "#include \"core/request.hpp\"\nextern \"C\" __global__ void kernel() {}\n", options_for("i.cu"));
  EXPECT_EQ(c.status, CompileStatus::Failed);
  ASSERT_FALSE(c.diagnostics.empty()) << c.log;
  EXPECT_EQ(c.diagnostics[0].line, 1);
}

TEST(Nvrtc, RefusedBeforeCompiling) {
  const CompileResult c = compile_user_kernel(std::string(kMaxKernelSourceBytes + 1, ' '), options_for("big.cu"));
  EXPECT_EQ(c.status, CompileStatus::Refused);
  EXPECT_NE(c.error.find("limited to 1 MiB"), std::string::npos);
}

TEST(Nvrtc, ModulesAreCachedBySourceInMemoryAndOnDisk) {
  const std::string dir = testing::TempDir() + "ws_nvrtc_cache_" + std::to_string(getpid());
  std::filesystem::remove_all(dir);
  const std::string src = read_kernel("reduce_good.cu") + "\n// cache test\n";
  const CompileResult first = compile_user_kernel(src, options_for("c.cu", dir));
  ASSERT_TRUE(first.ok()) << first.error;
  EXPECT_FALSE(first.cached);
  EXPECT_TRUE(std::filesystem::exists(dir + "/" + first.key + ".wsk"));
  const CompileResult again = compile_user_kernel(src, options_for("c.cu", dir));
  EXPECT_TRUE(again.cached);
  EXPECT_EQ(again.key, first.key);
  EXPECT_EQ(again.image, first.image);
  const CompileResult other = compile_user_kernel(src + " ", options_for("c.cu", dir));
  EXPECT_FALSE(other.cached);
  EXPECT_NE(other.key, first.key);
  std::filesystem::remove_all(dir);
}

// Every exercise's starter and solution compile for sm_90 (the starters compile but leave the marked part
// undone), and so does every kernel of docs/your-kernel.md's examples (tests/kernels/).
TEST(Nvrtc, ExercisesAndExamplesCompile) {
  const std::filesystem::path root = std::filesystem::path(WS_TEST_DIR).parent_path();
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root / "assets" / "exercises"))
    if (e.path().extension() == ".cu") files.push_back(e.path());
  for (const auto& e : std::filesystem::directory_iterator(root / "tests" / "kernels"))
    if (e.path().extension() == ".cu" && e.path().filename() != "reduce_broken.cu") files.push_back(e.path());
  ASSERT_GE(files.size(), 10u);
  for (const auto& f : files) {
    std::ifstream in(f);
    std::ostringstream s;
    s << in.rdbuf();
    const CompileResult c = compile_user_kernel(s.str(), options_for(f.filename().string()));
    EXPECT_TRUE(c.ok()) << f << ": " << c.error << "\n" << c.log;
  }
}
