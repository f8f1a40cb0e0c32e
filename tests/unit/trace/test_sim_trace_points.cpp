// Trace points: the WS_AT markers of the kernels, the generated table (trace_points.hpp) and the
// source lines the sim models put in their traces.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "inputs.hpp"
#include "launch_rules.hpp"
#include "patterns/convolution/conv_geometry.hpp"
#include "registry.hpp"
#include "request.hpp"
#include "sim/sim.hpp"
#include "trace/trace_points_scan.hpp"
#include "trace_points.hpp"

namespace ws {
namespace {

std::string kernel_dir() { return std::string(WS_TEST_DIR) + "/../kernels"; }

/// The text of kernels/<folder>/<file> in the source tree (what the build generated the table from).
// Looks in every folder of kernels/ (the generator reads kernels/*/*.cu: no list of folders to keep here).
std::string read_kernel(const std::string& file) {
  for (const auto& folder : std::filesystem::directory_iterator(kernel_dir())) {
    if (!folder.is_directory()) continue;
    std::ifstream in(folder.path() / file, std::ios::binary);
    if (!in) continue;
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
  }
  return "";
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(TracePointScan, DirectionsAndErrors) {
  const std::string alias = "WS_T(namespace ws_points = ::ws::trace_points::k;)\n";
  const ScannedFile f = scan_trace_points("k.cu", alias +
                                                      "  a = 1;\n"                            // 2
                                                      "  WS_T(WS_AT(after_a); c.x();)\n"      // 3
                                                      "\n"                                    // 4
                                                      "  WS_T(WS_AT_NEXT(before_b);)\n"       // 5
                                                      "  // a comment\n"                      // 6
                                                      "  WS_T(c.y();)\n"                      // 7
                                                      "  b = 2;\n"                            // 8
                                                      "  c = 3; WS_T(WS_AT(same_line);)\n");  // 9
  ASSERT_EQ(f.error, "");
  ASSERT_EQ(f.points.size(), 3u);
  EXPECT_EQ(f.points[0].line, 2);
  EXPECT_EQ(f.points[1].line, 8);
  EXPECT_EQ(f.points[2].line, 9);
  EXPECT_NE(scan_trace_points("k.cu", alias + "x;\nWS_T(WS_AT(p);)\nWS_T(WS_AT(p);)\n").error.find("also marked"),
            std::string::npos);
  EXPECT_NE(scan_trace_points("k.cu", "x;\nWS_T(WS_AT(p);)\n").error.find("namespace ws_points"), std::string::npos);
  EXPECT_NE(scan_trace_points("k.cu", alias + "WS_T(WS_AT_NEXT(p);)\n").error.find("no code line below"),
            std::string::npos);
  EXPECT_NE(scan_trace_points("k.cu", alias + "x;\nWS_T(WS_AT();)\n").error.find("needs a name"), std::string::npos);
}

// The compiled-in table is the one the kernels in the source tree give now: a .cu edit that moves a
// marked line without the table following (a stale build, a generator bug) fails here.
TEST(TracePoints, TableMatchesTheKernelSources) {
  int checked = 0;
  for (int f = 0; f < trace_points::kFileCount; ++f) {
    const std::string text = read_kernel(trace_points::kFiles[f]);
    ASSERT_FALSE(text.empty()) << trace_points::kFiles[f];
    const ScannedFile now = scan_trace_points(trace_points::kFiles[f], text);
    ASSERT_EQ(now.error, "");
    std::vector<ScannedPoint> table;
    for (int k = 0; k < trace_points::kPointCount; ++k)
      if (trace_points::kPoints[k].file == f)
        table.push_back(
            {trace_points::kPoints[k].name, trace_points::kPoints[k].marker_line, trace_points::kPoints[k].line});
    ASSERT_EQ(table.size(), now.points.size()) << trace_points::kFiles[f];
    const std::vector<std::string> lines = lines_of(text);
    for (std::size_t i = 0; i < table.size(); ++i) {
      EXPECT_EQ(table[i].name, now.points[i].name);
      EXPECT_EQ(table[i].line, now.points[i].line) << table[i].name;
      // Every point names a line of code (never a comment, a blank or an instrumentation line).
      ASSERT_LE(table[i].line, int(lines.size()));
      EXPECT_NE(trace_code_of(lines[std::size_t(table[i].line - 1)]), "") << table[i].name;
      ++checked;
    }
  }
  EXPECT_GT(checked, 50);
}

/// The trace build is found, not listed: kernels/CMakeLists.txt compiles again every kernels/*/*.cu with a
/// line `WS_TRACE_NS_BEGIN`, and app/cuda generates each pattern's table of traced files (read by its runner's
/// record), and the declarations of what they call, from those files' names. This holds the convention the
/// generated tables rely on, for every such file (a new one too): it closes the namespace, arms with
/// <name>_arm, its pattern's launch contract (the folder's one <x>_launch.hpp) names the trace build's launcher
/// entry (`namespace <pattern>_traced {` then `using Entry = ENTRY;`, from which app/cuda generates the
/// pattern's whole table, patterns/<pattern>_traced.hpp: no table is written by hand), and it defines
/// <name>_launchers() returning that entry. The timed reduction table is generated from every
/// kernels/reduction/<name>.cu the same way, so each of those defines <name>_launchers() too.
TEST(TracePoints, EveryTracedKernelFileFollowsTheTraceBuildConvention) {
  int traced = 0, reductions = 0;
  for (const auto& folder : std::filesystem::directory_iterator(kernel_dir())) {
    if (!folder.is_directory()) continue;
    for (const auto& file : std::filesystem::directory_iterator(folder.path())) {
      if (file.path().extension() != ".cu") continue;
      std::ifstream in(file.path(), std::ios::binary);
      std::ostringstream text;
      text << in.rdbuf();
      const std::vector<std::string> lines = lines_of(text.str());
      auto has_line = [&](const std::string& start) {
        for (const std::string& l : lines)
          if (l.rfind(start, 0) == 0) return true;
        return false;
      };
      const std::string name = file.path().stem().string(), where = file.path().string();
      const std::string pattern = folder.path().filename().string();
      auto defines_launchers = [&](const std::string& entry) {
        return has_line("std::vector<" + entry + "> " + name + "_launchers() {");
      };
      if (pattern == "reduction") {
        ++reductions;
        EXPECT_TRUE(defines_launchers("LauncherEntry"))
            << where << " lacks std::vector<LauncherEntry> " << name << "_launchers()";
      }
      if (!has_line("WS_TRACE_NS_BEGIN")) continue;
      ++traced;
      EXPECT_TRUE(has_line("WS_TRACE_NS_END")) << where;
      EXPECT_TRUE(has_line("WS_TRACE_ARM_FUNCTION(" + name + "_arm)")) << where;
      // The launcher entry the pattern's launch contract names for its generated trace table.
      std::vector<std::filesystem::path> contracts;
      for (const auto& h : std::filesystem::directory_iterator(folder.path())) {
        const std::string f = h.path().filename().string();
        if (f.size() > 11 && f.compare(f.size() - 11, 11, "_launch.hpp") == 0) contracts.push_back(h.path());
      }
      ASSERT_EQ(contracts.size(), 1u) << where << ": its folder needs one <name>_launch.hpp; app/cuda stops there";
      std::ifstream header(contracts[0], std::ios::binary);
      std::ostringstream header_text;
      header_text << header.rdbuf();
      const std::string& h = header_text.str();
      const std::size_t ns = h.find("\nnamespace " + pattern + "_traced {");
      ASSERT_NE(ns, std::string::npos) << where << ": " << contracts[0].string() << " names no traced launcher entry ("
                                       << "namespace " << pattern << "_traced { using Entry = ...; }); "
                                       << "app/cuda/CMakeLists.txt stops there";
      const std::string key = "using Entry = ";
      const std::size_t at = h.find(key, ns);
      ASSERT_NE(at, std::string::npos) << contracts[0].string() << ": namespace " << pattern << "_traced without Entry";
      const std::size_t from = at + key.size();
      const std::string entry = h.substr(from, h.find(';', from) - from);
      EXPECT_TRUE(defines_launchers(entry))
          << where << " lacks std::vector<" << entry << "> " << name << "_launchers()";
    }
  }
  EXPECT_GE(traced, 5);      // epita, harris, cs121, amp, stevens_scan
  EXPECT_GE(reductions, 6);  // those four, stevens, cub_reduce
}

/// The kernel line each named point stands for holds the statement the lesson talks about.
TEST(TracePoints, PointsNameTheirStatements) {
  const std::vector<std::string> epita = lines_of(read_kernel("epita.cu"));
  const std::vector<std::string> harris = lines_of(read_kernel("harris.cu"));
  auto at = [](const std::vector<std::string>& l, int line) { return trace_code_of(l[std::size_t(line - 1)]); };
  namespace e = trace_points::epita;
  namespace h = trace_points::harris;
  EXPECT_EQ(at(epita, e::reduce2_load), "partialSum[tid] = buffer[i];");
  EXPECT_EQ(at(epita, e::reduce2_tree), "if (tid % (2 * stride) == 0) partialSum[tid] += partialSum[tid + stride];");
  EXPECT_EQ(at(epita, e::reduce2_commit), "if (tid == 0) atomicAdd(sum, partialSum[0]);");
  EXPECT_EQ(at(epita, e::reduce3_tree), "if (tid < stride) partialSum[tid] += partialSum[tid + stride];");
  EXPECT_EQ(at(epita, e::reduce6_tree), "if (tid < s) partialSum[tid] += partialSum[tid + s];");
  EXPECT_EQ(at(epita, e::warp_32), "partialSum[tid] += partialSum[tid + 32];");
  EXPECT_EQ(at(epita, e::warp_1), "partialSum[tid] += partialSum[tid + 1];");
  EXPECT_EQ(at(harris, h::impl2_tree), "sv[index] += sv[index + s];");
  EXPECT_EQ(at(harris, h::impl2_commit), "out[blockIdx.x] = sv[0];");
  const std::vector<std::string> cs121 = lines_of(read_kernel("cs121.cu"));
  namespace c = trace_points::cs121;
  EXPECT_NE(at(cs121, c::warp_shfl).find("val += __shfl_down_sync(0xffffffff, val, offset);"), std::string::npos);
  EXPECT_EQ(at(cs121, c::block_store), "if (lane == 0) shared[wid] = val;");
  EXPECT_EQ(at(cs121, c::block_load), "val = (threadIdx.x < blockDim.x / warpSize) ? shared[lane] : T(0);");
  EXPECT_EQ(at(cs121, c::block_reduce_atomic), "if (threadIdx.x == 0) atomicAdd(sum, val);");
  EXPECT_EQ(at(cs121, c::max_global_atomic), "atomicMax(global_max, val);");
  EXPECT_EQ(at(harris, h::impl5_sum), "T mySum = v[i] + v[i + blockDim.x];");
  EXPECT_EQ(at(harris, h::last_warp_32), "s[tid] = mySum = mySum + s[tid + 32];");
  EXPECT_EQ(at(harris, h::unrolled_last_warp).rfind("last_warp_volatile(sv, tid, sv[tid]", 0), 0u);
  EXPECT_EQ(at(harris, h::impl5_shfl_down), "mySum += __shfl_down_sync(0xffffffffu, mySum, offset);");
  EXPECT_EQ(at(harris, h::naive_add), "v[i] += v[i + s];");
  EXPECT_EQ(at(harris, h::impl7_pair), "sv[tid] += v[i] + v[i + blockSize];");
  const std::vector<std::string> amp = lines_of(read_kernel("amp.cu"));
  namespace a = trace_points::amp;
  EXPECT_EQ(at(amp, a::simple_1_add), "a[idx] = a[idx] + a[idx + s];");
  EXPECT_EQ(at(amp, a::tiled_2_tree), "tile_data[index] += tile_data[index + s];");
  EXPECT_EQ(at(amp, a::cascade_add), "tile_data[tid] += a[i];");
  EXPECT_EQ(at(amp, a::tiled_4_commit), "dst[blockIdx.x] = tile_data[0];");
  const std::vector<std::string> scan = lines_of(read_kernel("stevens_scan.cu"));
  namespace s = trace_points::stevens_scan;
  EXPECT_EQ(at(scan, s::ks_add), "if (j >= stride && j < n) temp = XY[j] + XY[j - stride];");
  EXPECT_EQ(at(scan, s::ks_write), "if (j >= stride && j < n) XY[j] = temp;");
  EXPECT_EQ(at(scan, s::bk_up), "if (index < m) XY[index] += XY[index - stride];");
  EXPECT_EQ(at(scan, s::bk_down), "if (index + stride < m) XY[index + stride] += XY[index];");
  EXPECT_EQ(at(scan, s::naive_add), "sum += x[j];");
  const std::vector<std::string> conv = lines_of(read_kernel("stevens_conv.cu"));
  EXPECT_EQ(at(conv, trace_points::stevens_conv::tiled_1d_left), "N_ds[threadIdx.x - (blockDim.x - n)] =");
  EXPECT_EQ(at(conv, trace_points::stevens_conv::tiled_cache_1d_global), "Pvalue += N[N_index] * M[j];");
  EXPECT_EQ(at(conv, trace_points::stevens_conv::basic_1d_store), "P[i] = Pvalue;");
  namespace cv = trace_points::stevens_conv;
  EXPECT_EQ(at(conv, cv::tiled_2d_ghost), "Ns[ty * BLOCK_SIZE + tx] = 0.0f;");
  EXPECT_EQ(at(conv, cv::register_2d_load_vec).rfind("const float4 q = (row_in && col >= 0 && col < Width) ?", 0), 0u);
  const std::vector<std::string> atomics = lines_of(read_kernel("cs121_atomics.cu"));
  namespace ca = trace_points::cs121_atomics;
  EXPECT_EQ(at(atomics, ca::race_add), "*d_a += 1;");
  EXPECT_EQ(at(atomics, ca::filter_global_test), "if (i < n && src[i] > 0)");
  EXPECT_EQ(at(atomics, ca::vec_add_byte2), "atomicAdd(&mine[(words[k] >> 16) & 0xff], 1);");
  EXPECT_EQ(at(atomics, ca::scan_peek)
                .rfind("s = idx >= 0 ? *reinterpret_cast<volatile unsigned long long*>(&status[idx])", 0),
            0u);
  EXPECT_EQ(at(atomics, ca::svec_peek), at(atomics, ca::scan_peek));
  const std::vector<std::string> lookback = lines_of(read_kernel("decoupled_lookback.cu"));
  namespace dl = trace_points::decoupled_lookback;
  EXPECT_EQ(at(lookback, dl::dl_load_vec).rfind("const V q = reinterpret_cast<const V*>", 0), 0u);
  EXPECT_EQ(at(lookback, dl::dl_warp_total), "for (int k = 0; k < kRows; ++k) warp_total[k * W + w] = s[k];");
  EXPECT_EQ(at(lookback, dl::dl_publish_prefix),
            "if (lane == 0) publish(status, tile, kPrefix, bits_of(exclusive_prefix + aggregate));");
  const std::vector<std::string> stevens = lines_of(read_kernel("stevens.cu"));
  EXPECT_EQ(at(stevens, trace_points::stevens::divergent_tree), "partialSum[2 * t] += partialSum[2 * t + stride];");
  EXPECT_EQ(at(stevens, trace_points::stevens::compact_commit), "if (t == 0) output[blockIdx.x] = partialSum[0];");
}

/// The sim trace of `id` at block `block` (one window of random input): its steps.
Trace sim_trace(const std::string& id, int block) {
  const VariantInfo* v = find_variant(id);
  EXPECT_NE(v, nullptr) << id;
  const std::int64_t n = window_elems(*v, block);
  Input in;
  EXPECT_EQ(make_input("random", n, DType::Int32, 1, in), "");
  LaunchConfig launch;
  EXPECT_EQ(resolve_launch(*v, n, DType::Int32, LaunchConfig{block, 0}, DeviceShape{}, launch), "");
  return sim::simulate(*v, in, launch, PatternParams{}, 0).trace;
}

/// The same for a float32-only variant (the convolutions).
Trace sim_trace_f32(const std::string& id, int block) {
  const VariantInfo* v = find_variant(id);
  EXPECT_NE(v, nullptr) << id;
  const std::int64_t n = 4 * std::int64_t(block);
  Input in;
  EXPECT_EQ(make_input("random", n, DType::Float32, 1, in), "");
  LaunchConfig launch;
  EXPECT_EQ(resolve_launch(*v, n, DType::Float32, LaunchConfig{block, 0}, DeviceShape{}, launch), "");
  return sim::simulate(*v, in, launch, PatternParams{}, 0).trace;
}

std::vector<int> lines_of_step(const Trace& t, const std::string& label) {
  for (const Step& s : t.steps)
    if (s.label == label) return s.lines;
  ADD_FAILURE() << t.variant << ": no step " << label;
  return {};
}

TEST(TracePoints, SimStepsCarryTheirLines) {
  namespace e = trace_points::epita;
  namespace h = trace_points::harris;
  using L = std::vector<int>;
  const Trace r2 = sim_trace("epita.reduce2", 256);
  EXPECT_EQ(r2.source_file, "epita.cu");
  EXPECT_EQ(lines_of_step(r2, "partialSum[tid] = buffer[i]"), L{e::reduce2_load});
  EXPECT_EQ(lines_of_step(r2, "stride 1"), L{e::reduce2_tree});
  EXPECT_EQ(lines_of_step(r2, "stride 128"), L{e::reduce2_tree});
  EXPECT_EQ(lines_of_step(r2, "atomicAdd(sum, partialSum[0])"), L{e::reduce2_commit});
  const Trace r3 = sim_trace("epita.reduce3", 256);
  EXPECT_EQ(lines_of_step(r3, "stride 64"), L{e::reduce3_tree});
  const Trace r6 = sim_trace("epita.reduce6", 256);
  EXPECT_EQ(lines_of_step(r6, "stride 128"), L{e::reduce6_tree});
  EXPECT_EQ(lines_of_step(r6, "stride 64"), L{e::reduce6_tree});
  EXPECT_EQ(lines_of_step(r6, "offset 32"), L{e::warp_32});
  EXPECT_EQ(lines_of_step(r6, "offset 2"), L{e::warp_2});
  EXPECT_EQ(lines_of_step(r6, "partialSum[t] = 0"), L{e::reduce6_zero});
  const Trace i2 = sim_trace("harris.impl2", 256);
  EXPECT_EQ(i2.source_file, "harris.cu");
  for (const char* stride : {"stride 1", "stride 2", "stride 64", "stride 128"})
    EXPECT_EQ(lines_of_step(i2, stride), L{h::impl2_tree}) << stride;
  const Trace br = sim_trace("cs121.block_reduce", 256);
  EXPECT_EQ(br.source_file, "cs121.cu");
  EXPECT_EQ(lines_of_step(br, "offset 16"), L{trace_points::cs121::warp_shfl});
  EXPECT_EQ(lines_of_step(br, "shared[wid] = val (lane 0 of each warp)"), L{trace_points::cs121::block_store});
  EXPECT_EQ(lines_of_step(br, "atomicAdd(sum, val) (thread 0)"), L{trace_points::cs121::block_reduce_atomic});
  // Every op of a traced step carries its line.
  for (const Step& s : r6.steps)
    for (const ThreadOp& o : s.ops) EXPECT_GT(o.line, 0) << s.label;
}

/// Every step of `t` names at least one line, and every op its line.
void expect_every_step_has_lines(const Trace& t) {
  for (const Step& s : t.steps) {
    if (s.ops.empty() && s.working_threads.empty()) continue;  // a step in which the block does nothing
    EXPECT_FALSE(s.lines.empty()) << t.variant << " " << s.label;
    for (const ThreadOp& o : s.ops) EXPECT_GT(o.line, 0) << t.variant << " " << s.label;
  }
}

// The kernels marked after the first ones: Harris Implementations 5-7 and the naive launches, the C++ AMP
// post's kernels and the Stevens scans. Their steps carry the statements they ran, line for line.
TEST(TracePoints, HarrisAmpAndScanStepsCarryTheirLines) {
  namespace h = trace_points::harris;
  namespace a = trace_points::amp;
  namespace s = trace_points::stevens_scan;
  using L = std::vector<int>;
  const Trace i5 = sim_trace("harris.impl5", 256);
  EXPECT_EQ(lines_of_step(i5, "sv[tid] = v[i] + v[i + blockDim.x]"), (L{h::impl5_sum, h::impl5_store}));
  EXPECT_EQ(lines_of_step(i5, "stride 128"), L{h::impl5_tree});
  EXPECT_EQ(lines_of_step(i5, "offset 32"), L{h::last_warp_32});
  EXPECT_EQ(lines_of_step(i5, "offset 1"), L{h::last_warp_1});
  EXPECT_EQ(lines_of_step(i5, "out[blockIdx.x] = sv[0]"), L{h::impl5_commit});
  const Trace sh = sim_trace("harris.impl5_shfl", 256);
  EXPECT_EQ(lines_of_step(sh, "offset 32"), L{h::impl5_shfl_32});
  EXPECT_EQ(lines_of_step(sh, "offset 16"), L{h::impl5_shfl_down});
  EXPECT_EQ(lines_of_step(sh, "out[blockIdx.x] = mySum"), L{h::impl5_shfl_commit});
  const Trace i6 = sim_trace("harris.impl6", 256);
  EXPECT_EQ(lines_of_step(i6, "stride 128"), L{h::unrolled_128});
  EXPECT_EQ(lines_of_step(i6, "stride 64"), L{h::unrolled_64});
  // The first line of the last warp also reads sv[tid], passed as mySum by unrolled_tree's call.
  EXPECT_EQ(lines_of_step(i6, "offset 32"), (L{h::last_warp_32, h::unrolled_last_warp}));
  EXPECT_EQ(lines_of_step(i6, "offset 16"), L{h::last_warp_16});
  const Trace i7 = sim_trace("harris.impl7", 256);
  EXPECT_EQ(lines_of_step(i7, "sv[tid] = 0"), L{h::impl7_zero});
  EXPECT_EQ(lines_of_step(i7, "iteration 0"), L{h::impl7_pair});
  EXPECT_EQ(lines_of_step(i7, "stride 128"), L{h::unrolled_128});
  EXPECT_EQ(lines_of_step(i7, "out[blockIdx.x] = sv[0]"), L{h::impl7_commit});
  const Trace nv = sim_trace("harris.naive", 256);
  EXPECT_EQ(nv.source_file, "harris.cu");
  EXPECT_EQ(nv.steps.at(0).lines, L{h::naive_add});

  const Trace s1 = sim_trace("amp.simple_1", 256);
  EXPECT_EQ(s1.source_file, "amp.cu");
  EXPECT_EQ(s1.steps.at(0).lines, L{a::simple_1_add});
  const Trace s2 = sim_trace("amp.simple_2", 256);
  EXPECT_EQ(s2.steps.at(0).lines, (L{a::simple_2_window, a::simple_2_store}));
  const Trace t1 = sim_trace("amp.tiled_1", 256);
  EXPECT_EQ(lines_of_step(t1, "tile_data[tid] = src[idx]"), L{a::tiled_1_load});
  EXPECT_EQ(lines_of_step(t1, "stride 4"), L{a::tiled_1_tree});
  EXPECT_EQ(lines_of_step(t1, "dst[tile] = tile_data[0]"), L{a::tiled_1_commit});
  EXPECT_EQ(lines_of_step(sim_trace("amp.tiled_2", 256), "stride 4"), L{a::tiled_2_tree});
  EXPECT_EQ(lines_of_step(sim_trace("amp.tiled_3", 256), "stride 4"), L{a::tiled_3_tree});
  const Trace t4 = sim_trace("amp.tiled_4", 256);
  EXPECT_EQ(lines_of_step(t4, "tile_data[tid] = src[rel_idx] + src[rel_idx + tile_size]"), L{a::tiled_4_load});
  EXPECT_EQ(lines_of_step(t4, "stride 4"), L{a::tiled_4_tree});
  const Trace cc = sim_trace("amp.cascade", 256);
  EXPECT_EQ(lines_of_step(cc, "tile_data[tid] = 0"), L{a::cascade_zero});
  EXPECT_EQ(lines_of_step(cc, "iteration 0"), L{a::cascade_add});
  EXPECT_EQ(lines_of_step(cc, "partial[tile] = tile_data[0]"), L{a::cascade_commit});

  const Trace ks = sim_trace("stevens.kogge_stone", 256);
  EXPECT_EQ(ks.source_file, "stevens_scan.cu");
  EXPECT_EQ(lines_of_step(ks, "load the section into shared memory"), L{s::ks_load});
  EXPECT_EQ(lines_of_step(ks, "stride 2"), (L{s::ks_add, s::ks_write}));
  EXPECT_EQ(lines_of_step(ks, "write the section to the output"), L{s::ks_store});
  const Trace db = sim_trace("stevens.kogge_stone_db", 256);
  EXPECT_EQ(lines_of_step(db, "stride 2"), L{s::ksdb_add});
  EXPECT_EQ(lines_of_step(db, "write the section to the output"), L{s::ksdb_store});
  const Trace bk = sim_trace("stevens.brent_kung", 256);
  EXPECT_EQ(lines_of_step(bk, "load the section into shared memory"), (L{s::bk_load_low, s::bk_load_high}));
  EXPECT_EQ(bk.steps.at(1).lines, L{s::bk_up});
  EXPECT_EQ(bk.steps.at(bk.steps.size() - 2).lines, L{s::bk_down});
  EXPECT_EQ(lines_of_step(bk, "write the section to the output"), (L{s::bk_store_low, s::bk_store_high}));
  const Trace nsc = sim_trace("stevens.scan_naive", 64);
  EXPECT_EQ(nsc.steps.at(0).lines, L{s::naive_first});
  EXPECT_EQ(nsc.steps.at(1).lines, L{s::naive_add});
  EXPECT_EQ(nsc.steps.back().lines, L{s::naive_store});
  EXPECT_EQ(sim_trace("stevens.scan_hierarchical", 256).steps.at(1).lines, L{s::bk_up});
  namespace st = trace_points::stevens;
  const Trace dv = sim_trace("stevens.reduce_divergent", 256);
  EXPECT_EQ(dv.source_file, "stevens.cu");
  EXPECT_EQ(dv.steps.at(0).lines, (L{st::divergent_load_low, st::divergent_load_high}));
  EXPECT_EQ(lines_of_step(dv, "stride 64"), L{st::divergent_tree});
  EXPECT_EQ(dv.steps.back().lines, L{st::divergent_commit});
  EXPECT_EQ(lines_of_step(sim_trace("stevens.reduce_compact", 256), "stride 64"), L{st::compact_tree});

  namespace cv = trace_points::stevens_conv;
  const Trace c1 = sim_trace_f32("stevens.conv1d_tiled", 32);
  EXPECT_EQ(c1.source_file, "stevens_conv.cu");
  ASSERT_EQ(c1.steps.size(), 5u);
  EXPECT_EQ(c1.steps[0].lines, L{cv::tiled_1d_left});
  EXPECT_EQ(c1.steps[1].lines, L{cv::tiled_1d_internal});
  EXPECT_EQ(c1.steps[2].lines, L{cv::tiled_1d_right});
  EXPECT_EQ(c1.steps[3].lines, L{cv::tiled_1d_compute});
  EXPECT_EQ(c1.steps[4].lines, L{cv::tiled_1d_store});
  const Trace cb = sim_trace_f32("stevens.conv1d_basic", 32);
  EXPECT_EQ(cb.steps.at(0).lines, L{cv::basic_1d_compute});
  EXPECT_EQ(cb.steps.at(1).lines, L{cv::basic_1d_store});
  // Block 0 of the cached tile reads the right halo from N, the rest from N_ds: both statements.
  const Trace cc1 = sim_trace_f32("stevens.conv1d_tiled_cache", 32);
  EXPECT_EQ(cc1.steps.at(1).lines, (L{cv::tiled_cache_1d_shared, cv::tiled_cache_1d_global}));
  for (const char* id :
       {"stevens.conv1d_basic", "stevens.conv1d_const", "stevens.conv1d_tiled", "stevens.conv1d_tiled_cache"})
    expect_every_step_has_lines(sim_trace_f32(id, 32));

  for (const char* id :
       {"harris.naive", "harris.impl5", "harris.impl5_shfl", "harris.impl6", "harris.impl7", "amp.simple_1",
        "amp.simple_2", "amp.tiled_1", "amp.tiled_2", "amp.tiled_3", "amp.tiled_4", "amp.cascade", "stevens.scan_naive",
        "stevens.kogge_stone", "stevens.kogge_stone_db", "stevens.brent_kung", "stevens.scan_hierarchical",
        "stevens.reduce_divergent", "stevens.reduce_compact"})
    expect_every_step_has_lines(sim_trace(id, 256));
}

/// The sim trace of block `block` (-1: the last block of the grid) of `id` on `n` random elements of
/// the pattern's own type (a 2D convolution: an image of 150 x 70, two partial blocks at its edges),
/// with the variant's default launch, through the same checks as a run.
Trace pattern_trace(const std::string& id, std::int64_t n, std::int64_t block, std::string* refused = nullptr,
                    std::int64_t width = 150) {
  RunRequest req;
  req.variant = id;
  req.n = n;
  req.backend = BackendKind::Sim;
  if (find_variant(id) && conv_kind_is_2d(find_variant(id)->conv)) {
    req.n = 0;
    req.params.width = width;
    req.params.height = 70;
  }
  PreparedRun p;
  std::string err = prepare_run(req, p);
  LaunchConfig launch;
  if (err.empty()) err = resolve_launch(*p.variant, p.input.n(), p.input.type, req.launch, DeviceShape{}, launch);
  if (refused) *refused = err;
  if (!err.empty()) return {};
  if (block < 0) {
    block = launch.grid - 1;
    if (conv_kind_is_2d(p.variant->conv)) {  // a 2D grid: grid_x x grid_y blocks
      ConvGeometry g;
      EXPECT_EQ(conv_geometry(*p.variant, req.params.mask_width, req.params.tile, 0, width, 70, g), "") << id;
      block = g.blocks() - 1;
    }
  }
  return sim::simulate(*p.variant, p.input, launch, req.params, int(block)).trace;
}

// Every variant whose model traces its steps names, in every step and every op, the kernel line it came
// from: walked over the whole registry, so a variant added without WS_AT markers fails here. The first
// and the last block of a launch over a partial last tile, so both the whole-tile and the edge paths
// (vector loads and the element-wise ones, tile 0's publish and a later tile's look-back) are covered.
// Variants without steps are the library calls and the host code: never traceable.
TEST(TracePoints, EveryTracedVariantsEventsCarryALine) {
  int traced = 0;
  for (const VariantInfo& v : all_variants()) {
    if (v.cpu_only || !sim::has_model(v.id)) {
      EXPECT_FALSE(v.traceable) << v.id;
      continue;
    }
    std::string refused;
    std::int64_t n = 0;
    for (std::int64_t candidate : {std::int64_t(5000), std::int64_t(2048), std::int64_t(1024), std::int64_t(256)}) {
      pattern_trace(v.id, candidate, 0, &refused);
      if (refused.empty()) {
        n = candidate;
        break;
      }
    }
    ASSERT_GT(n, 0) << v.id << ": " << refused;
    for (std::int64_t block : {std::int64_t(0), std::int64_t(-1)}) {
      const Trace t = pattern_trace(v.id, n, block);
      if (t.steps.empty()) {
        EXPECT_FALSE(v.traceable) << v.id << " is traceable but its model records no steps";
        continue;
      }
      EXPECT_EQ(t.source_file.empty(), !t.has_lines()) << v.id;
      for (const Step& s : t.steps) {
        if (!s.ops.empty() || !s.working_threads.empty()) EXPECT_FALSE(s.lines.empty()) << v.id << " " << s.label;
        for (const ThreadOp& o : s.ops) {
          EXPECT_GT(o.line, 0) << v.id << " " << s.label;
          if (o.line <= 0) break;
        }
      }
      ++traced;
    }
  }
  EXPECT_GT(traced, 80);
}

// The variants marked last: the 2D convolutions, the atomics lesson and the decoupled look-back. Each
// step lists exactly the statements whose ops it holds.
TEST(TracePoints, ConvolutionAtomicsAndLookbackStepsCarryTheirLines) {
  namespace cv = trace_points::stevens_conv;
  namespace at = trace_points::cs121_atomics;
  namespace dl = trace_points::decoupled_lookback;
  using L = std::vector<int>;

  const Trace b2 = pattern_trace("stevens.conv2d_basic", 0, 0);
  EXPECT_EQ(b2.source_file, "stevens_conv.cu");
  ASSERT_EQ(b2.steps.size(), 2u);
  EXPECT_EQ(b2.steps[0].lines, L{cv::basic_2d_compute});
  EXPECT_EQ(b2.steps[1].lines, L{cv::basic_2d_store});
  // Block 0 of conv2d_tiled sits at the image's corner: its top and left halo threads store ghost
  // cells (0) and the others load N; block 7 (second row, second column) is inside the image.
  const Trace t2 = pattern_trace("stevens.conv2d_tiled", 0, 0);
  ASSERT_EQ(t2.steps.size(), 3u);
  EXPECT_EQ(t2.steps[0].lines, (L{cv::tiled_2d_load, cv::tiled_2d_ghost}));
  EXPECT_EQ(t2.steps[1].lines, L{cv::tiled_2d_compute});
  EXPECT_EQ(t2.steps[2].lines, L{cv::tiled_2d_store});
  EXPECT_EQ(pattern_trace("stevens.conv2d_tiled", 0, 7).steps.at(0).lines, L{cv::tiled_2d_load});
  const Trace c2 = pattern_trace("stevens.conv2d_tiled_coarse", 0, 0);
  ASSERT_EQ(c2.steps.size(), 3u);
  EXPECT_EQ(c2.steps[0].lines, L{cv::coarse_2d_load});
  EXPECT_EQ(c2.steps[1].lines, L{cv::coarse_2d_row});
  EXPECT_EQ(c2.steps[2].lines, L{cv::coarse_2d_store});
  // conv2d_register_tiled: scalar loads and stores at a width of 150, float4 ones at 152.
  const Trace r2 = pattern_trace("stevens.conv2d_register_tiled", 0, 0);
  ASSERT_GE(r2.steps.size(), 3u);
  EXPECT_EQ(r2.steps[0].lines, L{cv::register_2d_load});
  EXPECT_EQ(r2.steps[1].lines, L{cv::register_2d_fma});
  EXPECT_EQ(r2.steps.back().lines, L{cv::register_2d_store});
  const Trace r4 = pattern_trace("stevens.conv2d_register_tiled", 0, 0, nullptr, 152);
  ASSERT_GE(r4.steps.size(), 3u);
  EXPECT_EQ(r4.steps[0].lines, L{cv::register_2d_load_vec});
  EXPECT_EQ(r4.steps.back().lines, L{cv::register_2d_store_vec});

  const Trace race = pattern_trace("cs121.race", 5000, 0);
  EXPECT_EQ(race.source_file, "cs121_atomics.cu");
  ASSERT_EQ(race.steps.size(), 2u);
  EXPECT_EQ(race.steps[0].lines, L{at::race_add});  // the read of *d_a += 1
  EXPECT_EQ(race.steps[1].lines, L{at::race_add});  // its write
  EXPECT_EQ(pattern_trace("cs121.atomic_counter", 5000, 0).steps.at(0).lines, L{at::counter_add});
  for (const Step& s : pattern_trace("cs121.hist_global", 5000, 0).steps)
    EXPECT_EQ(s.lines, L{at::hist_global_add}) << s.label;
  const Trace hs = pattern_trace("cs121.hist_shared", 5000, 0);
  EXPECT_EQ(hs.steps.front().lines, L{at::hist_shared_zero});
  EXPECT_EQ(hs.steps.at(1).lines, L{at::hist_shared_add});
  EXPECT_EQ(hs.steps.back().lines, L{at::hist_shared_flush});
  // hist_shared_vec: one uint4 load and the four byte atomics of each word; block 0 counts the 8 tail bytes.
  const Trace hv = pattern_trace("cs121.hist_shared_vec", 5000, 0);
  EXPECT_EQ(hv.steps.front().lines, L{at::vec_zero});
  EXPECT_EQ(hv.steps.at(1).lines,
            (L{at::vec_load, at::vec_add_byte0, at::vec_add_byte1, at::vec_add_byte2, at::vec_add_byte3}));
  EXPECT_EQ(hv.steps.at(hv.steps.size() - 2).lines, L{at::vec_tail});
  EXPECT_EQ(hv.steps.back().lines, (L{at::vec_sum, at::vec_flush}));
  const Trace fg = pattern_trace("cs121.filter_global", 5000, 0);
  ASSERT_EQ(fg.steps.size(), 3u);
  EXPECT_EQ(fg.steps[0].lines, L{at::filter_global_test});
  EXPECT_EQ(fg.steps[1].lines, L{at::filter_global_keep});
  EXPECT_EQ(fg.steps[2].lines, L{at::filter_global_keep});
  const Trace fs = pattern_trace("cs121.filter_shared", 5000, 0);
  ASSERT_GE(fs.steps.size(), 3u);
  EXPECT_EQ(fs.steps[0].lines, (L{at::filter_shared_zero, at::filter_shared_load, at::filter_shared_count}));
  EXPECT_EQ(fs.steps[1].lines, L{at::filter_shared_reserve});
  EXPECT_EQ(fs.steps[2].lines, (L{at::filter_shared_offset, at::filter_shared_store}));
  const Trace fw = pattern_trace("cs121.filter_warp_agg", 5000, 0);
  ASSERT_EQ(fw.steps.size(), 5u);
  EXPECT_EQ(fw.steps[0].lines, L{at::warp_agg_test});
  EXPECT_EQ(fw.steps[1].lines, L{at::warp_agg_ballot});
  EXPECT_EQ(fw.steps[2].lines, L{at::warp_agg_atomic});
  EXPECT_EQ(fw.steps[3].lines, L{at::warp_agg_shfl});
  EXPECT_EQ(fw.steps[4].lines, L{at::warp_agg_store});
  // filter_scan at n = 5000: tile 0 publishes first, tile 1 looks back.
  const Trace fc0 = pattern_trace("cs121.filter_scan", 5000, 0), fc1 = pattern_trace("cs121.filter_scan", 5000, 1);
  EXPECT_EQ(lines_of_step(fc0, "v[k] = src[tile * 4096 + k * 256 + t] (16 striped loads)"), L{at::scan_load});
  EXPECT_EQ(lines_of_step(fc0, "cnt[k * 8 + warp] = __popc(__ballot_sync(full, v[k] > 0)) (lane 0)"),
            L{at::scan_count});
  EXPECT_EQ(lines_of_step(fc0, "warp 0: exclusive scan of the 128 counts"), L{at::scan_counts});
  const std::string look = "warp 0: read the status of up to 32 earlier tiles, publish this tile's prefix";
  EXPECT_EQ(lines_of_step(fc0, look), L{at::scan_publish_first});
  EXPECT_EQ(lines_of_step(fc1, look), (L{at::scan_peek, at::scan_publish_prefix}));
  EXPECT_EQ(fc0.steps.back().lines, L{at::scan_store});
  // filter_scan_vec at n = 20000: tiles of 8192, so tile 0 loads int4s and the last tile value by value.
  const Trace fv0 = pattern_trace("cs121.filter_scan_vec", 20000, 0),
              fv2 = pattern_trace("cs121.filter_scan_vec", 20000, -1);
  EXPECT_EQ(fv0.steps.at(0).lines, L{at::svec_load});
  EXPECT_EQ(fv2.steps.at(0).lines, (L{at::svec_load_x, at::svec_load_y, at::svec_load_z, at::svec_load_w}));
  EXPECT_EQ(fv0.steps.at(1).lines, L{at::svec_count});
  EXPECT_EQ(fv0.steps.at(2).lines, L{at::svec_counts});
  EXPECT_EQ(lines_of_step(fv0, look), L{at::svec_publish_first});
  EXPECT_EQ(lines_of_step(fv2, look), (L{at::svec_peek, at::svec_publish_prefix}));
  EXPECT_EQ(fv0.steps.at(4).lines, (L{at::svec_stage_x, at::svec_stage_y, at::svec_stage_z, at::svec_stage_w}));
  EXPECT_EQ(fv0.steps.at(5).lines.front(), at::svec_store_quad);

  // decoupled look-back at n = 10000 (tiles of 8192 at the default 512 threads): tile 0 is whole (128-bit
  // loads and stores), tile 1 partial.
  const Trace d0 = pattern_trace("scan.decoupled_lookback", 10000, 0),
              d1 = pattern_trace("scan.decoupled_lookback", 10000, 1);
  EXPECT_EQ(d0.source_file, "decoupled_lookback.cu");
  EXPECT_EQ(d0.steps.at(0).lines, L{dl::dl_load_vec});
  EXPECT_EQ(d1.steps.at(0).lines, L{dl::dl_load});
  EXPECT_EQ(d0.steps.at(1).lines, L{dl::dl_thread_sum});
  EXPECT_EQ(lines_of_step(d0, "shfl_up 1"), (L{dl::dl_shfl, dl::dl_warp_add}));
  EXPECT_EQ(lines_of_step(d0, "shfl_up 16"), (L{dl::dl_shfl, dl::dl_warp_add}));
  EXPECT_EQ(d0.steps.at(d0.steps.size() - 3).lines, (L{dl::dl_warp_total, dl::dl_block_scan}));
  EXPECT_EQ(d0.steps.at(d0.steps.size() - 2).lines, L{dl::dl_publish_first});
  EXPECT_EQ(d1.steps.at(d1.steps.size() - 2).lines, (L{dl::dl_peek, dl::dl_publish_prefix}));
  EXPECT_EQ(d0.steps.back().lines, (L{dl::dl_tile_prefix, dl::dl_lane_prefix, dl::dl_incl, dl::dl_store_vec}));
  EXPECT_EQ(d1.steps.back().lines, (L{dl::dl_tile_prefix, dl::dl_lane_prefix, dl::dl_incl, dl::dl_store}));
}

// The per-line counters of the bundled reports (runs[].metrics.lines) name lines of the kernels as they
// are now: every one on a line of code, never on a blank, a comment or a trace-point line. A kernel
// edit that shifts lines (markers, comments) fails here until the reports follow it
// (scripts/remap_report_lines.py REPORT REV, or a new recording).
TEST(TracePoints, ReportLineCountersNameLinesOfCode) {
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(WS_TEST_DIR) + "/../assets/reports")) {
    if (entry.path().extension() != ".json") continue;
    std::ifstream in(entry.path());
    const nlohmann::json report = nlohmann::json::parse(in, nullptr, false);
    if (report.is_discarded() || !report.contains("runs")) continue;
    std::map<std::string, std::vector<std::string>> files;
    for (const auto& run : report["runs"]) {
      if (!run.contains("metrics") || !run["metrics"].contains("lines")) continue;
      for (const auto& l : run["metrics"]["lines"]) {
        const std::string file = l.value("file", "");
        const bool kernel_file = (file.size() > 3 && file.substr(file.size() - 3) == ".cu") ||
                                 (file.size() > 4 && file.substr(file.size() - 4) == ".cuh");
        if (!kernel_file) continue;
        if (!files.count(file)) files[file] = lines_of(read_kernel(file));
        const std::vector<std::string>& text = files[file];
        if (text.empty()) continue;  // not one of ours (a toolkit header)
        const int line = l.value("line", 0);
        ASSERT_GE(line, 1) << entry.path().filename() << " " << file;
        ASSERT_LE(line, int(text.size())) << entry.path().filename() << " " << file;
        EXPECT_NE(trace_code_of(text[std::size_t(line - 1)]), "")
            << entry.path().filename().string() << ": " << run.value("variant", "") << " counts " << file << ":" << line
            << ", which is no code: \"" << text[std::size_t(line - 1)] << "\"";
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 300);
}

}  // namespace
}  // namespace ws
