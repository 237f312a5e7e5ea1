// Information-set Monte-Carlo tree search (single-observer ISMCTS; Cowling, Powley & Whitehouse,
// "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012), and determinized MCTS (PIMC) as
// a baseline, for games of hidden information with chance, 2-4 players.
//
// ISMCTS, one iteration:
//   1. determinise: d = resample(root, observer) -- a full state drawn from the posterior given
//      what the searching seat knows; the search never reads the root's hidden part otherwise
//   2. walk from d: at chance nodes sample the outcome in d; at a decision of seat p find the node
//      keyed by p's information-set key (so each seat decides on what it knows, and different
//      histories it cannot tell apart share statistics) and pick the child maximising
//        Q_p(c) + C * sqrt(ln N / n(c)),   N: the node's selections so far, this one included
//      The actions legal at a decision are a function of the acting seat's information set (the
//      game concept's contract), so every child is legal whenever its node is visited: N is also
//      each child's availability in the paper's subset-armed bandit. Unvisited children first,
//      the rollout policy's choice first among them
//      Keying by the acting seat's view follows OpenSpiel's ISMCTS. A tree keyed by the searching
//      seat's view everywhere (opponents deciding on what the searcher knows) was tried: it models
//      opponents as not knowing their own cards, and on Ritter walked into thieves another seat had
//      seen (tests/generic/test_ismcts.py, test_avoids_a_thief_another_seat_knows_when_carrying).
//   3. nodes not yet in the tree are added on the way, up to and including the first one of the
//      searching seat, then a playout to the end of the game. The other seats' nodes fragment (one
//      per determinisation of what they know): new ones would end most walks one move deep, so the
//      walk goes on through them, where each seat plays its policy's move from its own knowledge.
//      At 2 players this took ISMCTS from even with PIMC to a clear lead (bench/RESULTS.md).
//   4. backup: each (node, child) on the path adds the return of the seat deciding there
//
// Nodes are found through an open-addressing table from key to node; nodes and children live in
// flat arrays that grow geometrically (no allocation per node or iteration once warm). Root
// parallelism: `threads` independent trees with seeds seed*phi + t, merged at the root.
//
// PIMC (perfect-information Monte Carlo): `determinizations` states drawn the same way, each searched
// by plain MCTS (search/mcts.h) as if its hidden part were known; root statistics are summed.
// It is the classic baseline: strong where information does not matter, blind to its value.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/game_concept.h"
#include "core/stop.h"
#include "search/mcts.h"
#include "search/random_playout.h"

namespace nutcore {

// MCTS's budget and settings (iterations, time_limit, exploration, seed, threads,
// heuristic_rollouts, max_nodes, policy_bias, margin, stop), and:
// Its defaults were tuned on Ritter at 2 players against the greedy bot (bench/RESULTS.md): a lower
// exploration constant and a bias towards the greedy policy beat plain UCB clearly.
struct IsmctsOptions : MctsOptions {
  IsmctsOptions() {
    exploration = 0.3;
    policy_bias = 1.0;
  }
  int determinizations = 20;  // PIMC only: states sampled, each searched with an equal share
};

// PIMC: ISMCTS's settings but the policy bias (its trees are plain MCTS over sampled states).
struct PimcOptions : IsmctsOptions {
  PimcOptions() { policy_bias = 0.0; }
};

template <GameConcept G>
class IsmctsTree {
 public:
  using GameType = G;
  using State = typename G::StateType;
  static constexpr int kP = G::kMaxNumPlayers;
  // Tree reuse: whether a kept tree goes on is decided from the searching seat's view alone (its
  // information set found in the tree), never from the true history, which may hold what the
  // seat has not seen.
  static constexpr bool kReusesByView = true;

  struct Child {
    Action action;
    uint32_t visits;
    float value;  // summed returns of the seat deciding at the parent
  };
  // A node's children are listed at its second selection. Until then it holds one child, the move
  // its first selection takes (the policy's, else the first legal): most nodes of the other seats
  // are reached once, and listing all their moves tripled the tree's memory on a game with tens of
  // moves a decision (bench/RESULTS.md).
  struct Node {
    uint64_t key;
    uint32_t first_child;
    uint32_t selections;    // walks that chose a child here
    Action hint;            // the rollout policy's action here (-1: none); it reads only the seat's knowledge
    uint16_t num_children;  // legal actions here, listed or not
    int8_t player;
    uint8_t listed : 1;     // first_child starts all num_children children (else the one child taken first)
    uint8_t evaluated : 1;  // an evaluated search's node with its priors (priors_); the root waits for its own
  };
  static_assert(sizeof(Node) <= 24, "ISMCTS nodes stay within 24 bytes");

  IsmctsTree(const G& game, const State& root, const IsmctsOptions& options, uint64_t seed)
      : game_(game),
        root_(root),
        options_(options),
        rng_(seed),
        observer_(game.current_player(root)),
        evaluator_(game, options) {
    table_.assign(1024, kEmpty);
    nodes_.reserve(1024);
    children_.reserve(1024 * 4);
    typename G::Actions legal;
    game.legal_actions(root, legal);
    list_children(find_or_add(game.information_key(root, observer_), root, legal), legal);
  }

  long search(long iterations, std::chrono::steady_clock::time_point start, double time_limit) {
    const auto evaluated_iteration = [this] {
      if (begin_iteration()) evaluate_here();
    };
    if (evaluated() && !root_evaluated() && !stop_requested(options_.stop)) evaluated_iteration();  // the root's
    return detail::run_iterations(
        iterations, start, time_limit, options_.stop, options_.progress,
        [&] { evaluated() ? evaluated_iteration() : iterate(); },
        [this](long done) {
          detail::report_root(*options_.progress, done, root().num_children, [&](int i) {
            const Child& c = root_child(i);
            return std::tuple<Action, long, double>(c.action, c.visits, c.value);
          });
        });
  }

  // An evaluated iteration in two halves (as MctsTree's): begin_iteration() draws a state from the
  // searching seat's posterior and walks to the first node not yet evaluated, through the other
  // seats' nodes as step 3 above (so the leaf is the searching seat's wherever the game has a
  // rollout policy); true: leaf_state() needs an evaluation for leaf_player(), given to
  // end_iteration(values, priors); false: the walk reached the end of the game (backed up). The
  // leaf's seat decides there on its own information set, drawn with the rest of the state: the
  // evaluator sees that seat's observation of the drawn state, never the true one. The root's own
  // evaluation comes first and is not an iteration.
  bool begin_iteration() {
    State& state = leaf_;
    state = game_.resample(root_, observer_, rng_);
    path_.clear();
    for (;;) {
      if (game_.is_terminal(state)) {
        double returns[kP] = {};
        playout_rewards(game_, state, options_, returns);
        backup(returns);
        return false;
      }
      if (game_.is_chance(state)) {
        game_.apply(state, game_.sample_chance(state, rng_));
        continue;
      }
      game_.legal_actions(state, legal_);
      const int player = game_.current_player(state);
      leaf_key_ = game_.information_key(state, player);
      leaf_index_ = find(leaf_key_);
      // Another seat's node, not evaluated: walked through as the playout search walks them (the
      // rollout policy's move first, then UCB), not made the leaf. Those nodes are keyed by what
      // that seat knows, which differs between determinisations, so most are new: as leaves they
      // ended nearly every walk one move below the root, valued from the other seat's view of the
      // sample, and the searching seat's own tree stayed one move deep (bench/RESULTS.md).
      if (player != observer_ && walks_through(leaf_index_) && ucb_step(leaf_key_, state) != kFull) continue;
      // New, awaiting its priors, or (a game breaking the concept's contract) other moves here.
      if (leaf_index_ == kEmpty || !nodes_[leaf_index_].evaluated || !matches(leaf_index_, legal_)) return true;
      const uint32_t i = select_evaluated(leaf_index_);
      game_.apply(state, children_[i].action);
      path_.emplace_back(leaf_index_, i);
    }
  }
  const State& leaf_state() const { return leaf_; }
  int leaf_player() const { return game_.current_player(leaf_); }
  void end_iteration(const double* values, const float* priors) {
    uint32_t index = leaf_index_;
    if (index == kEmpty) index = add_evaluated(leaf_key_, game_.current_player(leaf_), legal_.size());
    if (index != kFull && !nodes_[index].evaluated && matches(index, legal_)) {
      list_children(index, legal_);  // a node of an earlier search by playouts (tree reuse) may hold one
      Node& node = nodes_[index];
      if (priors_.size() < children_.size()) priors_.resize(children_.size(), 0.0f);
      detail::normalised_priors(legal_, legal_.size(), priors, &priors_[node.first_child]);
      node.evaluated = 1;
      if (index == root_index_ && path_.empty()) {  // the root's own evaluation: not an iteration
        detail::add_root_noise(&priors_[node.first_child], node.num_children, options_.root_noise,
                               options_.root_noise_alpha, rng_);
        return;
      }
    }
    double returns[kP] = {};
    for (int p = 0; p < game_.num_players(); ++p) returns[p] = values[p];
    backup(returns);
  }
  bool root_evaluated() const { return root().evaluated; }

  const Node& root() const { return nodes_[root_index_]; }
  const double* root_sum() const { return root_sum_; }  // summed returns per seat over this search's iterations
  const Child& root_child(int i) const { return children_[root().first_child + i]; }

  // For the next search of a kept tree: its settings (budget, stop flag, progress) and generator.
  void prepare(const IsmctsOptions& options, uint64_t seed) {
    options_ = options;
    rng_ = Rng(seed);
    evaluator_ = detail::LeafEvaluator<G>(game_, options);
    for (double& v : root_sum_) v = 0;
  }
  Evaluator evaluator() const { return options_.evaluator; }

  // Tree reuse: nodes are keyed by information sets, so all of them stay valid for a later
  // position of the same game; the root becomes the searching seat's node there. False when the
  // seat is another, the tree never reached that information set, or the tree has used half its
  // node budget (a fresh tree then keeps memory bounded).
  bool reroot(const State& new_root, const Action*, int) {
    if (game_.current_player(new_root) != observer_) return false;
    if ((static_cast<long>(nodes_.size()) + moves_) * 2 > options_.max_nodes) return false;
    const uint32_t index = find(game_.information_key(new_root, observer_));
    if (index == kEmpty) return false;
    typename G::Actions legal;
    game_.legal_actions(new_root, legal);
    if (!matches(index, legal)) return false;
    list_children(index, legal);
    root_index_ = index;
    root_ = new_root;
    return true;
  }
  long num_nodes() const { return static_cast<long>(nodes_.size()); }
  size_t used_bytes() const {
    return nodes_.size() * sizeof(Node) + children_.size() * sizeof(Child) + table_.size() * sizeof(uint32_t);
  }
  size_t reserved_bytes() const {
    return nodes_.capacity() * sizeof(Node) + children_.capacity() * sizeof(Child) +
           table_.capacity() * sizeof(uint32_t);
  }

 private:
  static constexpr uint32_t kEmpty = 0xFFFFFFFFu;
  static constexpr uint32_t kFull = 0xFFFFFFFEu;  // find_or_add: the memory guard refused a node
  const G& game_;
  State root_;
  IsmctsOptions options_;
  Rng rng_;
  int observer_;
  uint32_t root_index_ = 0;  // the root's node: 0 but after a reroot
  std::vector<Node> nodes_;
  std::vector<Child> children_;
  std::vector<uint32_t> table_;  // open addressing, linear probing: node index or kEmpty
  long moves_ = 0;               // the nodes' num_children summed: the memory guard's count, listed or not
  std::vector<std::pair<uint32_t, uint32_t>> path_;  // (node, index in children_)
  double root_sum_[kP] = {};
  typename G::Actions legal_;  // the legal actions at the node being visited
  // Evaluated searches: the children's priors (by index in children_), and the leaf of the
  // iteration under way (its state, key and node: kEmpty while new, kFull if refused).
  std::vector<float> priors_;
  State leaf_{};
  uint64_t leaf_key_ = 0;
  uint32_t leaf_index_ = kEmpty;
  detail::LeafEvaluator<G> evaluator_;

  // Whether an evaluated walk goes on through another seat's node `index` (kEmpty: new): while it
  // holds no priors, and only with a rollout policy to choose its first move (without one the
  // node is the leaf, evaluated from that seat's view).
  bool walks_through(uint32_t index) const { return (index == kEmpty || !nodes_[index].evaluated) && hints(); }

  // Whether new nodes hold the rollout policy's move as their first (Node::hint).
  bool hints() const {
    if constexpr (HasRolloutPolicy<G>) return options_.policy_bias > 0;
    return false;
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

  // An evaluated search's new node for `key` (the leaf's, `count` moves in legal_), its children
  // listed at once; kFull if the memory guard refuses it.
  uint32_t add_evaluated(uint64_t key, int player, int count) {
    if (!room_for(count)) return kFull;
    const uint32_t index = add_node({key, static_cast<uint32_t>(children_.size()), 0, -1, static_cast<uint16_t>(count),
                                     static_cast<int8_t>(player), 1, 0});
    for (int k = 0; k < count; ++k) children_.push_back({legal_[k], 0, 0.0f});
    return index;
  }

  // PUCT over a listed node's children (search/evaluation.h); its index in children_.
  uint32_t select_evaluated(uint32_t index) {
    Node& node = nodes_[index];
    const uint32_t first = node.first_child;
    const int i = detail::select_puct(node.num_children, node.selections + 1, options_.exploration, [&](int k) {
      const Child& c = children_[first + k];
      return detail::PuctChild{c.visits, c.value, priors_[first + k]};
    });
    ++node.selections;
    return first + static_cast<uint32_t>(i);
  }

  // Each (node, child) on path_ adds the return of the seat deciding at the node.
  void backup(const double* returns) {
    for (int p = 0; p < kP; ++p) root_sum_[p] += returns[p];
    for (const auto& [index, i] : path_) {
      Child& c = children_[i];
      ++c.visits;
      c.value += static_cast<float>(returns[nodes_[index].player]);
    }
  }

  uint32_t find(uint64_t key) const {
    const size_t mask = table_.size() - 1;
    for (size_t i = key & mask;; i = (i + 1) & mask) {
      const uint32_t n = table_[i];
      if (n == kEmpty || nodes_[n].key == key) return n;
    }
  }

  // Memory guard: nodes and their children both count (a node of a game with many actions holds as
  // many children), so max_nodes bounds the memory as it does for MCTS.
  bool room_for(int moves) const { return static_cast<long>(nodes_.size() + moves) + moves_ < options_.max_nodes; }

  // `node` added to the table under its key (its children are the caller's to add).
  uint32_t add_node(const Node& node) {
    if (2 * (nodes_.size() + 1) > table_.size()) grow_table();
    const size_t mask = table_.size() - 1;
    size_t i = node.key & mask;
    while (table_[i] != kEmpty) i = (i + 1) & mask;
    const uint32_t index = static_cast<uint32_t>(nodes_.size());
    table_[i] = index;
    nodes_.push_back(node);
    moves_ += node.num_children;
    return index;
  }

  // The node for `key`, added with `legal` (the actions at `state`) as its children if new.
  uint32_t find_or_add(uint64_t key, const State& state, const typename G::Actions& legal) {
    const uint32_t found = find(key);
    if (found != kEmpty) return found;
    if (!room_for(legal.size())) return kFull;
    Action hint = -1;
    if constexpr (HasRolloutPolicy<G>) {
      if (hints()) hint = rollout_action(game_, state, rng_);
    }
    const uint32_t index =
        add_node({key, static_cast<uint32_t>(children_.size()), 0, hint, static_cast<uint16_t>(legal.size()),
                  static_cast<int8_t>(game_.current_player(state)), 0, 0});
    // The move a first selection takes: unvisited children in order, the policy's first.
    Action first = legal[0];
    for (Action a : legal)
      if (a == hint) first = a;
    children_.push_back({first, 0, 0.0f});
    return index;
  }

  // Whether `legal` (this sample's actions) can be node `index`'s moves: as many, and the children
  // it holds among them (all of them, in order, once listed). False only for a game breaking the
  // concept's contract.
  bool matches(uint32_t index, const typename G::Actions& legal) const {
    const Node& node = nodes_[index];
    if (legal.size() != node.num_children) return false;
    const Child* c = &children_[node.first_child];
    if (!node.listed) return std::find(legal.begin(), legal.end(), c->action) != legal.end();
    for (int i = 0; i < node.num_children; ++i)
      if (c[i].action != legal[i]) return false;
    return true;
  }

  // Lists node `index`'s children (`legal`, which matches it), keeping the statistics of the one it
  // held.
  void list_children(uint32_t index, const typename G::Actions& legal) {
    Node& node = nodes_[index];
    if (node.listed) return;
    const Child taken = children_[node.first_child];
    node.first_child = static_cast<uint32_t>(children_.size());
    node.listed = 1;
    for (Action a : legal) children_.push_back(a == taken.action ? taken : Child{a, 0, 0.0f});
  }

  void grow_table() {
    std::vector<uint32_t> old(table_.size() * 2, kEmpty);
    old.swap(table_);
    const size_t mask = table_.size() - 1;
    for (uint32_t n = 0; n < nodes_.size(); ++n) {
      size_t i = nodes_[n].key & mask;
      while (table_[i] != kEmpty) i = (i + 1) & mask;
      table_[i] = n;
    }
  }

  // UCB over the node's children; its index in children_, or -1 if `legal` (this
  // determinisation's actions) are not the children's, which only a game breaking the concept's
  // contract can cause.
  long select(uint32_t index, const typename G::Actions& legal) {
    if (!matches(index, legal)) return -1;
    if (!nodes_[index].listed) {
      // A first selection, or a second one in the same walk (the first not yet backed up, so all
      // children still unvisited), takes the one child held.
      const uint32_t taken = nodes_[index].first_child;
      const bool again = std::any_of(path_.begin(), path_.end(), [&](const auto& e) { return e.second == taken; });
      if (nodes_[index].selections == 0 || again) {
        ++nodes_[index].selections;
        return taken;
      }
      list_children(index, legal);
    }
    Node& node = nodes_[index];
    const Child* c = &children_[node.first_child];
    ++node.selections;
    int first_unvisited = -1;
    for (int i = 0; i < node.num_children; ++i) {
      if (c[i].visits != 0) continue;
      if (first_unvisited < 0) first_unvisited = i;
      if (c[i].action == node.hint) return node.first_child + i;  // the policy's choice is tried first
    }
    if (first_unvisited >= 0) return node.first_child + first_unvisited;
    // C * sqrt(ln N / n) as (C * sqrt(ln N)) / sqrt(n), from tables (detail::VisitTables).
    const double explore = options_.exploration * detail::sqrt_log(node.selections);
    int best = -1;
    double best_score = -1e300;
    for (int i = 0; i < node.num_children; ++i) {
      double score = c[i].value * detail::inverse(c[i].visits) + explore * detail::inverse_sqrt(c[i].visits);
      if (c[i].action == node.hint) score += detail::policy_bonus(options_.policy_bias, c[i].visits);
      if (score > best_score) {
        best_score = score;
        best = i;
      }
    }
    return node.first_child + best;
  }

  // One step of a walk by UCB at `state` (its moves in legal_): the node for `key` found or added,
  // a child selected and played, the pair put on path_. The node's index; kFull, with nothing
  // played, if the memory guard refused the node or the game broke the concept's contract.
  uint32_t ucb_step(uint64_t key, State& state) {
    const uint32_t index = find_or_add(key, state, legal_);
    if (index == kFull) return kFull;
    const long i = select(index, legal_);
    if (i < 0) return kFull;
    game_.apply(state, children_[i].action);
    path_.emplace_back(index, static_cast<uint32_t>(i));
    return index;
  }

  void playout(State& state) { play_out(game_, state, rng_, options_.heuristic_rollouts); }

  void iterate() {
    State state = game_.resample(root_, observer_, rng_);
    path_.clear();
    while (!game_.is_terminal(state)) {
      if (game_.is_chance(state)) {
        game_.apply(state, game_.sample_chance(state, rng_));
        continue;
      }
      const int player = game_.current_player(state);
      game_.legal_actions(state, legal_);
      const uint32_t before = static_cast<uint32_t>(nodes_.size());
      const uint32_t index = ucb_step(game_.information_key(state, player), state);
      if (index == kFull) break;  // memory guard, or a game breaking the concept's contract: play out
      const bool is_new = index >= before;
      // One new node of the searching seat per iteration, then a playout. Other seats' nodes are
      // keyed by what they know, which differs between determinisations, so most of them are new;
      // stopping at them would leave the searcher's own tree about one move deep.
      if (is_new && player == observer_) break;
    }
    playout(state);
    double returns[kP] = {};
    playout_rewards(game_, state, options_, returns);
    backup(returns);
  }
};

// ISMCTS from `root` (a decision node) for the seat to move there; root_value: the mean return per
// seat over all iterations.
template <GameConcept G>
TreeSearchResult ismcts_search(const G& game, const typename G::StateType& root, const IsmctsOptions& options) {
  return KeptTreeSearch<IsmctsTree<G>, IsmctsOptions>(game).search(root, nullptr, options);
}

// PIMC: plain MCTS on `determinizations` sampled states, an equal share of the budget each.
template <GameConcept G>
TreeSearchResult pimc_search(const G& game, const typename G::StateType& root, const IsmctsOptions& options) {
  if (game.is_terminal(root) || game.is_chance(root))
    throw std::invalid_argument("search needs a decision node (the state is terminal or a chance node)");
  check_options(options);
  if (options.determinizations < 1 || options.determinizations > 100000)
    throw std::invalid_argument("determinizations must be 1..100000");
  const auto start = std::chrono::steady_clock::now();
  const int d_count = options.determinizations;
  const int t_count = std::min(options.threads, d_count);
  const int mover = game.current_player(root);
  MctsOptions mcts = options;  // the shared settings; the budget is shared out below
  mcts.progress = nullptr;     // one determinisation's tree is no view of the whole search
  mcts.max_nodes = std::max(1000L, options.max_nodes / t_count);
  struct Part {
    std::vector<ActionTally> stats;
    std::vector<double> sums;
    TreeSearchResult totals;
    std::vector<double> root_sum;
  };
  std::vector<Part> parts(t_count);
  for (Part& part : parts) part.root_sum.assign(game.num_players(), 0.0);
  detail::run_threads(t_count, [&](int t) {
    Part& part = parts[t];
    for (int d = t; d < d_count; d += t_count) {
      if (stop_requested(options.stop)) break;
      // Determinisation d is the same whatever the thread count.
      Rng rng(options.seed * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(d));
      const auto sample = game.resample(root, mover, rng);
      const long share = detail::share_of(options.iterations, d_count, d);
      if (options.iterations > 0 && share == 0) continue;
      MctsTree<G> tree(game, sample, mcts, rng.next());
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      const double time_share =
          options.time_limit > 0 ? (options.time_limit - elapsed) / ((d_count - d + t_count - 1) / t_count) : 0.0;
      if (options.time_limit > 0 && time_share <= 0) break;
      part.totals.iterations += tree.search(share, std::chrono::steady_clock::now(), time_share);
      part.totals.nodes += tree.num_nodes();
      part.totals.tree_bytes = std::max(part.totals.tree_bytes, tree.used_bytes());
      part.totals.reserved_bytes = std::max(part.totals.reserved_bytes, tree.reserved_bytes());
      for (int i = 0; i < tree.root().num_children; ++i)
        detail::add_stat(part.stats, part.sums, tree.root_child(i).action, tree.root_child(i).visits,
                         tree.root_child(i).value);
      for (int p = 0; p < game.num_players(); ++p) part.root_sum[p] += tree.root_sum()[p];
    }
  });
  TreeSearchResult result;
  std::vector<ActionTally> stats;
  std::vector<double> sums;
  for (const Part& part : parts) {
    result.iterations += part.totals.iterations;
    result.nodes += part.totals.nodes;
    result.tree_bytes += part.totals.tree_bytes;
    result.reserved_bytes += part.totals.reserved_bytes;
    for (size_t i = 0; i < part.stats.size(); ++i)
      detail::add_stat(stats, sums, part.stats[i].action, part.stats[i].visits, part.sums[i]);
  }
  // Every iteration visits its tree's root once.
  result.root_value.assign(game.num_players(), 0.0);
  for (const Part& part : parts)
    for (size_t p = 0; p < part.root_sum.size(); ++p) result.root_value[p] += part.root_sum[p];
  for (double& v : result.root_value) v = result.iterations ? v / result.iterations : 0.0;
  result.bytes_per_node = sizeof(typename MctsTree<G>::Node);
  detail::finish_result(result, stats, sums, options.stop, start);
  return result;
}

}  // namespace nutcore
