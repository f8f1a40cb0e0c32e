// Your own kernel without a compiler or GPU: the comment header, the source limits, NVRTC's log mapped
// to the user's lines, the cache key, the variant a kernel runs as, the request on the wire.
#include <gtest/gtest.h>

#include "registry.hpp"
#include "request.hpp"
#include "user_kernel.hpp"
#include "worker_client.hpp"
#include "worker_protocol.hpp"

using namespace ws;

TEST(UserKernelHeader, ReadsEveryKey) {
  KernelHeader h;
  const std::string src =
      "#include \"common/dynamic_shared.cuh\"\n"
      "// warpscope: block=128 items=2 shared=items*block*4\n"
      "//   warpscope: entry=my_kernel pattern=scan grid=264\n"
      "extern \"C\" __global__ void my_kernel() {}\n";
  ASSERT_EQ(parse_kernel_header(src, "k.cu", h), "");
  EXPECT_EQ(h.block, 128);
  EXPECT_EQ(h.items, 2);
  EXPECT_EQ(h.grid, 264);
  EXPECT_EQ(h.shared, "items*block*4");
  EXPECT_EQ(h.entry, "my_kernel");
  EXPECT_EQ(h.pattern, "scan");
  EXPECT_EQ(h.line, 2);
  EXPECT_EQ(shared_bytes(h.shared, 128, 2), 1024);
}

TEST(UserKernelHeader, NamesTheBadKeyAndLine) {
  KernelHeader h;
  EXPECT_EQ(parse_kernel_header("\n// warpscope: block=2048\n", "k.cu", h),
            "k.cu:2: warpscope header: block=2048 must be 1..1024 threads");
  EXPECT_EQ(parse_kernel_header("// warpscope: threads=32\n", "k.cu", h),
            "k.cu:1: warpscope header: unknown key 'threads' (keys: block, items, grid, shared, entry, pattern, "
            "mask_symbol)");
  EXPECT_EQ(parse_kernel_header("// warpscope: block\n", "k.cu", h),
            "k.cu:1: warpscope header: 'block' is not key=value (keys: block, items, grid, shared, entry, pattern, "
            "mask_symbol)");
  EXPECT_NE(parse_kernel_header("// warpscope: shared=block-4\n", "k.cu", h).find("shared=block-4 must be bytes"),
            std::string::npos);
  EXPECT_NE(parse_kernel_header("// warpscope: pattern=fixture\n", "k.cu", h).find("is not one of reduction, scan"),
            std::string::npos);
  EXPECT_EQ(parse_kernel_header("// no header here\nint x;\n", "k.cu", h), "");
  EXPECT_EQ(h.line, 0);
}

// A convolution kernel that reads its mask from __constant__ memory names the array; the worker fills it.
TEST(UserKernelHeader, MaskSymbolNamesAnIdentifier) {
  KernelHeader h;
  ASSERT_EQ(parse_kernel_header("// warpscope: pattern=convolution mask_symbol=M\n", "k.cu", h), "");
  EXPECT_EQ(h.mask_symbol, "M");
  ASSERT_EQ(parse_kernel_header("// warpscope: mask_symbol=_mask_2\n", "k.cu", h), "");
  EXPECT_EQ(h.mask_symbol, "_mask_2");
  EXPECT_EQ(parse_kernel_header("// warpscope: mask_symbol=M[0]\n", "k.cu", h),
            "k.cu:1: warpscope header: mask_symbol=M[0] must name a __constant__ array (an identifier)");
  EXPECT_NE(parse_kernel_header("// warpscope: mask_symbol=2M\n", "k.cu", h), "");
}

TEST(UserKernelHeader, SharedBytesForms) {
  EXPECT_EQ(shared_bytes("", 256, 1), 0);
  EXPECT_EQ(shared_bytes("4096", 256, 1), 4096);
  EXPECT_EQ(shared_bytes("block*4", 256, 1), 1024);
  EXPECT_EQ(shared_bytes("4*block", 256, 1), 1024);
  EXPECT_EQ(shared_bytes("items*block*4", 256, 2), 2048);
  EXPECT_EQ(shared_bytes("block*", 256, 1), -1);
  EXPECT_EQ(shared_bytes("n*4", 256, 1), -1);
  EXPECT_EQ(shared_bytes("block*4+56", 256, 1), 1080);  // a tile and the halo of the widest mask
  EXPECT_EQ(shared_bytes("block*4+", 256, 1), -1);
  EXPECT_EQ(shared_bytes("+4", 256, 1), -1);
}

TEST(UserKernelLimits, RefusesLargeEmptyAndEscapingIncludes) {
  const std::string big(kMaxKernelSourceBytes + 1, ' ');
  EXPECT_EQ(check_kernel_source(big, "big.cu"),
            "big.cu is 1048577 bytes: kernel sources are limited to 1 MiB (1048576 bytes)");
  EXPECT_NE(check_kernel_source(" \n\t", "e.cu").find("e.cu is empty"), std::string::npos);
  EXPECT_EQ(check_kernel_source("#include \"common/dynamic_shared.cuh\"\n#include <cuda_fp16.h>\n", "k.cu"), "");
  EXPECT_EQ(
      check_kernel_source("int a;\n#include </etc/passwd>\n", "k.cu").rfind("k.cu:2: #include of an absolute path", 0),
      0u);
  EXPECT_EQ(check_kernel_source("# include \"../../secret.h\"\n", "k.cu").rfind("k.cu:1: #include climbs out", 0), 0u);
  EXPECT_EQ(check_kernel_source("#include \"common/../../x.h\"\n", "k.cu").rfind("k.cu:1: #include climbs out", 0), 0u);
  std::string nul = "int x;";
  nul.push_back('\0');
  EXPECT_NE(check_kernel_source(nul, "k.cu").find("NUL byte"), std::string::npos);
  EXPECT_EQ(kMaxKernelCompileSeconds, 30);
}

// NVRTC 13.0's log for tests/kernels/reduce_broken.cu, as it wrote it.
TEST(UserKernelLog, MapsMessagesToTheUsersLines) {
  const std::string log =
      "reduce_broken.cu(7): error: identifier \"undeclared_value\" is undefined\n"
      "    atomicAdd(out, v + undeclared_value);\n"
      "                       ^\n"
      "\n"
      "reduce_broken.cu(5): warning #177-D: variable \"w\" was declared but never referenced\n"
      "common/x.cuh(3): error: expected a \";\"\n"
      "1 error detected in the compilation of \"reduce_broken.cu\".\n";
  const auto d = parse_compile_log(log, "reduce_broken.cu");
  ASSERT_EQ(d.size(), 3u);
  EXPECT_EQ(d[0].line, 7);
  EXPECT_EQ(d[0].severity, "error");
  EXPECT_EQ(d[0].message, "identifier \"undeclared_value\" is undefined");
  EXPECT_EQ(d[1].line, 5);
  EXPECT_EQ(d[1].severity, "warning");
  EXPECT_EQ(d[2].file, "common/x.cuh");
  const std::string text = format_diagnostics(d, "kernels/mine.cu");
  EXPECT_EQ(text.substr(0, text.find('\n')), "reduce_broken.cu:7: error: identifier \"undeclared_value\" is undefined");
  EXPECT_NE(text.find("common/x.cuh:3: error: expected a \";\""), std::string::npos);
}

TEST(UserKernelCache, KeyChangesWithEveryInput) {
  const std::vector<std::string> opts = {"--gpu-architecture=sm_90", "-lineinfo"};
  const std::string k = kernel_cache_key("src", "kernel", 9, 0, opts, "13.0");
  EXPECT_EQ(k.size(), 16u);
  EXPECT_EQ(k, kernel_cache_key("src", "kernel", 9, 0, opts, "13.0"));
  EXPECT_NE(k, kernel_cache_key("src ", "kernel", 9, 0, opts, "13.0"));
  EXPECT_NE(k, kernel_cache_key("src", "kernel2", 9, 0, opts, "13.0"));
  EXPECT_NE(k, kernel_cache_key("src", "kernel", 8, 0, opts, "13.0"));
  EXPECT_NE(k, kernel_cache_key("src", "kernel", 9, 0, {"--gpu-architecture=sm_90"}, "13.0"));
  EXPECT_NE(k, kernel_cache_key("src", "kernel", 9, 0, opts, "13.1"));
  EXPECT_NE(kernel_cache_key("ab", "c", 9, 0, {}, ""), kernel_cache_key("a", "bc", 9, 0, {}, ""));
}

TEST(UserKernelVariant, TakesTheLikeVariantsLaunchAndName) {
  UserKernel k;
  k.source = "extern \"C\" __global__ void kernel(const int* in, int* out, unsigned n) {}\n";
  k.file = "dir/mine.cu";
  VariantInfo v;
  ASSERT_EQ(user_kernel_variant(k, v), "");
  EXPECT_EQ(v.id, "mine.cu (your kernel)");
  EXPECT_EQ(v.pattern, PatternKind::Reduction);
  EXPECT_EQ(v.rules.default_block, 256);
  EXPECT_FALSE(v.racy || v.cautionary || v.cpu_only || v.traceable);
  k.like = "epita.reduce4";
  ASSERT_EQ(user_kernel_variant(k, v), "");
  EXPECT_EQ(v.id, "epita.reduce4 (edited)");
  EXPECT_EQ(v.rules.items_per_thread, find_variant("epita.reduce4")->rules.items_per_thread);
  k.source = "// warpscope: block=64 items=4\n" + k.source;
  ASSERT_EQ(user_kernel_variant(k, v), "");
  EXPECT_EQ(v.rules.default_block, 64);
  EXPECT_EQ(v.rules.items_per_thread, 4);
  k.like = "stevens.kogge_stone";
  EXPECT_EQ(user_kernel_variant(k, v),
            "--like stevens.kogge_stone is a scan variant, the kernel follows the reduction contract (--pattern)");
  k.like = "epita.nope";
  EXPECT_NE(user_kernel_variant(k, v).find("unknown variant 'epita.nope'"), std::string::npos);
}

// cs121.atomic_max's copy computes a maximum: its check must expect the maximum (the H200's copy test found the
// copy's right answer, 1000, judged against the input's sum).
TEST(UserKernelVariant, ACopyOfAMaximumIsCheckedAsAMaximum) {
  UserKernel k;
  k.pattern = PatternKind::Reduction;
  k.source = "extern \"C\" __global__ void kernel(const int* in, int* out, unsigned n) {}\n";
  k.file = "max.cu";
  VariantInfo v;
  ASSERT_EQ(user_kernel_variant(k, v), "");
  EXPECT_EQ(v.op, ReduceOp::Sum);
  k.like = "cs121.atomic_max";
  ASSERT_EQ(user_kernel_variant(k, v), "");
  EXPECT_EQ(v.op, ReduceOp::Max);
}

TEST(UserKernelVariant, EveryContractHasItsBaseVariant) {
  for (PatternKind p : kernel_contract_patterns()) {
    const KernelContract* c = kernel_contract(p);
    ASSERT_NE(c, nullptr);
    const VariantInfo* base = find_variant(c->base_variant);
    ASSERT_NE(base, nullptr) << c->base_variant;
    EXPECT_EQ(base->pattern, p) << c->base_variant;
    EXPECT_NE(std::string(c->signature).find("extern \"C\" __global__ void kernel("), std::string::npos);
  }
}

TEST(UserKernelRequest, SimCannotRunUserCodeAndTheRequestTravels) {
  RunRequest req;
  req.kernel.source = "extern \"C\" __global__ void kernel(const int* in, int* out, unsigned n) {}\n";
  req.kernel.file = "mine.cu";
  req.kernel.like = "epita.reduce3";
  req.backend = BackendKind::Sim;
  PreparedRun p;
  EXPECT_NE(prepare_run(req, p).find("the simulator runs the built-in variants' thread models only"),
            std::string::npos);
  req.backend = BackendKind::Cuda;
  req.n = 1000;
  ASSERT_EQ(prepare_run(req, p), "");
  EXPECT_EQ(p.variant->id, "epita.reduce3 (edited)");
  EXPECT_EQ(p.launch.block, 256);
  const RunResult r = execute_prepared(req, p, nullptr, "no GPU here");
  EXPECT_EQ(r.status, RunStatus::Error);
  EXPECT_EQ(r.variant, "epita.reduce3 (edited)");

  const RunRequest back = request_from_json(request_to_json(req));
  EXPECT_EQ(back.kernel.source, req.kernel.source);
  EXPECT_EQ(back.kernel.file, "mine.cu");
  EXPECT_EQ(back.kernel.like, "epita.reduce3");
  EXPECT_EQ(back.kernel.pattern, PatternKind::Reduction);
  EXPECT_TRUE(request_from_json(request_to_json(RunRequest{})).kernel.empty());
}

TEST(UserKernelRequest, TheWatchdogLeavesRoomForTheCompileLimit) {
  RunRequest req;
  req.n = 1024;
  const double plain = expected_seconds(req);
  req.kernel.source = "extern \"C\" __global__ void kernel(const int* in, int* out, unsigned n) {}\n";
  EXPECT_GE(3 * expected_seconds(req), kMaxKernelCompileSeconds + 3 * plain);
}

// Issue 24's soak found it: a faulted run of the editor's copy came back named after epita.reduce3 itself, so
// Results showed the slide's kernel faulting and the editor waited for its own row for ever.
TEST(UserKernelLabel, ARunThatDidNotRunKeepsTheUsersLabelNotTheVariantItRunsLike) {
  RunRequest req;
  req.variant = "epita.reduce3";
  req.kernel.source = "extern \"C\" __global__ void kernel(const int*, int*, unsigned) {}";
  req.kernel.like = "epita.reduce3";
  EXPECT_EQ(unrun_result(req, RunStatus::Faulted, "illegal address").variant, "epita.reduce3 (edited)");
  req.kernel.like.clear();
  req.kernel.file = "/tmp/student/my_reduce.cu";
  EXPECT_EQ(unrun_result(req, RunStatus::Error, "no GPU").variant, "my_reduce.cu (your kernel)");
  req.kernel = UserKernel{};
  EXPECT_EQ(unrun_result(req, RunStatus::Faulted, "x").variant, "epita.reduce3");
}
