// The all-reduce schedules (app/core/collective/schedule.hpp): their shape, and that running them on the host
// leaves every GPU's vector equal to the element-wise sum, for 1 to 8 GPUs and lengths that do not divide.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "collective/schedule.hpp"

using namespace ws::collective;

namespace {

std::vector<std::vector<float>> inputs(int gpus, std::int64_t length) {
  std::vector<std::vector<float>> b(gpus, std::vector<float>(length));
  for (int g = 0; g < gpus; ++g)
    for (std::int64_t e = 0; e < length; ++e) b[g][e] = float((g + 1) * 100 + e % 7);  // exact in float
  return b;
}

}  // namespace

TEST(CollectiveSchedule, TheRingHasTwoTimesNMinusOneStepsOfNMoves) {
  for (int n = 1; n <= kMaxGpus; ++n) {
    const Schedule s = ring_schedule(n);
    EXPECT_EQ(s.chunks, n);
    ASSERT_EQ(int(s.steps.size()), 2 * (n - 1)) << n;
    for (int k = 0; k < int(s.steps.size()); ++k) {
      EXPECT_EQ(s.steps[k].phase, k < n - 1 ? Phase::ReduceScatter : Phase::AllGather);
      ASSERT_EQ(int(s.steps[k].moves.size()), n);
      std::set<int> senders, receivers;
      for (const ChunkMove& m : s.steps[k].moves) {
        EXPECT_EQ(m.dst_gpu, (m.src_gpu + 1) % n);  // a ring: each GPU sends to its neighbour
        EXPECT_EQ(m.add, k < n - 1);
        senders.insert(m.src_gpu);
        receivers.insert(m.dst_gpu);
      }
      EXPECT_EQ(int(senders.size()), n);
      EXPECT_EQ(int(receivers.size()), n);
    }
  }
}

TEST(CollectiveSchedule, TheRingOnFourGpusMovesTheChunksOfTheTextbookPicture) {
  const Schedule s = ring_schedule(4);
  // Reduce-scatter step 0: GPU i sends its own chunk i; step 1: the chunk it just received, i - 1.
  EXPECT_EQ(s.steps[0].moves[2], (ChunkMove{2, 3, 2, true}));
  EXPECT_EQ(s.steps[1].moves[2], (ChunkMove{2, 3, 1, true}));
  EXPECT_EQ(s.steps[2].moves[0], (ChunkMove{0, 1, 2, true}));
  // All-gather step 0: GPU i sends chunk i + 1, the one it finished.
  EXPECT_EQ(s.steps[3].moves[0], (ChunkMove{0, 1, 1, false}));
  EXPECT_EQ(s.steps[3].moves[3], (ChunkMove{3, 0, 0, false}));
}

TEST(CollectiveSchedule, TheTreeReducesToGpuZeroThenBroadcasts) {
  const Schedule s = tree_schedule(5);
  ASSERT_EQ(s.steps.size(), 6u);  // ceil(log2 5) = 3 levels, twice
  EXPECT_EQ(s.steps[0].moves, (std::vector<ChunkMove>{{1, 0, 0, true}, {3, 2, 0, true}}));
  EXPECT_EQ(s.steps[1].moves, (std::vector<ChunkMove>{{2, 0, 0, true}}));
  EXPECT_EQ(s.steps[2].moves, (std::vector<ChunkMove>{{4, 0, 0, true}}));
  EXPECT_EQ(s.steps[3].moves, (std::vector<ChunkMove>{{0, 4, 0, false}}));
  EXPECT_EQ(s.steps[5].phase, Phase::Broadcast);
  EXPECT_EQ(s.steps[5].moves, (std::vector<ChunkMove>{{0, 1, 0, false}, {2, 3, 0, false}}));
  EXPECT_TRUE(tree_schedule(1).steps.empty());
}

TEST(CollectiveSchedule, EveryScheduleLeavesTheSumOnEveryGpu) {
  for (Algorithm a : {Algorithm::Ring, Algorithm::Tree})
    for (int n = 1; n <= kMaxGpus; ++n)
      for (std::int64_t length : {1, 7, 64, 1001}) {
        auto b = inputs(n, length);
        const auto in = b;
        apply_schedule(make_schedule(a, n), b);
        for (int g = 0; g < n; ++g)
          for (std::int64_t e = 0; e < length; ++e) {
            float want = 0;
            for (int h = 0; h < n; ++h) want += in[h][e];
            ASSERT_EQ(b[g][e], want) << to_string(a) << " n=" << n << " length=" << length << " gpu " << g;
          }
      }
}

TEST(CollectiveSchedule, StepsCanBeRunOneAtATime) {
  auto b = inputs(3, 3);  // one element per chunk
  const Schedule s = ring_schedule(3);
  apply_schedule(s, b, 1);
  // Step 0: GPU 0's chunk 0 went to GPU 1, GPU 1's chunk 1 to GPU 2, GPU 2's chunk 2 to GPU 0.
  EXPECT_EQ(b[1][0], 100.f + 200.f);
  EXPECT_EQ(b[2][1], 201.f + 301.f);
  EXPECT_EQ(b[0][2], 102.f + 302.f);
  EXPECT_EQ(b[0][0], 100.f);  // untouched
}

TEST(CollectiveSchedule, ChunksSplitALengthThatDoesNotDivide) {
  EXPECT_EQ(chunk_range(10, 4, 0).begin, 0);
  EXPECT_EQ(chunk_range(10, 4, 0).end, 3);
  EXPECT_EQ(chunk_range(10, 4, 1).end, 6);
  EXPECT_EQ(chunk_range(10, 4, 3).begin, 8);
  EXPECT_EQ(chunk_range(10, 4, 3).end, 10);
  EXPECT_EQ(chunk_range(2, 4, 3).begin, chunk_range(2, 4, 3).end);  // an empty chunk
  EXPECT_THROW(chunk_range(10, 4, 4), std::invalid_argument);
}

TEST(CollectiveSchedule, BytesAndBandwidthFollowNcclTests) {
  const std::int64_t length = 1 << 20;
  for (int n = 2; n <= kMaxGpus; ++n)
    for (int g = 0; g < n; ++g)
      EXPECT_NEAR(double(elements_sent(ring_schedule(n), length, g)), 2.0 * (n - 1) / n * length, 2.0 * n);
  EXPECT_EQ(elements_sent(tree_schedule(4), 100, 0), 200);  // GPU 0 only broadcasts: to 2, then to 1
  EXPECT_EQ(elements_sent(tree_schedule(4), 100, 3), 100);
  EXPECT_DOUBLE_EQ(algorithm_bandwidth_gbs(256 << 20, 1.0), 268.435456);
  EXPECT_DOUBLE_EQ(bus_bandwidth_gbs(256 << 20, 1.0, 2), 268.435456);
  EXPECT_DOUBLE_EQ(bus_bandwidth_gbs(256 << 20, 1.0, 4), 268.435456 * 1.5);
  EXPECT_EQ(algorithm_bandwidth_gbs(100, 0), 0.0);
}

TEST(CollectiveSchedule, GpuCountsOutsideOneToEightAreRefused) {
  EXPECT_THROW(ring_schedule(0), std::invalid_argument);
  EXPECT_THROW(tree_schedule(9), std::invalid_argument);
  std::vector<std::vector<float>> two(2, std::vector<float>(4));
  EXPECT_THROW(apply_schedule(ring_schedule(3), two), std::invalid_argument);
}
