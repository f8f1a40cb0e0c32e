// HostVector: run-sized arrays that are zero when new (mmap'd or zeroed blocks) without a zeroing loop.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "host_vector.hpp"

using namespace ws;

TEST(HostVector, NewElementsAreZeroSmallAndLarge) {
  for (std::size_t n : {std::size_t(1), std::size_t(1000), std::size_t(3) << 20}) {  // operator new and mmap blocks
    HostVector<double> d(n);
    HostVector<std::int32_t> i;
    i.resize(n);
    std::size_t nonzero = 0;
    for (std::size_t k = 0; k < n; ++k) nonzero += (d[k] != 0.0) + (i[k] != 0);
    EXPECT_EQ(nonzero, 0u) << n;
    d[n - 1] = 5;
    d.resize(2 * n);  // a reallocation: the new tail is zero too
    EXPECT_EQ(d[n - 1], 5.0);
    EXPECT_EQ(d[2 * n - 1], 0.0);
  }
}

TEST(HostVector, ValuesAndConversions) {
  HostVector<float> a(4, 1.5f);
  EXPECT_EQ(a, (std::vector<float>{1.5f, 1.5f, 1.5f, 1.5f}));
  a = std::vector<float>{1, 2};
  EXPECT_EQ(a.size(), 2u);
  a = {3, 4, 5};
  EXPECT_EQ(a.to_vector(), (std::vector<float>{3, 4, 5}));
  a.assign(3, 0.0f);  // re-grown inside the capacity: assign, not resize, gives zeros
  EXPECT_EQ(a, (std::vector<float>{0, 0, 0}));
  const ConstSpan<float> s(a);
  EXPECT_EQ(s.size(), 3u);
  EXPECT_EQ(s.data(), a.data());
}
