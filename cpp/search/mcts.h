// Monte-Carlo tree search (UCT; Kocsis & Szepesvári 2006) for 1-4 players with explicit chance nodes.
//
//   decision node, mover p:  pick child maximising  Q_p(c) + C * sqrt(ln N / n(c)),
//                            Q_p(c) = (sum of p's returns through c) / n(c); unvisited children first
//   chance node:             sample a child by its exact probability
//   leaf (first visit):      evaluate by a playout (uniformly random, or the game's rollout policy)
//   backup:                  every node on the path adds the return of the seat that chose it (max-n
//                            style: each decision node maximises its own mover's value)
//
// Nodes live in a chunked arena (no allocation per node; one allocation per 65,536 nodes, and freed
// chunks serve the next search) and hold no state: each iteration replays its actions from the root,
// which keeps a node at 24 bytes. The root's children's scores are also kept in two arrays, which a
// selection there (every iteration, over every child) scans faster.
// Root parallelism: `threads` independent trees with seeds seed*phi + t (phi: 2^64 over the golden
// ratio), merged at the root.
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

struct MctsResult {
  Action best_action = -1;
  std::vector<ActionStats> actions;
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

// Games may offer a playout policy better than uniform, a free function found by argument-dependent
// lookup: `Action rollout_action(const G&, const State&, Rng&)`, a legal action at a decision node.
template <typename G>
concept HasRolloutPolicy = requires(const G& g, const typename G::StateType& s, Rng& rng) {
  { rollout_action(g, s, rng) } -> std::same_as<Action>;
};

// A game may play its greedy bot apart from its playout policy, found the same way:
// `Action greedy_bot_action(const G&, const State&, Rng&)`, a legal action at a decision node. A
// rule that makes a stronger player can make worse playouts (Ritter's, bench/RESULTS.md).
template <typename G>
concept HasGreedyBot = requires(const G& g, const typename G::StateType& s, Rng& rng) {
  { greedy_bot_action(g, s, rng) } -> std::same_as<Action>;
};

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

// And an order of the legal actions, best first by the same knowledge (found the same way):
// `void order_actions(const G&, const State&, Actions&)` permutes the list legal_actions() gave.
// With widening or a policy bias, MCTS expands children in this order, so progressive widening
// opens the likeliest moves first.
template <typename G>
concept HasActionOrder = requires(const G& g, const typename G::StateType& s, typename G::Actions& actions) {
  order_actions(g, s, actions);
};

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
            [](const ActionStats& a, const ActionStats& b) { return a.action < b.action; });
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
inline void add_stat(std::vector<ActionStats>& stats, std::vector<double>& sums, Action a, long visits, double value) {
  auto it = std::find_if(stats.begin(), stats.end(), [&](const ActionStats& s) { return s.action == a; });
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
inline void finish_result(MctsResult& result, std::vector<ActionStats>& stats, const std::vector<double>& sums,
                          const StopFlag* stop, std::chrono::steady_clock::time_point start) {
  for (size_t i = 0; i < stats.size(); ++i) stats[i].mean_value = stats[i].visits ? sums[i] / stats[i].visits : 0.0;
  const ActionStats* best = nullptr;
  for (const auto& s : stats)
    if (!best || s.visits > best->visits || (s.visits == best->visits && s.mean_value > best->mean_value)) best = &s;
  if (!best || best->visits == 0 || result.iterations == 0) throw Stopped();
  result.best_action = best->action;
  result.stopped = stop_requested(stop);
  std::sort(stats.begin(), stats.end(), [](const ActionStats& a, const ActionStats& b) { return a.action < b.action; });
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

template <GameConcept G>
class MctsTree {
 public:
  using GameType = G;
  using State = typename G::StateType;
  static constexpr int kP = G::kMaxNumPlayers;
  // Whether expand can put the policy's move first (for widening and the policy bias).
  static constexpr bool kGuidable = HasActionOrder<G> || HasRolloutPolicy<G>;
  // Tree reuse: a kept tree goes on only along the actions played since its root (reroot's path).
  static constexpr bool kReusesByView = false;

  // 24 bytes: a node keeps only the returns of the seat that chose it (all that selection reads);
  // the root's returns per seat are kept apart.
  struct Node {
    float value;  // summed returns of the parent's mover (0 under a chance node)
    uint32_t visits;
    uint32_t first_child;  // 0: not expanded (the root, index 0, is nobody's child)
    Action action;         // the action leading here
    float probability;     // children of chance nodes: the outcome's; of decision nodes: the prior (evaluator)
    uint16_t num_children;
    int8_t player;  // who moves here: a seat, kChancePlayer or kTerminalPlayer
    uint8_t expanded;
  };
  static_assert(sizeof(Node) <= 32, "MCTS nodes stay within 32 bytes (issue 13)");

  MctsTree(const G& game, const State& root, const MctsOptions& options, uint64_t seed)
      : game_(game), root_(root), options_(options), rng_(seed), evaluator_(game, options) {
    allocate(1);
    node(0) = Node{};
    node(0).player = static_cast<int8_t>(game.current_player(root));
  }

  // Runs iterations until `iterations` are done (0: no limit), `time_limit` seconds have passed
  // since `start` (0: no limit) or the stop flag is set. Unless stopped, at least one iteration
  // runs, so that there is a move to return.
  long search(long iterations, std::chrono::steady_clock::time_point start, double time_limit) {
    const auto evaluated_iteration = [this] {
      if (begin_iteration()) evaluate_here();
    };
    if (evaluated() && !root_evaluated() && !stop_requested(options_.stop)) evaluated_iteration();  // the root's
    return detail::run_iterations(
        iterations, start, time_limit, options_.stop, options_.progress,
        [&] { evaluated() ? evaluated_iteration() : iterate(); },
        [this](long done) {
          detail::report_root(*options_.progress, done, node(0).num_children, [&](int i) {
            const Node& c = root_child(i);
            return std::tuple<Action, long, double>(c.action, c.visits, c.value);
          });
        });
  }

  // An evaluated iteration in two halves, for evaluations made outside the tree (options.evaluator
  // kOutside; engine/batched_search.h): begin_iteration() walks to a leaf and returns true if it
  // needs an evaluation, of leaf_state() for leaf_player(); end_iteration(values, priors) gives it
  // (values per seat; priors indexed by action, null for uniform) and backs it up. False: the walk
  // reached the end of the game, and that iteration is complete. The root's own evaluation comes
  // first (root_evaluated() false) and is not an iteration.
  bool begin_iteration() {
    State& state = leaf_;
    state = root_;
    path_.clear();
    path_.push_back(0);
    uint32_t index = 0;
    for (;;) {
      if (game_.is_terminal(state)) {
        double returns[kP] = {};
        playout_rewards(game_, state, options_, returns);
        backup(returns);
        return false;
      }
      if (game_.is_chance(state)) {
        if (!node(index).expanded) expand(index, state);
        if (node(index).num_children == 0) {  // memory guard: on by chance to a decision, off the tree
          while (game_.is_chance(state)) game_.apply(state, game_.sample_chance(state, rng_));
          if (game_.is_terminal(state)) continue;
          break;
        }
        index = select_child(index, state);
      } else {
        const Node& n = node(index);
        if (!n.expanded || n.num_children == 0) break;  // a new leaf (or the memory guard's)
        index = select_evaluated(index);
      }
      game_.apply(state, node(index).action);
      Node& c = node(index);
      if (c.visits == 0) c.player = static_cast<int8_t>(game_.current_player(state));
      path_.push_back(index);
    }
    return true;
  }
  const State& leaf_state() const { return leaf_; }
  int leaf_player() const { return game_.current_player(leaf_); }
  void end_iteration(const double* values, const float* priors) {
    const uint32_t index = path_.back();
    const bool first = !node(index).expanded;
    if (first) expand(index, leaf_, priors);
    if (index == 0 && first) {  // the root's own evaluation: its priors only, not an iteration
      Node& root = node(0);
      if (root.num_children) {
        float noisy[G::Actions::kCapacity];
        for (int i = 0; i < root.num_children; ++i) noisy[i] = root_child(i).probability;
        detail::add_root_noise(noisy, root.num_children, options_.root_noise, options_.root_noise_alpha, rng_);
        for (int i = 0; i < root.num_children; ++i) node(root.first_child + i).probability = noisy[i];
      }
      sync_root();
      ++node(0).visits;
      return;
    }
    double returns[kP] = {};
    for (int p = 0; p < game_.num_players(); ++p) returns[p] = values[p];
    backup(returns);
  }
  bool root_evaluated() const { return node(0).expanded; }

  const Node& root() const { return node(0); }
  const float* root_sum() const { return root_sum_; }  // summed returns per seat over this search's iterations
  const Node& root_child(int i) const { return node(node(0).first_child + i); }

  // For the next search of a kept tree: its settings (budget, stop flag, progress) and generator.
  void prepare(const MctsOptions& options, uint64_t seed) {
    options_ = options;
    rng_ = Rng(seed);
    evaluator_ = detail::LeafEvaluator<G>(game_, options);
    for (float& v : root_sum_) v = 0;
  }
  Evaluator evaluator() const { return options_.evaluator; }

  // Tree reuse: moves the root down `path` (the actions and chance outcomes played since this
  // tree's root) to `new_root`, keeping that subtree and dropping the rest (copied into fresh
  // chunks, so memory is the subtree's). False, the tree unchanged, when the tree never reached
  // that position.
  bool reroot(const State& new_root, const Action* path, int length) {
    uint32_t index = 0;
    for (int k = 0; k < length; ++k) {
      const Node& n = node(index);
      uint32_t found = 0;
      for (uint32_t i = 0; i < n.num_children && !found; ++i)
        if (node(n.first_child + i).action == path[k]) found = n.first_child + i;
      if (!found || node(found).visits == 0) return false;
      index = found;
    }
    if (index != 0) keep_subtree(index);
    root_ = new_root;
    node(0).player = static_cast<int8_t>(game_.current_player(new_root));
    sync_root();
    return true;
  }
  long num_nodes() const { return size_; }
  size_t used_bytes() const { return static_cast<size_t>(size_) * sizeof(Node); }
  size_t reserved_bytes() const { return chunks_.size() * kChunk * sizeof(Node); }

 private:
  static constexpr uint32_t kChunk = 1u << 16;
  const G& game_;
  State root_;
  MctsOptions options_;
  Rng rng_;
  // Node is trivially copyable, so a chunk's raw memory holds its nodes (C++20's implicit object
  // creation); chunks come from and go back to the pool.
  struct ChunkReturn {
    void operator()(Node* chunk) const { detail::ChunkPool::instance().give(chunk, kChunk * sizeof(Node)); }
  };
  using Chunk = std::unique_ptr<Node[], ChunkReturn>;
  static_assert(std::is_trivially_copyable_v<Node>);
  std::vector<Chunk> chunks_;
  uint32_t size_ = 0;           // nodes in use
  uint32_t used_in_chunk_ = 0;  // nodes used in the last chunk
  std::vector<uint32_t> path_;
  State leaf_{};  // an evaluated iteration's leaf
  detail::LeafEvaluator<G> evaluator_;
  float root_sum_[kP] = {};
  // The root's children's UCT terms, kept up to date by the backup: every iteration scans all of the
  // root's children (320 at Purzelbaum's opening), and two arrays of doubles scan faster than the
  // nodes, with the same scores. root_mean_: value / n (+infinity while unvisited, so that the first
  // unvisited child is the first maximum); root_inverse_sqrt_: 1 / sqrt(n) (0 while unvisited).
  std::vector<double> root_mean_;
  std::vector<double> root_inverse_sqrt_;

  void sync_root_child(uint32_t i) {
    const Node& c = root_child(static_cast<int>(i));
    root_mean_[i] = c.visits ? c.value * detail::inverse(c.visits) : std::numeric_limits<double>::infinity();
    root_inverse_sqrt_[i] = c.visits ? detail::inverse_sqrt(c.visits) : 0.0;
  }
  void sync_root() {
    const Node& r = node(0);
    const uint32_t count = r.first_child ? r.num_children : 0;
    root_mean_.resize(count);
    root_inverse_sqrt_.resize(count);
    for (uint32_t i = 0; i < count; ++i) sync_root_child(i);
  }

  Node& node(uint32_t i) { return chunks_[i / kChunk][i % kChunk]; }
  const Node& node(uint32_t i) const { return chunks_[i / kChunk][i % kChunk]; }

  // The subtree under `top` becomes the whole tree, `top` its root (index 0), children blocks kept
  // contiguous.
  void keep_subtree(uint32_t top) {
    std::vector<Chunk> old;
    old.swap(chunks_);
    auto old_node = [&](uint32_t i) -> const Node& { return old[i / kChunk][i % kChunk]; };
    size_ = used_in_chunk_ = 0;
    allocate(1);
    node(0) = old_node(top);
    std::vector<uint32_t> queue{0};  // new indices whose children are still in the old chunks
    for (size_t k = 0; k < queue.size(); ++k) {
      const Node parent = node(queue[k]);
      if (parent.first_child == 0 || parent.num_children == 0) continue;
      const uint32_t first = allocate(parent.num_children);
      for (uint32_t i = 0; i < parent.num_children; ++i) {
        node(first + i) = old_node(parent.first_child + i);
        queue.push_back(first + i);
      }
      node(queue[k]).first_child = first;
    }
  }

  // Reserves `count` contiguous nodes (never across chunks); returns the first index.
  uint32_t allocate(uint32_t count) {
    if (chunks_.empty() || used_in_chunk_ + count > kChunk) {
      chunks_.emplace_back(static_cast<Node*>(detail::ChunkPool::instance().take(kChunk * sizeof(Node))));
      used_in_chunk_ = 0;
    }
    const uint32_t first = static_cast<uint32_t>(chunks_.size() - 1) * kChunk + used_in_chunk_;
    used_in_chunk_ += count;
    size_ += count;
    return first;
  }

  bool evaluated() const { return options_.evaluator != Evaluator::kPlayout; }

  // The built-in evaluator at the leaf begin_iteration reached.
  void evaluate_here() {
    double values[kP] = {};
    const float* priors = evaluator_.evaluate(leaf_, values, [this](double* out) {
      State state = leaf_;
      playout(state);
      playout_rewards(game_, state, options_, out);
    });
    end_iteration(values, priors);
  }

  // PUCT over a decision node's children (search/evaluation.h), their priors in `probability`.
  uint32_t select_evaluated(uint32_t index) {
    const Node& parent = node(index);
    const Node* children = &node(parent.first_child);
    const int i = detail::select_puct(parent.num_children, parent.visits, options_.exploration, [&](int k) {
      return detail::PuctChild{children[k].visits, children[k].value, children[k].probability};
    });
    return parent.first_child + static_cast<uint32_t>(i);
  }

  // An evaluated leaf's children, in the legal order, with their priors (`priors` by action; null:
  // uniform).
  void expand(uint32_t index, const State& state, const float* priors) {
    node(index).expanded = 1;
    if (static_cast<long>(size_) + G::Actions::kCapacity > options_.max_nodes) return;  // memory guard
    typename G::Actions legal;
    game_.legal_actions(state, legal);
    float normalised[G::Actions::kCapacity];
    detail::normalised_priors(legal, legal.size(), priors, normalised);
    const uint32_t first = allocate(legal.size());
    for (int i = 0; i < legal.size(); ++i) {
      Node& c = node(first + i);
      c = Node{};
      c.action = legal[i];
      c.probability = normalised[i];
    }
    Node& p = node(index);
    p.first_child = first;
    p.num_children = static_cast<uint16_t>(legal.size());
  }

  // Every node on path_ takes one more visit and the return of the seat that chose it.
  void backup(const double* returns) {
    ++node(0).visits;
    for (int p = 0; p < kP; ++p) root_sum_[p] += static_cast<float>(returns[p]);
    for (size_t k = 1; k < path_.size(); ++k) {
      const int mover = node(path_[k - 1]).player;
      Node& n = node(path_[k]);
      ++n.visits;
      if (mover >= 0) n.value += static_cast<float>(returns[mover]);
    }
    if (path_.size() > 1) sync_root_child(path_[1] - node(0).first_child);
  }

  void expand(uint32_t index, const State& state) {
    Node& parent = node(index);
    parent.expanded = 1;
    if (static_cast<long>(size_) + G::Actions::kCapacity > options_.max_nodes) return;  // memory guard
    if (game_.is_chance(state)) {
      typename G::Chances outcomes;
      game_.chance_outcomes(state, outcomes);
      const uint32_t first = allocate(outcomes.size());
      for (int i = 0; i < outcomes.size(); ++i) {
        Node& c = node(first + i);
        c = Node{};
        c.action = outcomes[i].action;
        c.probability = static_cast<float>(outcomes[i].probability);
      }
      Node& p = node(index);
      p.first_child = first;
      p.num_children = static_cast<uint16_t>(outcomes.size());
    } else {
      typename G::Actions legal;
      game_.legal_actions(state, legal);
      // Widening and the bias need the policy's move first (child 0 is the biased one); otherwise
      // the legal order stays: trying Purzelbaum's likeliest hits first made small budgets weaker
      // (bench/RESULTS.md).
      const bool guided = options_.widening > 0 || options_.policy_bias > 0;
      if constexpr (HasActionOrder<G>) {
        if (guided) order_actions(game_, state, legal);
      } else if constexpr (HasRolloutPolicy<G>) {
        if (guided) {
          const Action hint = rollout_action(game_, state, rng_);
          for (int i = 1; i < legal.size(); ++i)
            if (legal[i] == hint) std::swap(legal[0], legal[i]);
        }
      }
      const uint32_t first = allocate(legal.size());
      for (int i = 0; i < legal.size(); ++i) {
        Node& c = node(first + i);
        c = Node{};
        c.action = legal[i];
      }
      Node& p = node(index);
      p.first_child = first;
      p.num_children = static_cast<uint16_t>(legal.size());
    }
  }

  uint32_t select_child(uint32_t index, const State& state) {
    const Node& parent = node(index);
    const uint32_t first = parent.first_child;
    if (game_.is_chance(state)) {
      // Sample by exact probability; the stored floats only pick the bucket.
      double r = rng_.uniform();
      const Node* outcomes = &node(first);
      for (uint32_t i = 0; i + 1 < parent.num_children; ++i) {
        r -= outcomes[i].probability;
        if (r < 0) return first + i;
      }
      return first + parent.num_children - 1;
    }
    const bool widened = HasActionOrder<G> && options_.widening > 0;
    // Unvisited children are taken first and in order, so while some remain every selection takes
    // the next: below the root a node's first visit was a playout, so it has made visits - 1
    // selections, all new children. (Under widening the count of open children grows, and some
    // selections may have been revisits.) Found without scoring or reading the children before it.
    if (index != 0 && !widened && parent.visits - 1 < parent.num_children) return first + parent.visits - 1;
    // C * sqrt(ln N / n) as (C * sqrt(ln N)) / sqrt(n): one square root per node, not per child.
    const double explore = options_.exploration * detail::sqrt_log(parent.visits);
    uint32_t open = parent.num_children;
    if (widened) {
      const double k = std::ceil(options_.widening * std::sqrt(parent.visits + 1.0));
      if (k < open) open = static_cast<uint32_t>(std::max(1.0, k));
    }
    if (index == 0) return first + static_cast<uint32_t>(select_root(open, explore));
    const Node* children = &node(first);  // a node's children never straddle chunks
    uint32_t best = 0;
    double best_score = -1e300;
    for (uint32_t i = 0; i < open; ++i) {
      const Node& c = children[i];
      if (c.visits == 0) return first + i;
      double score = c.value * detail::inverse(c.visits) + explore * detail::inverse_sqrt(c.visits);
      if constexpr (kGuidable) {  // child 0 is the policy's move (expand)
        if (i == 0 && options_.policy_bias > 0) score += detail::policy_bonus(options_.policy_bias, c.visits);
      }
      if (score > best_score) {
        best_score = score;
        best = i;
      }
    }
    return first + best;
  }

  // select_child at the root, from the root's arrays: the same child.
  int select_root(uint32_t open, double explore) {
    double best_score = -1e300;
    uint32_t begin = 0;
    if constexpr (kGuidable) {  // child 0 is the policy's move (expand)
      if (options_.policy_bias > 0 && open > 0) {
        const uint32_t n = root_child(0).visits;
        if (n == 0) return 0;
        best_score = root_mean_[0] + explore * root_inverse_sqrt_[0] + detail::policy_bonus(options_.policy_bias, n);
        begin = 1;
      }
    }
    return detail::first_maximum(root_mean_.data(), root_inverse_sqrt_.data(), begin, open, explore, best_score);
  }

  void playout(State& state) { play_out(game_, state, rng_, options_.heuristic_rollouts); }

  void iterate() {
    State state = root_;
    path_.clear();
    uint32_t index = 0;
    path_.push_back(0);
    for (;;) {
      if (game_.is_terminal(state)) break;
      Node& n = node(index);
      if (n.visits == 0 && index != 0) {  // a new leaf: one playout from here
        playout(state);
        break;
      }
      if (!n.expanded) {
        expand(index, state);
        if (index == 0) sync_root();
      }
      if (node(index).num_children == 0) {  // memory guard hit: evaluate by playout
        playout(state);
        break;
      }
      index = select_child(index, state);
      game_.apply(state, node(index).action);
      Node& c = node(index);
      if (c.visits == 0) c.player = static_cast<int8_t>(game_.current_player(state));
      path_.push_back(index);
    }
    double returns[kP] = {};
    playout_rewards(game_, state, options_, returns);
    backup(returns);
  }
};

namespace detail {

// The result of one search over `trees` (root parallelism: their root statistics merged). A tree
// type has root(), root_child(i), root_sum(), num_nodes(), used_bytes() and reserved_bytes().
template <typename Tree>
MctsResult merge_trees(int players, const std::vector<std::unique_ptr<Tree>>& trees, const std::vector<long>& done,
                       const std::vector<long>& reused, const StopFlag* stop,
                       std::chrono::steady_clock::time_point start) {
  MctsResult result;
  result.root_value.assign(players, 0.0);
  std::vector<ActionStats> stats;
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
// (MctsResult::reused_visits); the budget counts only new iterations.
template <typename Tree, typename Options>
class ReusingSearch {
 public:
  using Game = typename Tree::GameType;
  using State = typename Tree::State;

  explicit ReusingSearch(const Game& game) : game_(game) {}
  ReusingSearch(const ReusingSearch&) = delete;
  ReusingSearch& operator=(const ReusingSearch&) = delete;
  ReusingSearch(ReusingSearch&&) = default;

  MctsResult search(const State& root, const std::vector<Action>* path, const Options& options) {
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

// Searches from `root` (a decision node) and returns the most visited root action with statistics.
template <GameConcept G>
MctsResult mcts_search(const G& game, const typename G::StateType& root, const MctsOptions& options) {
  return ReusingSearch<MctsTree<G>, MctsOptions>(game).search(root, nullptr, options);
}

}  // namespace nutcore
