// The step-by-step pictures (app/core/collective/contributors.hpp): which GPUs each chunk sums after each
// step, for the ring and the tree on 1 to 8 GPUs, and that they agree with the values apply_schedule moves.
#include <gtest/gtest.h>

#include <stdexcept>

#include "collective/allreduce_run.hpp"
#include "collective/contributors.hpp"
#include "collective/schedule.hpp"

using namespace ws::collective;

TEST(CollectiveContributors, BeforeAnyStepEachGpuHoldsItsOwnValues) {
  for (Algorithm a : {Algorithm::Ring, Algorithm::Tree})
    for (int n = 1; n <= kMaxGpus; ++n) {
      const Schedule s = make_schedule(a, n);
      const auto held = contributors_after(s, 0);
      ASSERT_EQ(int(held.size()), n);
      for (int g = 0; g < n; ++g) {
        ASSERT_EQ(int(held[g].size()), s.chunks);
        for (int c = 0; c < s.chunks; ++c) EXPECT_EQ(held[g][c], GpuMask(1u << g));
      }
    }
}

TEST(CollectiveContributors, AfterTheRingsReduceScatterGpuIHoldsChunkIPlusOneWhole) {
  for (int n = 2; n <= kMaxGpus; ++n) {
    const Schedule s = ring_schedule(n);
    const auto held = contributors_after(s, n - 1);
    for (int i = 0; i < n; ++i) {
      EXPECT_EQ(held[i][(i + 1) % n], all_gpus_mask(n)) << n << " GPUs, GPU " << i;
      // Every other chunk of GPU i still misses someone: the all-gather has not started.
      for (int c = 0; c < n; ++c)
        if (c != (i + 1) % n) EXPECT_NE(held[i][c], all_gpus_mask(n)) << n << " GPUs, GPU " << i << " chunk " << c;
    }
  }
}

TEST(CollectiveContributors, AfterTheLastStepEveryChunkEverywhereHoldsAllGpus) {
  for (Algorithm a : {Algorithm::Ring, Algorithm::Tree})
    for (int n = 1; n <= kMaxGpus; ++n) {
      const Schedule s = make_schedule(a, n);
      const auto held = contributors_after(s, int(s.steps.size()));
      for (int g = 0; g < n; ++g)
        for (int c = 0; c < s.chunks; ++c) EXPECT_EQ(held[g][c], all_gpus_mask(n)) << to_string(a) << " " << n;
    }
}

TEST(CollectiveContributors, AfterTheTreesReduceGpuZeroAloneHoldsTheSum) {
  for (int n = 2; n <= kMaxGpus; ++n) {
    const Schedule s = tree_schedule(n);
    const int levels = int(s.steps.size()) / 2;
    const auto held = contributors_after(s, levels);
    EXPECT_EQ(held[0][0], all_gpus_mask(n)) << n;
    for (int g = 1; g < n; ++g) EXPECT_NE(held[g][0], all_gpus_mask(n)) << n << " GPU " << g;
  }
}

TEST(CollectiveContributors, MasksMatchTheValuesTheScheduleMoves) {
  // With GPU g's input 2^g in every element, a chunk's value is the sum of the masks' bits: the picture
  // and apply_schedule must agree after every step.
  for (Algorithm a : {Algorithm::Ring, Algorithm::Tree})
    for (int n = 1; n <= kMaxGpus; ++n) {
      const Schedule s = make_schedule(a, n);
      const std::int64_t length = 3 * n + 1;
      for (int k = 0; k <= int(s.steps.size()); ++k) {
        std::vector<std::vector<float>> b(n, std::vector<float>(length));
        for (int g = 0; g < n; ++g)
          for (auto& v : b[g]) v = float(1 << g);
        apply_schedule(s, b, k);
        const auto held = contributors_after(s, k);
        for (int g = 0; g < n; ++g)
          for (int c = 0; c < s.chunks; ++c) {
            const Range r = chunk_range(length, s.chunks, c);
            for (std::int64_t e = r.begin; e < r.end; ++e)
              ASSERT_EQ(b[g][e], float(held[g][c])) << to_string(a) << " n=" << n << " step " << k << " GPU " << g;
          }
      }
    }
}

TEST(CollectiveContributors, StepsOutsideTheScheduleAreRefused) {
  const Schedule s = ring_schedule(4);
  EXPECT_THROW(contributors_after(s, -1), std::invalid_argument);
  EXPECT_THROW(contributors_after(s, int(s.steps.size()) + 1), std::invalid_argument);
}

TEST(CollectiveContributors, MaskTextNamesTheGpus) {
  EXPECT_EQ(mask_text(0b1011, 4), "0+1+3");
  EXPECT_EQ(mask_text(0b1111, 4), "all");
  EXPECT_EQ(mask_text(0b0100, 4), "2");
  EXPECT_EQ(mask_text(0, 4), "-");
  EXPECT_EQ(all_gpus_mask(8), GpuMask(0xff));
}
