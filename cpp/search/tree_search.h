// What MCTS (search/mcts.h) and ISMCTS (search/ismcts.h) share: their options and result, the
// playouts and the game's optional playout hooks, the selection arithmetic, the node arena, the
// root parallelism (threads and the merge of their trees) and tree reuse (KeptTreeSearch).
#pragma once

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/game_concept.h"
#include "core/stop.h"
#include "search/evaluation.h"
#include "search/random_playout.h"

namespace nutcore {

// Every search option's default is written here and in IsmctsOptions, PimcOptions and
// ExpectimaxOptions, once: the engine (engine/settings.cc) reads its defaults off these structs.
struct MctsOptions {
  long iterations = 1000;    // per search, over all threads; 0: no iteration limit
  double time_limit = 0.0;   // seconds; 0: no time limit (at least one limit must be set)
  double exploration = 1.0;  // the UCT constant C (returns are win shares in [0, 1])
  uint64_t seed = 0;
  int threads = 1;
  bool heuristic_rollouts = true;  // playouts by the game's rollout_action() when it has one
  // Progressive widening, for nodes with hundreds of moves: a decision node visited n times chooses
  // among only its first ceil(widening * sqrt(n + 1)) children, in the game's order_actions() order
  // (best first); more open as it is visited more. 0: all children from the start. Games without
  // order_actions() ignore it (their action order says nothing of quality).
  double widening = 0.0;
  // The reward of a playout's end: (1 - margin) * the seat's return (win share) + margin * its
  // points lead over the best other seat, squashed into [0, 1] as 0.5 + 0.5 tanh(lead / margin_scale).
  // 0: win share only. A margin plays for points too: it tells a near loss from a rout.
  double margin = 0.0;
  double margin_scale = 10.0;  // points
  // Progressive bias towards the game's rollout policy (when it has one): its action at a node is
  // tried first and scores policy_bias / sqrt(n(c) + 1) more, so the search leaves the policy's
  // choice only on evidence comparable to its own noise (and a small budget plays about as well
  // as the policy). 0: plain UCB.
  double policy_bias = 0.0;
  // How a new leaf is valued (search/evaluation.h): by a playout (UCT), or by an evaluator that
  // gives values and priors (PUCT, with `exploration` as its constant). With an evaluator,
  // heuristic_rollouts, widening and policy_bias have no effect.
  Evaluator evaluator = Evaluator::kPlayout;
  const Network* network = nullptr;  // the learned evaluator's (the engine sets it: a game's own, or the caller's)
  // With an evaluator: Dirichlet noise mixed into the root's priors, (1 - root_noise) * P +
  // root_noise * Dir(root_noise_alpha), AlphaZero's exploration for self-play. 0: none.
  double root_noise = 0.0;
  double root_noise_alpha = 0.3;
  // learned+playout: a leaf's value is (1 - playout_weight) * the network's + playout_weight * a
  // playout's (AlphaGo's mixing parameter lambda).
  double playout_weight = 0.5;
  long max_nodes = 20'000'000;         // the search stops growing its tree beyond this (memory guard)
  const StopFlag* stop = nullptr;      // set by the caller: the search ends after its current iteration
  SearchProgress* progress = nullptr;  // set by the caller: where the first thread reports its root
};

struct TreeSearchResult {
  Action best_action = -1;
  std::vector<ActionTally> actions;
  std::vector<double> root_value;  // mean return per player over all iterations
  long iterations = 0;
  long nodes = 0;
  size_t bytes_per_node = 0;
  size_t tree_bytes = 0;      // nodes in use
  size_t reserved_bytes = 0;  // arena chunks allocated (pages not yet touched are not resident)
  double elapsed = 0.0;
  bool stopped = false;    // ended early by the stop flag
  long reused_visits = 0;  // root visits kept from earlier searches (tree reuse)
};

// The budget and settings every sampling search shares; throws std::invalid_argument.
inline void check_options(const MctsOptions& options) {
  if (options.iterations < 0) throw std::invalid_argument("iterations must be >= 0");
  if (options.time_limit < 0 || !std::isfinite(options.time_limit))
    throw std::invalid_argument("time_limit must be >= 0");
  if (options.iterations == 0 && options.time_limit == 0)
    throw std::invalid_argument("give iterations or a time_limit");
  if (options.threads < 1 || options.threads > 256) throw std::invalid_argument("threads must be 1..256");
  if (!(options.exploration >= 0) || !std::isfinite(options.exploration))
    throw std::invalid_argument("exploration must be >= 0");
  if (options.max_nodes < 1000) throw std::invalid_argument("max_nodes must be >= 1000");
  if (!(options.widening >= 0) || !std::isfinite(options.widening))
    throw std::invalid_argument("widening must be >= 0");
  if (!(options.margin >= 0 && options.margin <= 1)) throw std::invalid_argument("margin must be in [0, 1]");
  if (!(options.margin_scale > 0) || !std::isfinite(options.margin_scale))
    throw std::invalid_argument("margin_scale must be > 0");
  if (!(options.policy_bias >= 0) || !std::isfinite(options.policy_bias))
    throw std::invalid_argument("policy_bias must be >= 0");
  if (!(options.root_noise >= 0 && options.root_noise <= 1))
    throw std::invalid_argument("root_noise must be in [0, 1]");
  if (!(options.root_noise_alpha > 0) || !std::isfinite(options.root_noise_alpha))
    throw std::invalid_argument("root_noise_alpha must be > 0");
  if (!(options.playout_weight >= 0 && options.playout_weight <= 1))
    throw std::invalid_argument("playout_weight must be in [0, 1]");
}

// What a playout's end is worth to each seat (MctsOptions::margin): the returns, or mixed with the
// points lead.
template <GameConcept G>
void playout_rewards(const G& game, const typename G::StateType& state, const MctsOptions& options, double* out) {
  game.returns(state, out);
  if (options.margin <= 0) return;
  int points[G::kMaxNumPlayers] = {};
  game.scores(state, points);
  const int n = game.num_players();
  for (int p = 0; p < n; ++p) {
    int best_other = std::numeric_limits<int>::min();
    for (int q = 0; q < n; ++q)
      if (q != p) best_other = std::max(best_other, points[q]);
    const double lead = 0.5 + 0.5 * std::tanh((points[p] - best_other) / options.margin_scale);
    out[p] = (1 - options.margin) * out[p] + options.margin * lead;
  }
}

// The game's greedy move at a decision node, as the greedy bot plays it: its greedy bot's, else its
// rollout policy's, from a fresh generator (uniform, by the same generator, for a game with
// neither).
template <typename G>
Action greedy_policy_action(const G& game, const typename G::StateType& state) {
  Rng rng(0);
  if constexpr (HasGreedyBot<G>)
    return greedy_bot_action(game, state, rng);
  else if constexpr (HasRolloutPolicy<G>)
    return rollout_action(game, state, rng);
  else
    return random_action_by_listing(game, state, rng);
}

namespace detail {

// 1 / n and 1 / sqrt(n) for the visit counts UCT meets most: a selection scans every child of a
// node (320 of them at Purzelbaum's shoves), and a table read is cheaper than a division and a
// square root per child. Filled once; the same values on every machine (IEEE division and sqrt).
struct VisitTables {
  static constexpr uint32_t kSize = 4096;
  double inverse[kSize];
  double inverse_sqrt[kSize];
  double sqrt_log[kSize];  // sqrt(ln n): ISMCTS's exploration term reads a count per child
  VisitTables() {
    inverse[0] = inverse_sqrt[0] = sqrt_log[0] = 0.0;  // never read: unvisited children are taken first
    for (uint32_t n = 1; n < kSize; ++n) {
      inverse[n] = 1.0 / n;
      inverse_sqrt[n] = 1.0 / std::sqrt(static_cast<double>(n));
      sqrt_log[n] = std::sqrt(std::log(static_cast<double>(n)));
    }
  }
};
inline const VisitTables kVisitTables;

inline double inverse(uint32_t n) { return n < VisitTables::kSize ? kVisitTables.inverse[n] : 1.0 / n; }
inline double inverse_sqrt(uint32_t n) {
  return n < VisitTables::kSize ? kVisitTables.inverse_sqrt[n] : 1.0 / std::sqrt(static_cast<double>(n));
}
inline double sqrt_log(uint32_t n) {
  return n < VisitTables::kSize ? kVisitTables.sqrt_log[n] : std::sqrt(std::log(static_cast<double>(n)));
}
// PUCT (search/evaluation.h) over `count` children, child(i) -> {visits, summed value, prior}; the first best.
struct PuctChild {
  uint32_t visits;
  double value;
  float prior;
};
template <typename Child>
int select_puct(int count, uint32_t parent_visits, double exploration, Child&& child) {
  double visited_value = 0;  // an unvisited child holds 0 and 0
  uint32_t visited = 0;
  for (int i = 0; i < count; ++i) {
    const PuctChild c = child(i);
    visited_value += c.value;
    visited += c.visits;
  }
  const double first_play = visited ? visited_value * inverse(visited) : 0.0;
  const double scale = exploration * std::sqrt(static_cast<double>(parent_visits));
  int best = 0;
  double best_score = -1e300;
  // Products with the tables' reciprocals, not divisions: 320 children a node on Purzelbaum.
  for (int i = 0; i < count; ++i) {
    const PuctChild c = child(i);
    const double q = c.visits ? c.value * inverse(c.visits) : first_play;
    const double score = q + scale * c.prior * inverse(c.visits + 1);
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

// The progressive bias: what the policy's move scores more, after n visits (MCTS and ISMCTS).
inline double policy_bonus(double bias, uint32_t n) { return bias * inverse_sqrt(n + 1); }

// The first i in [begin, open) with the highest mean[i] + explore * inverse_sqrt[i], or 0 when none
// beats `best_score` (child 0's, scored apart): the child a scan in order takes. With SSE2 (every
// x86-64), two passes of two lanes: the highest score, then the first child that has it (the same
// multiply and add in both, so the scores compare equal).
inline int first_maximum(const double* mean, const double* inverse_sqrt, uint32_t begin, uint32_t open, double explore,
                         double best_score) {
#if defined(__SSE2__)
  const __m128d e = _mm_set1_pd(explore);
  auto two = [&](uint32_t i) {  // the scores of children i and i + 1
    return _mm_add_pd(_mm_loadu_pd(mean + i), _mm_mul_pd(e, _mm_loadu_pd(inverse_sqrt + i)));
  };
  auto one = [&](uint32_t i) {  // child i's score, in the lower lane
    return _mm_add_sd(_mm_load_sd(mean + i), _mm_mul_sd(e, _mm_load_sd(inverse_sqrt + i)));
  };
  __m128d top0 = _mm_set1_pd(best_score), top1 = top0;
  uint32_t i = begin;
  for (; i + 4 <= open; i += 4) {
    top0 = _mm_max_pd(two(i), top0);
    top1 = _mm_max_pd(two(i + 2), top1);
  }
  if (i + 2 <= open) top0 = _mm_max_pd(two(i), top0), i += 2;
  if (i < open) top1 = _mm_max_sd(top1, one(i));  // the upper lane stays top1's
  top0 = _mm_max_pd(top0, top1);
  const double top = std::max(_mm_cvtsd_f64(top0), _mm_cvtsd_f64(_mm_unpackhi_pd(top0, top0)));
  if (!(top > best_score)) return 0;
  const __m128d wanted = _mm_set1_pd(top);
  for (i = begin; i + 2 <= open; i += 2) {
    const int equal = _mm_movemask_pd(_mm_cmpeq_pd(two(i), wanted));
    if (equal) return static_cast<int>(i) + ((equal & 1) ? 0 : 1);
  }
  return static_cast<int>(open) - 1;  // the last child, the only one left
#else
  uint32_t best = 0;
  for (uint32_t i = begin; i < open; ++i) {
    const double score = mean[i] + explore * inverse_sqrt[i];
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return static_cast<int>(best);
#endif
}

// Freed tree chunks, kept for the next search (a bot searches at every move, a benchmark many times):
// a fresh chunk's pages must be faulted in and zeroed by the kernel as the tree first writes them,
// which cost about a sixth of an MCTS iteration on Purzelbaum (bench/RESULTS.md). Up to kKeepBytes
// are kept, the rest freed. One pool for the process (threads lock it once per chunk); never
// destroyed, so that a tree freed at exit still finds it.
class ChunkPool {
 public:
  static constexpr size_t kKeepBytes = size_t{64} << 20;

  static ChunkPool& instance() {
    static ChunkPool* pool = new ChunkPool;
    return *pool;
  }
  void* take(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (size_t i = 0; i < kept_.size(); ++i)
        if (kept_[i].bytes == bytes) {
          void* p = kept_[i].memory;
          kept_[i] = kept_.back();
          kept_.pop_back();
          kept_bytes_ -= bytes;
          return p;
        }
    }
    void* p = std::malloc(bytes);
    if (!p) throw std::bad_alloc();
    return p;
  }
  void give(void* memory, size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (kept_bytes_ + bytes <= kKeepBytes) {
        kept_.push_back({memory, bytes});
        kept_bytes_ += bytes;
        return;
      }
    }
    std::free(memory);
  }

 private:
  struct Block {
    void* memory;
    size_t bytes;
  };
  std::mutex mutex_;
  std::vector<Block> kept_;
  size_t kept_bytes_ = 0;
};

// Runs `iterate` until `iterations` are done (0: no limit), `time_limit` seconds have passed since
// `start` (0: no limit) or the stop flag is set. Unless stopped, at least one iteration runs, so
// that there is a move to return. The clock is read every 16 iterations: cheap, and precise enough
// for sub-second limits; elapsed seconds are compared as doubles, so that no time limit can
// overflow a time point. With `progress`, report(done) runs every progress->interval seconds.
template <typename Iterate, typename Report>
long run_iterations(long iterations, std::chrono::steady_clock::time_point start, double time_limit,
                    const StopFlag* stop, SearchProgress* progress, Iterate&& iterate, Report&& report) {
  long done = 0;
  auto reported = start;
  while (iterations <= 0 || done < iterations) {
    if (stop_requested(stop)) break;
    if ((time_limit > 0 || progress) && done > 0 && (done & 15) == 0) {
      const auto now = std::chrono::steady_clock::now();
      if (time_limit > 0 && std::chrono::duration<double>(now - start).count() >= time_limit) break;
      if (progress && std::chrono::duration<double>(now - reported).count() >= progress->interval) {
        report(done);
        reported = now;
      }
    }
    iterate();
    ++done;
  }
  if (progress && done > 0) report(done);
  return done;
}

// Writes a root's statistics to `progress`: children(i) gives (action, visits, summed value).
template <typename Child>
void report_root(SearchProgress& progress, long done, int num_children, Child&& child) {
  std::lock_guard<std::mutex> lock(progress.mutex);
  progress.iterations = done;
  progress.actions.clear();
  for (int i = 0; i < num_children; ++i) {
    const auto [action, visits, value] = child(i);
    progress.actions.push_back({action, static_cast<long>(visits), visits ? value / visits : 0.0});
  }
  // By action, as results list them (a tree keeps its children in the game's preferred order).
  std::sort(progress.actions.begin(), progress.actions.end(),
            [](const ActionTally& a, const ActionTally& b) { return a.action < b.action; });
}

// Part `index` of `total` iterations split into `parts` (0 stays 0: no iteration limit).
inline long share_of(long total, int parts, int index) {
  return total == 0 ? 0 : total / parts + (index < total % parts ? 1 : 0);
}

template <typename Work>
void run_threads(int count, Work&& work) {
  if (count == 1) return work(0);
  std::vector<std::thread> pool;
  for (int t = 0; t < count; ++t) pool.emplace_back(work, t);
  for (auto& th : pool) th.join();
}

// Root statistics of several trees (or determinisations) summed per action.
inline void add_stat(std::vector<ActionTally>& stats, std::vector<double>& sums, Action a, long visits, double value) {
  auto it = std::find_if(stats.begin(), stats.end(), [&](const ActionTally& s) { return s.action == a; });
  if (it == stats.end()) {
    stats.push_back({a, 0, 0.0});
    sums.push_back(0.0);
    it = stats.end() - 1;
  }
  it->visits += visits;
  sums[it - stats.begin()] += value;
}

// The summed root statistics reduced to the result: most visits wins; ties by mean value, then by
// the first listed (the lower action id). Stopped before any iteration, there is no move.
inline void finish_result(TreeSearchResult& result, std::vector<ActionTally>& stats, const std::vector<double>& sums,
                          const StopFlag* stop, std::chrono::steady_clock::time_point start) {
  for (size_t i = 0; i < stats.size(); ++i) stats[i].mean_value = stats[i].visits ? sums[i] / stats[i].visits : 0.0;
  const ActionTally* best = nullptr;
  for (const auto& s : stats)
    if (!best || s.visits > best->visits || (s.visits == best->visits && s.mean_value > best->mean_value)) best = &s;
  if (!best || best->visits == 0 || result.iterations == 0) throw Stopped();
  result.best_action = best->action;
  result.stopped = stop_requested(stop);
  std::sort(stats.begin(), stats.end(), [](const ActionTally& a, const ActionTally& b) { return a.action < b.action; });
  result.actions = std::move(stats);
  result.elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace detail

// Plays `state` to the end: by the game's rollout policy where asked and available, else uniformly.
// Returns the number of actions applied (decisions and chance outcomes).
template <GameConcept G>
long play_out(const G& game, typename G::StateType& state, Rng& rng, bool heuristic) {
  if constexpr (HasRolloutPolicy<G>) {
    if (heuristic) {
      long steps = 0;
      for (; !game.is_terminal(state); ++steps)
        game.apply(state, game.is_chance(state) ? game.sample_chance(state, rng) : rollout_action(game, state, rng));
      return steps;
    }
  }
  return random_playout(game, state, rng);
}

namespace detail {

// The result of one search over `trees` (root parallelism: their root statistics merged). A tree
// type has root(), root_child(i), root_sum(), num_nodes(), used_bytes() and reserved_bytes().
template <typename Tree>
TreeSearchResult merge_trees(int players, const std::vector<std::unique_ptr<Tree>>& trees,
                             const std::vector<long>& done, const std::vector<long>& reused, const StopFlag* stop,
                             std::chrono::steady_clock::time_point start) {
  TreeSearchResult result;
  result.root_value.assign(players, 0.0);
  std::vector<ActionTally> stats;
  std::vector<double> sums;
  for (size_t t = 0; t < trees.size(); ++t) {
    const Tree& tree = *trees[t];
    result.iterations += done[t];
    result.reused_visits += reused[t];
    result.nodes += tree.num_nodes();
    result.tree_bytes += tree.used_bytes();
    result.reserved_bytes += tree.reserved_bytes();
    for (int p = 0; p < players; ++p) result.root_value[p] += tree.root_sum()[p];
    for (int i = 0; i < tree.root().num_children; ++i)
      add_stat(stats, sums, tree.root_child(i).action, tree.root_child(i).visits, tree.root_child(i).value);
  }
  // Every iteration of this search visits its tree's root once.
  for (double& v : result.root_value) v = result.iterations ? v / result.iterations : 0.0;
  result.bytes_per_node = sizeof(typename Tree::Node);
  finish_result(result, stats, sums, stop, start);
  return result;
}

}  // namespace detail

// A search that can keep its trees between calls (tree reuse), for a bot that searches at each of
// its turns: search(root, path, options) goes on from the previous call's trees when `path` (the
// actions and chance outcomes since that call's root; nullptr: unrelated) leads to `root` inside
// them, and starts afresh otherwise. Tree is MctsTree or IsmctsTree (cpp/search/ismcts.h), Options
// their settings. A reused root's earlier visits count towards choosing the move
// (TreeSearchResult::reused_visits); the budget counts only new iterations.
template <typename Tree, typename Options>
class KeptTreeSearch {
 public:
  using Game = typename Tree::GameType;
  using State = typename Tree::State;

  explicit KeptTreeSearch(const Game& game) : game_(game) {}
  KeptTreeSearch(const KeptTreeSearch&) = delete;
  KeptTreeSearch& operator=(const KeptTreeSearch&) = delete;
  KeptTreeSearch(KeptTreeSearch&&) = default;

  TreeSearchResult search(const State& root, const std::vector<Action>* path, const Options& options) {
    if (game_.is_terminal(root) || game_.is_chance(root))
      throw std::invalid_argument("search needs a decision node (the state is terminal or a chance node)");
    check_options(options);
    const auto start = std::chrono::steady_clock::now();
    const int t_count = options.threads;
    if (static_cast<int>(trees_.size()) != t_count || !path) trees_.clear();
    trees_.resize(t_count);
    std::vector<long> done(t_count, 0), reused(t_count, 0);
    Options per_tree = options;
    per_tree.max_nodes = std::max(1000L, options.max_nodes / t_count);
    detail::run_threads(t_count, [&](int t) {
      Options mine = per_tree;
      if (t != 0) mine.progress = nullptr;  // one reporter
      const uint64_t seed = options.seed * 0x9E3779B97F4A7C15ULL + t;
      auto& tree = trees_[t];
      // A tree grown with another evaluator starts afresh: its nodes lack (or hold) priors.
      if (tree && tree->evaluator() == mine.evaluator &&
          tree->reroot(root, path->data(), static_cast<int>(path->size()))) {
        tree->prepare(mine, seed);
        // Its moves' visits (an MCTS node's first visit is a playout through no move).
        for (int i = 0; i < tree->root().num_children; ++i) reused[t] += tree->root_child(i).visits;
      } else {
        tree = std::make_unique<Tree>(game_, root, mine, seed);
      }
      const long share = detail::share_of(options.iterations, t_count, t);
      if (options.iterations > 0 && share == 0) return;
      done[t] = tree->search(share, start, options.time_limit);
    });
    return detail::merge_trees(game_.num_players(), trees_, done, reused, options.stop, start);
  }

  void clear() { trees_.clear(); }

 private:
  const Game& game_;
  std::vector<std::unique_ptr<Tree>> trees_;
};

}  // namespace nutcore
