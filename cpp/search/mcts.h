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
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "core/game_concept.h"
#include "core/stop.h"
#include "search/tree_search.h"

namespace nutcore {

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

// Searches from `root` (a decision node) and returns the most visited root action with statistics.
template <GameConcept G>
TreeSearchResult mcts_search(const G& game, const typename G::StateType& root, const MctsOptions& options) {
  return KeptTreeSearch<MctsTree<G>, MctsOptions>(game).search(root, nullptr, options);
}

}  // namespace nutcore
