// The host side of the GPU shortest paths: buffers, and one loop per algorithm. Each round relaxes
// one frontier, its edges dealt evenly over the grid (gpu/balanced_relax.cuh); the host reads a
// few counters back after it (one small copy and one wait per round) to size the next.
//
// Queues hold vertex ids. A vertex is in at most one queue at a time: its pending flag is set
// when an improvement queues it and cleared when it is expanded (gpu/relax.cuh), so a queue never
// holds more than the vertex count and duplicates cost nothing.
//
//  - delta-stepping: the whole queue is split by bkt::multisplit with delta_buckets of each
//    vertex's distance (bucket = floor((distance - base) / delta), relative to the current base)
//    into delta_buckets_per_round buckets; the lowest non-empty bucket is the frontier, and the
//    rest stays queued, in bucket order, behind it; new vertices are appended after them. The
//    next rounds walk those buckets in order and split only the appends (into the same buckets),
//    relaxing a bucket's region and its appended part together, until the appends grow to half of
//    what is left or the buckets run out; then the whole queue is split again. (Splitting all of
//    it every round took close to half of R-MAT 22's kernel time: docs/tools/bkt-sssp.md.) Once
//    the search is past its largest frontier, a round takes the buckets after its lowest as well
//    while they are small (R-MAT 22 then needs about a quarter of the rounds). A vertex whose distance falls
//    while it waits in a later region is expanded when the walk gets there, as a label-correcting
//    method allows. Short queues go to one persistent kernel instead (gpu/persistent_rounds.cuh).
//  - Near-Far: improvements below the threshold go to the next near frontier, the rest to a far
//    pile that is only looked at once the near side runs dry; then the threshold moves past the
//    smallest far key and the pile is split in two.
//  - Bellman-Ford: every improvement is in the next frontier (no buckets).
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <sstream>

#include "bkt/device/occupancy.cuh"
#include "bkt/device_buffer.hpp"
#include "bkt/error.hpp"
#include "bkt/multisplit.cuh"
#include "bkt/workspace.hpp"
#include "gpu/balanced_relax.cuh"
#include "gpu/persistent_rounds.cuh"
#include "gpu/queue_kernels.cuh"
#include "gpu/relax.cuh"
#include "gpu/solver.hpp"

namespace bkt::sssp {
namespace {

/// Buckets per multisplit: more only lets a round jump further ahead when low buckets are empty.
constexpr int delta_buckets_per_round = 32;
/// After a full split, rounds walk its buckets and split only what was appended since, while that
/// is at most 1 / walk_append_share of the queue left; then the whole queue is split again.
constexpr std::int64_t walk_append_share = 2;
/// A host round's frontier takes the buckets after its lowest too while it stays within
/// 1 / bucket_merge_share of the largest frontier so far (gpu/queue_kernels.cuh: split_frontier),
/// so small rounds merge once the search is past its peak, never while the frontier still grows.
/// Of the shares measured on R-MAT 22 and 24 (docs/tools/bkt-sssp.md), 2 is best or close on both;
/// 1 merges R-MAT 24's rounds too early. A fixed cap instead merged the growing rounds too.
constexpr std::int64_t bucket_merge_share = 2;
/// Queues this short go to the persistent kernel (gpu/persistent_rounds.cuh), which hands back to
/// the multisplit rounds once a frontier exceeds persistent_hand_back_above. Large graphs with hubs
/// skip the kernel (round_mode::automatic): R-MAT 22 ran alike with every pair of thresholds tried,
/// and faster with host rounds alone (docs/tools/bkt-sssp.md).
constexpr std::int64_t persistent_enter_below = std::int64_t{1} << 15;
constexpr unsigned long long persistent_hand_back_above = 1ull << 18;
/// default_delta: Davidson et al.'s bucket width, a warp's worth (32) times Meyer and Sanders'
/// weight / degree, scaled by the graph's shape. Measured on seven graphs (docs/tools/bkt-sssp.md):
/// large graphs with hubs (R-MAT) ran fastest at 1/16 of it, where narrow buckets spare
/// re-relaxations and the frontier still fills the GPU within a few rounds; graphs without hubs
/// (grids, road networks) and small graphs are bound by their number of rounds and ran fastest at
/// 16 times it. Once the persistent rounds relaxed their own improvements block by block (bucket
/// fusion), rounds grew cheap and 8 times became the better multiple there (much better on the
/// grids, a little worse on Luxembourg's roads).
constexpr double delta_warp_factor = 32;
constexpr double hub_graph_multiple = 1.0 / 16;
constexpr double round_bound_multiple = 8;
/// A graph "has hubs" when its largest out-degree is at least this many times the mean...
constexpr double hub_degree_ratio = 16;
/// ... and it is not small: below this many vertices no bucket fills the GPU anyway.
constexpr std::int64_t small_graph_vertices = std::int64_t{1} << 16;

/// Threads a block of the small grid-stride kernels (fill, minimum, piling and splitting queues:
/// gpu/queue_kernels.cuh), and their grids' cap in blocks a multiprocessor (8 x 256 threads: as
/// many as an H100 multiprocessor holds at once).
constexpr int sweep_block_threads = 256;
constexpr int sweep_blocks_per_multiprocessor = 8;

/// The slots of gpu_solver's `counters`, one 64-bit device counter each.
enum counter_slot : int {
  hub_count_slot = 0,  // relax_args_for's hub list (the persistent rounds count theirs in persistent_state)
  far_count_slot = 1,  // the two far piles' counts: this slot and the next
  stats_slot = 3,      // relax_args::stats: gpu::relax_stat_count counters from here
  counter_slot_count = stats_slot + gpu::relax_stat_count,
};

/// One round_info in pinned host memory, for the copy after each round.
class pinned_info {
 public:
  pinned_info() { BKT_CUDA_CHECK(cudaMallocHost(&info_, sizeof(gpu::round_info))); }
  ~pinned_info() { cudaFreeHost(info_); }
  pinned_info(const pinned_info&) = delete;
  pinned_info& operator=(const pinned_info&) = delete;
  gpu::round_info* get() const { return info_; }

 private:
  gpu::round_info* info_ = nullptr;
};

class event_pair {
 public:
  event_pair() {
    BKT_CUDA_CHECK(cudaEventCreate(&start));
    BKT_CUDA_CHECK(cudaEventCreate(&stop));
  }
  ~event_pair() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  event_pair(const event_pair&) = delete;
  event_pair& operator=(const event_pair&) = delete;
  cudaEvent_t start{}, stop{};
};

std::int64_t largest_out_degree(const std::vector<std::int64_t>& offsets) {
  std::int64_t largest = 0;
  for (std::size_t v = 0; v + 1 < offsets.size(); ++v) largest = std::max(largest, offsets[v + 1] - offsets[v]);
  return largest;
}

int grid_for(std::int64_t items, std::int64_t items_per_block, int max_blocks) {
  const std::int64_t blocks = (items + items_per_block - 1) / items_per_block;
  return static_cast<int>(std::clamp<std::int64_t>(blocks, 1, max_blocks));
}

}  // namespace

template <edge_weight Weight>
struct gpu_solver<Weight>::state {
  using D = distance_t<Weight>;
  cudaStream_t stream;
  std::int64_t num_vertices;
  std::int64_t num_edges;
  std::int64_t capacity;  // vertices: a vertex is in one queue at most
  int max_blocks;  // the grid-stride kernels' largest grid
  int edge_blocks;  // relax_edges_kernel's grid: all resident at once, so that equal shares end together
  int claim_blocks;  // claim_frontier_kernel's largest grid (its blocks take tiles until the frontier ends)
  device_buffer<std::int64_t> offsets;
  device_buffer<vertex> targets;
  device_buffer<Weight> weights;
  device_buffer<D> distances;
  device_buffer<unsigned> pending;  // in the near queue (or the only queue)
  device_buffer<unsigned> piled;    // in the far pile
  device_buffer<vertex> queues[2];
  device_buffer<vertex> far[2];  // Near-Far and the persistent rounds only, allocated on first use
  device_buffer<vertex> hubs;
  device_buffer<D> hub_distances;
  device_buffer<gpu::round_info> info;
  device_buffer<unsigned long long> counters;  // counter_slot_count, by counter_slot
  device_buffer<std::int64_t> bucket_offsets;  // of delta-stepping's last full split
  device_buffer<std::int64_t> append_offsets;  // of the appends a walk round splits
  device_buffer<gpu::persistent_state> loop_state;
  // The host rounds' claimed frontier (gpu/balanced_relax.cuh): a frontier holds each vertex once.
  device_buffer<D> claimed_keys;
  device_buffer<std::int64_t> claimed_firsts;
  device_buffer<std::int64_t> claimed_ends;
  device_buffer<std::uint64_t> claim_scan;
  int persistent_blocks = 0;  // 0: no persistent rounds (round_mode::host, or no cooperative launch)
  workspace ws;
  pinned_info host_info;
  event_pair events;
  std::int64_t rounds = 0;

  state(const csr_graph<Weight>& graph, cudaStream_t s, round_mode rounds)
      : stream(s),
        num_vertices(graph.num_vertices()),
        num_edges(graph.num_edges()),
        capacity(std::max<std::int64_t>(graph.num_vertices(), 1)),
        offsets(graph.num_vertices() + 1, s),
        targets(graph.num_edges(), s),
        weights(graph.num_edges(), s),
        distances(graph.num_vertices(), s),
        pending(graph.num_vertices(), s),
        piled(graph.num_vertices(), s),
        // Twice the vertices: a host round appends behind the frontier it relaxes, and a frontier
        // vertex that improves again is appended while its old entry is still in the buffer.
        queues{{2 * capacity, s}, {2 * capacity, s}},
        hubs(graph.num_edges() / gpu::heavy_degree + 1, s),
        hub_distances(graph.num_edges() / gpu::heavy_degree + 1, s),
        info(1, s),
        counters(counter_slot_count, s),
        bucket_offsets(delta_buckets_per_round + 1, s),
        append_offsets(delta_buckets_per_round + 1, s),
        loop_state(1, s),
        claimed_keys(capacity, s),
        claimed_firsts(capacity, s),
        claimed_ends(capacity, s),
        claim_scan(gpu::claim_scan_words(capacity), s) {
    BKT_EXPECTS(graph.num_vertices() <= (std::int64_t{1} << 32) - 1, "gpu_solver: more than 2^32 - 1 vertices");
    max_blocks = multiprocessor_count() * sweep_blocks_per_multiprocessor;
    edge_blocks = static_cast<int>(resident_blocks(gpu::relax_edges_kernel<Weight>, gpu::relax_block_threads, 0));
    claim_blocks = static_cast<int>(resident_blocks(gpu::claim_frontier_kernel<Weight>, gpu::relax_block_threads, 0));
    const bool persistent = rounds == round_mode::persistent || (rounds == round_mode::automatic && !large_with_hubs(graph));
    if (persistent)
      persistent_blocks = cooperative_blocks(gpu::persistent_rounds_kernel<Weight>, gpu::relax_block_threads, 0,
                                                     gpu::persistent_blocks_per_sm);
    BKT_CUDA_CHECK(cudaMemcpyAsync(offsets.data(), graph.offsets.data(), offsets.size_bytes(), cudaMemcpyHostToDevice, s));
    if (num_edges > 0) {
      BKT_CUDA_CHECK(cudaMemcpyAsync(targets.data(), graph.targets.data(), targets.size_bytes(), cudaMemcpyHostToDevice, s));
      BKT_CUDA_CHECK(cudaMemcpyAsync(weights.data(), graph.weights.data(), weights.size_bytes(), cudaMemcpyHostToDevice, s));
    }
    ws.reserve(multisplit_workspace_bytes(capacity, delta_buckets_per_round, sizeof(vertex)), s);
    BKT_CUDA_CHECK(cudaStreamSynchronize(s));  // the host graph may go away after the constructor
  }

  /// The grid of a grid-stride kernel over `items` (sweep_block_threads a block).
  int sweep_grid(std::int64_t items) const { return grid_for(items, sweep_block_threads, max_blocks); }

  gpu::round_info* device_info() { return info.data(); }
  unsigned long long* queued_count() { return &info.data()->queued; }

  static gpu::queue_view view(device_buffer<vertex>& q, unsigned long long* count) { return {q.data(), count}; }

  gpu::relax_args<Weight> relax_args_for(const device_buffer<vertex>& frontier, const unsigned long long* frontier_size,
                                         gpu::queue_view near) {
    gpu::relax_args<Weight> a{};
    a.offsets = offsets.data();
    a.targets = targets.data();
    a.weights = weights.data();
    a.distances = distances.data();
    a.pending = pending.data();
    a.piled = piled.data();
    a.frontier = frontier.data();
    a.frontier_size = frontier_size;
    a.near = near;
    a.far = {nullptr, nullptr};
    a.threshold = unreachable<D>();
    a.hubs = {hubs.data(), counters.data() + hub_count_slot};
    a.hub_distances = hub_distances.data();
    a.stats = counters.data() + stats_slot;
    return a;
  }

  /// Relaxes the frontier of a host round (at most frontier_bound entries): a claim with a scan of
  /// the degrees, then the edges dealt evenly over the grid. With `split`, the claim picks the
  /// frontier's bucket (gpu/queue_kernels.cuh).
  void relax(const gpu::relax_args<Weight>& a, std::int64_t frontier_bound, const gpu::split_frontier& split = {}) {
    BKT_EXPECTS(frontier_bound <= capacity, "gpu_solver: a frontier longer than the vertex count");
    const std::int64_t scan_words = gpu::claim_scan_words(frontier_bound);
    const gpu::claimed_frontier<D> claimed{claimed_keys.data(), claimed_firsts.data(), claimed_ends.data(),
                                           claim_scan.data()};
    gpu::claim_frontier_kernel<Weight>
        <<<grid_for(scan_words - 1, 1, claim_blocks), gpu::relax_block_threads, 0, stream>>>(a, claimed, split);
    BKT_CHECK_LAUNCH(stream);
    gpu::relax_edges_kernel<Weight><<<edge_blocks, gpu::relax_block_threads, 0, stream>>>(a, claimed, scan_words);
    BKT_CHECK_LAUNCH(stream);
    ++rounds;
  }

  /// Copies round_info to the host and waits for it.
  const gpu::round_info& read_info() {
    BKT_CUDA_CHECK(cudaMemcpyAsync(host_info.get(), info.data(), sizeof(gpu::round_info), cudaMemcpyDeviceToHost, stream));
    BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
    return *host_info.get();
  }

  void reset_info() { BKT_CUDA_CHECK(cudaMemsetAsync(info.data(), 0, sizeof(gpu::round_info), stream)); }

  /// The smallest distance of the vertices of q[0, size).
  D min_distance(const vertex* q, std::int64_t size) {
    BKT_CUDA_CHECK(cudaMemsetAsync(&info.data()->min_key_bits, 0xff, sizeof(unsigned long long), stream));
    gpu::min_distance_kernel<D><<<sweep_grid(size), sweep_block_threads, 0, stream>>>(q, size, distances.data(), info.data());
    BKT_CHECK_LAUNCH(stream);
    const unsigned long long bits = read_info().min_key_bits;
    D key;
    static_assert(sizeof(key) == sizeof(bits));
    std::memcpy(&key, &bits, sizeof(key));
    return key;
  }

  void start(vertex source) {
    gpu::fill_kernel<D><<<sweep_grid(num_vertices), sweep_block_threads, 0, stream>>>(distances.data(), num_vertices,
                                                                                     unreachable<D>());
    BKT_CHECK_LAUNCH(stream);
    BKT_CUDA_CHECK(cudaMemsetAsync(pending.data(), 0, pending.size_bytes(), stream));
    BKT_CUDA_CHECK(cudaMemsetAsync(piled.data(), 0, piled.size_bytes(), stream));
    BKT_CUDA_CHECK(cudaMemsetAsync(counters.data(), 0, counters.size_bytes(), stream));
    BKT_CUDA_CHECK(cudaMemsetAsync(claim_scan.data(), 0, claim_scan.size_bytes(), stream));
    reset_info();
    gpu::seed_source_kernel<D><<<1, 1, 0, stream>>>(distances.data(), pending.data(), source, queues[0].data(),
                                                    queued_count());
    BKT_CHECK_LAUNCH(stream);
    rounds = 0;
  }

  void allocate_far_piles() {
    if (!far[0].empty()) return;
    far[0] = device_buffer<vertex>(capacity, stream);
    far[1] = device_buffer<vertex>(capacity, stream);
  }

  /// Hands the queue [first, first + items) of queues[current] to the persistent kernel. Returns
  /// the size of the queue left in queues[current] (from 0) when it hands back, 0 when done.
  std::int64_t persistent_rounds(int& current, std::int64_t first, std::int64_t items, D& base, D delta) {
    allocate_far_piles();
    // The whole queue starts as the far pile.
    gpu::pile_queue_kernel<<<sweep_grid(items), sweep_block_threads, 0, stream>>>(queues[current].data() + first, items,
                                                                                 pending.data(), piled.data(), far[0].data());
    BKT_CHECK_LAUNCH(stream);
    gpu::persistent_state initial{};
    initial.far_count[0] = static_cast<unsigned long long>(items);
    BKT_CUDA_CHECK(cudaMemcpyAsync(loop_state.data(), &initial, sizeof(initial), cudaMemcpyHostToDevice, stream));
    gpu::persistent_args<Weight> a{};
    a.graph = relax_args_for(queues[0], nullptr, view(queues[1], nullptr));
    for (int i = 0; i < 2; ++i) {
      a.near[i] = queues[i].data();
      a.far[i] = far[i].data();
    }
    a.delta = delta;
    a.hand_back_above = persistent_hand_back_above;
    a.local_spill_above =
        gpu::local_spill_above(static_cast<double>(num_edges) / static_cast<double>(std::max<std::int64_t>(num_vertices, 1)));
    a.state = loop_state.data();
    void* arguments[] = {&a};
    BKT_CUDA_CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(gpu::persistent_rounds_kernel<Weight>),
                                               persistent_blocks, gpu::relax_block_threads, arguments, 0, stream));
    BKT_CHECK_LAUNCH(stream);
    gpu::persistent_state done{};
    BKT_CUDA_CHECK(cudaMemcpyAsync(&done, loop_state.data(), sizeof(done), cudaMemcpyDeviceToHost, stream));
    BKT_CUDA_CHECK(cudaStreamSynchronize(stream));
    rounds += done.rounds;
    if (done.stop == 0) return 0;
    D threshold;
    std::memcpy(&threshold, &done.threshold_bits, sizeof(threshold));
    base = threshold >= delta ? threshold - delta : D{0};  // every live key is in this bucket or later
    const int side = static_cast<int>(done.rounds & 1);
    const std::int64_t near_size = static_cast<std::int64_t>(done.near_count[done.rounds % 3]);
    const std::int64_t far_size = static_cast<std::int64_t>(done.far_count[done.far_side]);
    // The host's rounds take one queue of pending vertices: the near queue, then the pile's vertices
    // that are not in it already.
    current = side;
    const unsigned long long queued = static_cast<unsigned long long>(near_size);
    BKT_CUDA_CHECK(cudaMemcpyAsync(queued_count(), &queued, sizeof(queued), cudaMemcpyHostToDevice, stream));
    BKT_CUDA_CHECK(cudaMemsetAsync(counters.data() + far_count_slot, 0, sizeof(unsigned long long), stream));
    gpu::split_far_kernel<D><<<sweep_grid(far_size), sweep_block_threads, 0, stream>>>(
        far[done.far_side].data(), far_size, distances.data(), pending.data(), piled.data(), unreachable<D>(),
        view(queues[current], queued_count()), view(far[1 - done.far_side], counters.data() + far_count_slot));
    BKT_CHECK_LAUNCH(stream);
    return static_cast<std::int64_t>(read_info().queued);
  }

  /// Splits in[0, items) into `out` by delta-stepping's buckets of each vertex's distance from `base`.
  void split_by_distance(const vertex* in, std::int64_t items, vertex* out, device_buffer<std::int64_t>& offsets, D base,
                         D delta) {
    const gpu::vertex_distance_buckets<D> bucket_of{distances.data(),
                                                    delta_buckets<D>{base, delta, delta_buckets_per_round}};
    const auto n = static_cast<std::size_t>(items);
    multisplit<vertex>(std::span<const vertex>(in, n), std::span<vertex>(out, n), offsets.span(), delta_buckets_per_round,
                       bucket_of, ws, stream);
  }

  void delta_stepping(D delta) {
    allocate_far_piles();    // far[0] takes the split of what a walk round finds appended
    int current = 0;         // the queue's buffer
    std::int64_t first = 0;  // the queue is [first, size) of that buffer
    std::int64_t size = 1;
    D base{0};               // the last full split's
    bool walking = false;    // walking the regions of the last full split (gpu/queue_kernels.cuh)
    std::int64_t split_items = 0;  // the queue's size after that split: appends start there
    int bucket = 0;                // the last bucket relaxed
    std::int64_t bucket_appends = 0;  // its appended part, all relaxed (the next walk round skips them)
    std::int64_t largest_frontier = 0;
    while (size > first) {
      if (persistent_blocks > 0 && size - first <= persistent_enter_below) {
        size = persistent_rounds(current, first, size - first, base, delta);
        first = 0;
        bucket = 0;
        walking = false;
        continue;
      }
      const std::int64_t appended = size - split_items;
      // A walk round splits only the appends, so it pays while they are few; size <= capacity leaves
      // room for this round's appends in the 2n buffer.
      walking = walking && appended * walk_append_share <= size - first && size <= capacity;
      if (!walking) {  // the next full split's buckets start at the last bucket relaxed
        base += static_cast<D>(bucket) * delta;
        bucket = 0;
      }
      gpu::split_frontier split{.region_offsets = bucket_offsets.data(),
                                .appends = far[0].data(),
                                .buckets = delta_buckets_per_round,
                                .merge_up_to = largest_frontier / bucket_merge_share,
                                .info = info.data()};
      if (walking) {
        if (appended > 0) {
          split_by_distance(queues[current].data() + split_items, appended, far[0].data(), append_offsets, base, delta);
          split.append_offsets = append_offsets.data();
        }
        split.first_bucket = bucket;
        split.regions_from = bucket + 1;
        split.append_skip = bucket_appends;
      } else {
        const int next = 1 - current;
        split_items = size - first;
        split_by_distance(queues[current].data() + first, split_items, queues[next].data(), bucket_offsets, base, delta);
        current = next;
        first = 0;
        size = split_items;
        split.out_count = queued_count();
      }
      split.regions = queues[current].data();
      relax(relax_args_for(queues[current], &info.data()->frontier_size, view(queues[current], queued_count())),
            size - first, split);
      const gpu::round_info& r = read_info();
      first = static_cast<std::int64_t>(r.queue_first);
      size = static_cast<std::int64_t>(r.queued);
      if (r.bucket == delta_buckets_per_round - 1) {  // everything left is far ahead: move the base there
        base = gpu::bucket_start(min_distance(queues[current].data() + first, size - first), delta);
        bucket = 0;
        walking = false;
        continue;
      }
      largest_frontier = std::max(largest_frontier, static_cast<std::int64_t>(r.frontier_size));
      bucket = static_cast<int>(r.bucket);
      bucket_appends = static_cast<std::int64_t>(r.bucket_appends);
      walking = true;
    }
  }

  void bellman_ford() {
    int current = 0;
    std::int64_t size = 1;
    while (size > 0) {
      const int next = 1 - current;
      // The frontier's size is the count the previous round left in round_info; it moves to
      // frontier_size so that the output can count from zero.
      BKT_CUDA_CHECK(cudaMemcpyAsync(&info.data()->frontier_size, queued_count(), sizeof(unsigned long long),
                                     cudaMemcpyDeviceToDevice, stream));
      BKT_CUDA_CHECK(cudaMemsetAsync(queued_count(), 0, sizeof(unsigned long long), stream));
      relax(relax_args_for(queues[current], &info.data()->frontier_size, view(queues[next], queued_count())), size);
      size = static_cast<std::int64_t>(read_info().queued);
      current = next;
    }
  }

  void near_far(D delta) {
    allocate_far_piles();
    unsigned long long* far_count[2] = {counters.data() + far_count_slot, counters.data() + far_count_slot + 1};
    int current = 0, current_far = 0;
    std::int64_t near_size = 1, far_size = 0;
    D threshold = delta;
    while (near_size > 0 || far_size > 0) {
      if (near_size == 0) {
        // The near side ran dry: move the threshold past the smallest far key, then split the pile.
        threshold = gpu::bucket_start(min_distance(far[current_far].data(), far_size), delta) + delta;
        const int kept = 1 - current_far;
        BKT_CUDA_CHECK(cudaMemsetAsync(queued_count(), 0, sizeof(unsigned long long), stream));
        BKT_CUDA_CHECK(cudaMemsetAsync(far_count[kept], 0, sizeof(unsigned long long), stream));
        gpu::split_far_kernel<D><<<sweep_grid(far_size), sweep_block_threads, 0, stream>>>(
            far[current_far].data(), far_size, distances.data(), pending.data(), piled.data(), threshold,
            view(queues[current], queued_count()), view(far[kept], far_count[kept]));
        BKT_CHECK_LAUNCH(stream);
        BKT_CUDA_CHECK(cudaMemcpyAsync(&info.data()->far_queued, far_count[kept], sizeof(unsigned long long),
                                       cudaMemcpyDeviceToDevice, stream));
        const gpu::round_info& r = read_info();
        near_size = static_cast<std::int64_t>(r.queued);
        far_size = static_cast<std::int64_t>(r.far_queued);
        current_far = kept;
        continue;
      }
      const int next = 1 - current;
      BKT_CUDA_CHECK(cudaMemcpyAsync(&info.data()->frontier_size, queued_count(), sizeof(unsigned long long),
                                     cudaMemcpyDeviceToDevice, stream));
      BKT_CUDA_CHECK(cudaMemsetAsync(queued_count(), 0, sizeof(unsigned long long), stream));
      gpu::relax_args<Weight> a =
          relax_args_for(queues[current], &info.data()->frontier_size, view(queues[next], queued_count()));
      a.far = view(far[current_far], far_count[current_far]);
      a.threshold = threshold;
      relax(a, near_size);
      BKT_CUDA_CHECK(cudaMemcpyAsync(&info.data()->far_queued, far_count[current_far], sizeof(unsigned long long),
                                     cudaMemcpyDeviceToDevice, stream));
      const gpu::round_info& r = read_info();
      near_size = static_cast<std::int64_t>(r.queued);
      far_size = static_cast<std::int64_t>(r.far_queued);
      current = next;
    }
  }
};

template <edge_weight Weight>
gpu_solver<Weight>::gpu_solver(const csr_graph<Weight>& graph, cudaStream_t stream, round_mode rounds)
    : state_(std::make_unique<state>(graph, stream, rounds)) {}
template <edge_weight Weight>
gpu_solver<Weight>::~gpu_solver() = default;
template <edge_weight Weight>
gpu_solver<Weight>::gpu_solver(gpu_solver&&) noexcept = default;
template <edge_weight Weight>
gpu_solver<Weight>& gpu_solver<Weight>::operator=(gpu_solver&&) noexcept = default;

template <edge_weight Weight>
gpu_run_stats gpu_solver<Weight>::run(vertex source, algorithm method, distance_t<Weight> delta,
                                      std::span<distance_t<Weight>> distances) {
  state& s = *state_;
  BKT_EXPECTS(static_cast<std::int64_t>(source) < s.num_vertices, "gpu_solver::run: source out of range");
  BKT_EXPECTS(static_cast<std::int64_t>(distances.size()) >= s.num_vertices, "gpu_solver::run: distance output too small");
  BKT_EXPECTS(delta > distance_t<Weight>{0}, "gpu_solver::run: delta must be positive");
  BKT_CUDA_CHECK(cudaEventRecord(s.events.start, s.stream));
  s.start(source);
  switch (method) {
    case algorithm::delta_stepping: s.delta_stepping(delta); break;
    case algorithm::near_far: s.near_far(delta); break;
    case algorithm::bellman_ford: s.bellman_ford(); break;
    case algorithm::dijkstra_cpu: BKT_EXPECTS(false, "gpu_solver::run: dijkstra_cpu is not a GPU algorithm");
  }
  BKT_CUDA_CHECK(cudaEventRecord(s.events.stop, s.stream));
  unsigned long long stats[gpu::relax_stat_count] = {};
  BKT_CUDA_CHECK(cudaMemcpyAsync(stats, s.counters.data() + stats_slot, sizeof(stats), cudaMemcpyDeviceToHost, s.stream));
  BKT_CUDA_CHECK(cudaMemcpyAsync(distances.data(), s.distances.data(), s.distances.size_bytes(),
                                 cudaMemcpyDeviceToHost, s.stream));
  BKT_CUDA_CHECK(cudaStreamSynchronize(s.stream));
  gpu_run_stats result;
  float ms = 0;
  BKT_CUDA_CHECK(cudaEventElapsedTime(&ms, s.events.start, s.events.stop));
  result.milliseconds = ms;
  result.rounds = s.rounds;
  result.frontier_vertices = static_cast<std::int64_t>(stats[gpu::expanded_vertices_stat]);
  result.relaxed_edges = static_cast<std::int64_t>(stats[gpu::relaxed_edges_stat]);
  return result;
}

template <edge_weight Weight>
bool large_with_hubs(const csr_graph<Weight>& graph) {
  const double mean_degree =
      std::max(static_cast<double>(graph.num_edges()) / static_cast<double>(std::max<std::int64_t>(graph.num_vertices(), 1)), 1.0);
  return graph.num_vertices() >= small_graph_vertices &&
         static_cast<double>(largest_out_degree(graph.offsets)) >= hub_degree_ratio * mean_degree;
}

template <edge_weight Weight>
delta_choice<Weight> default_delta(const csr_graph<Weight>& graph) {
  using D = distance_t<Weight>;
  const std::int64_t n = std::max<std::int64_t>(graph.num_vertices(), 1);
  const std::int64_t m = graph.num_edges();
  double weight_sum = 0;
  for (const Weight w : graph.weights) weight_sum += static_cast<double>(w);
  const double mean_weight = m > 0 ? weight_sum / static_cast<double>(m) : 1.0;
  const double mean_degree = std::max(static_cast<double>(m) / static_cast<double>(n), 1.0);
  const std::int64_t max_degree = largest_out_degree(graph.offsets);
  const bool hubs = large_with_hubs(graph);
  const double multiple = hubs ? hub_graph_multiple : round_bound_multiple;
  const double chosen = delta_warp_factor * mean_weight / mean_degree * multiple;
  delta_choice<Weight> choice;
  if constexpr (std::is_floating_point_v<D>) {
    choice.delta = chosen > 0 ? chosen : 1.0;
  } else {
    choice.delta = static_cast<D>(std::max(1.0, std::round(chosen)));
  }
  std::ostringstream reason;
  reason << "delta = " << delta_warp_factor << " x mean weight " << mean_weight << " / mean out-degree "
         << mean_degree << " x " << multiple;
  if (hubs)
    reason << " (a large graph with hubs: largest out-degree " << max_degree << " >= " << hub_degree_ratio
           << " x mean; narrow buckets spare re-relaxations)";
  else
    reason << " (" << (graph.num_vertices() < small_graph_vertices ? "a small graph" : "no hubs") << ": largest out-degree "
           << max_degree << "; the search is bound by its rounds, and wide buckets take fewer)";
  choice.reason = reason.str();
  return choice;
}

template class gpu_solver<std::uint32_t>;
template class gpu_solver<float>;
template bool large_with_hubs(const csr_graph<std::uint32_t>&);
template bool large_with_hubs(const csr_graph<float>&);
template delta_choice<std::uint32_t> default_delta(const csr_graph<std::uint32_t>&);
template delta_choice<float> default_delta(const csr_graph<float>&);

}  // namespace bkt::sssp
