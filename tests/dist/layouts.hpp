// How the tests spread one global input over N ranks: even slices, one rank holding most, empty
// ranks, and random sizes. Rank r holds the global elements [start_r, start_r + size_r), ranks in
// order, as the distributed calls assume.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace bkt::test::dist {

struct layout {
  std::string name;
  std::function<std::vector<std::int64_t>(std::int64_t n, int num_ranks)> sizes;
};

inline std::vector<layout> layouts() {
  std::vector<layout> all;
  all.push_back({"even", [](std::int64_t n, int ranks) {
                   std::vector<std::int64_t> s(ranks);
                   for (int r = 0; r < ranks; ++r) s[r] = (r + 1) * n / ranks - r * n / ranks;
                   return s;
                 }});
  // Rank 0 holds 90 %, the others share the rest: very different sizes.
  all.push_back({"one_heavy", [](std::int64_t n, int ranks) {
                   std::vector<std::int64_t> s(ranks, 0);
                   const std::int64_t rest = ranks > 1 ? n / 10 : 0;
                   s[0] = n - rest;
                   for (int r = 1; r < ranks; ++r) s[r] = r * rest / (ranks - 1) - (r - 1) * rest / (ranks - 1);
                   return s;
                 }});
  // Every other rank empty, the last one too; rank 0 always holds something when n > 0.
  all.push_back({"empty_ranks", [](std::int64_t n, int ranks) {
                   std::vector<std::int64_t> s(ranks, 0);
                   std::vector<int> holders;
                   for (int r = 0; r < ranks; ++r)
                     if (r % 2 == 0 && (r != ranks - 1 || ranks == 1)) holders.push_back(r);
                   const auto h = static_cast<std::int64_t>(holders.size());
                   for (std::int64_t i = 0; i < h; ++i) s[holders[i]] = (i + 1) * n / h - i * n / h;
                   return s;
                 }});
  all.push_back({"random", [](std::int64_t n, int ranks) {
                   std::mt19937_64 rng(static_cast<std::uint64_t>(n) * 31 + static_cast<std::uint64_t>(ranks));
                   std::vector<std::int64_t> cuts = {0, n};
                   for (int r = 1; r < ranks; ++r)
                     cuts.push_back(n == 0 ? 0 : static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(n + 1)));
                   std::sort(cuts.begin(), cuts.end());
                   std::vector<std::int64_t> s(ranks);
                   for (int r = 0; r < ranks; ++r) s[r] = cuts[r + 1] - cuts[r];
                   return s;
                 }});
  return all;
}

/// Where each rank's slice starts.
inline std::vector<std::int64_t> starts_of(const std::vector<std::int64_t>& sizes) {
  std::vector<std::int64_t> starts(sizes.size());
  std::int64_t at = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    starts[r] = at;
    at += sizes[r];
  }
  return starts;
}

/// The global input cut into the ranks' inputs.
template <class T>
std::vector<std::vector<T>> split(const std::vector<T>& all, const std::vector<std::int64_t>& sizes) {
  std::vector<std::vector<T>> parts(sizes.size());
  std::int64_t at = 0;
  for (std::size_t r = 0; r < sizes.size(); ++r) {
    parts[r].assign(all.begin() + at, all.begin() + at + sizes[r]);
    at += sizes[r];
  }
  return parts;
}

}  // namespace bkt::test::dist
