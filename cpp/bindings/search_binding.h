// Search entry points for one game type; the GIL is released while searching.
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "bindings/game_binding.h"
#include "search/expectimax.h"
#include "search/ismcts.h"
#include "search/mcts.h"

namespace nutcore::bindings {

inline py::dict stats_to_py(Action best, const std::vector<ActionStats>& stats) {
  py::dict out;
  out["action"] = best;
  out["actions"] = action_stats_to_py(stats);
  return out;
}

// What every game's exact_solve returns: the move, per-move values for the mover, the value per
// seat (NaN where the solver does not know it), positions or nodes, seconds, game-specific extras.
inline py::dict solver_result_to_py(Action best, const std::vector<ActionStats>& stats, const std::vector<double>& value,
                                    long nodes, double elapsed, const py::dict& extra) {
  py::dict out = stats_to_py(best, stats);
  out["value"] = value;
  out["nodes"] = nodes;
  out["elapsed"] = elapsed;
  out["extra"] = extra;
  return out;
}

inline py::dict mcts_result_to_py(const MctsResult& r) {
  py::dict out = stats_to_py(r.best_action, r.actions);
  out["root_value"] = r.root_value;
  out["iterations"] = r.iterations;
  out["nodes"] = r.nodes;
  out["bytes_per_node"] = r.bytes_per_node;
  out["tree_bytes"] = r.tree_bytes;
  out["reserved_bytes"] = r.reserved_bytes;
  out["reused_visits"] = r.reused_visits;
  out["elapsed"] = r.elapsed;
  out["stopped"] = r.stopped;
  return out;
}

// A token's progress record, emptied for a new search (none without a token).
inline SearchProgress* progress_of(StopToken* token) {
  if (!token) return nullptr;
  token->progress.clear();
  return &token->progress;
}

// The arguments every sampling search takes, range-checked (ValueError from Python).
inline void read_budget(MctsOptions& o, const py::handle& iterations, double time_limit, double exploration,
                        const py::handle& seed, const py::handle& threads, bool heuristic_rollouts,
                        const py::handle& max_nodes) {
  o.iterations = static_cast<long>(int_arg(iterations, "iterations", 0, int64_t{1} << 50));
  o.time_limit = time_limit;
  o.exploration = exploration;
  o.seed = seed_arg(seed);
  o.threads = static_cast<int>(int_arg(threads, "threads", 1, 256));
  o.heuristic_rollouts = heuristic_rollouts;
  o.max_nodes = static_cast<long>(int_arg(max_nodes, "max_nodes", 1000, 2'000'000'000));
}

// A search kept between calls for Python (tree reuse): the trees, their game, and their root with
// its history, so that the next call can tell whether its position follows from that root.
template <typename Tree, typename Options>
struct KeptSearch {
  using G = typename Tree::GameType;
  explicit KeptSearch(std::shared_ptr<const G> g) : game(std::move(g)), search(*game) {}
  std::shared_ptr<const G> game;
  ReusingSearch<Tree, Options> search;
  typename G::StateType root{};
  std::vector<Action> history;
  bool has_root = false;
  bool busy = false;

  // The actions from the kept root to `state`, if `state` follows from it: its history extends the
  // root's, and replaying the extra actions from the root (each legal there) gives its position.
  // A tree that reuses by the seat's view is offered every position (an empty path) and decides
  // itself, so that twin states the seat cannot tell apart are searched alike.
  bool path_to(const PyState<G>& state, std::vector<Action>& path) const {
    if constexpr (Tree::kReusesByView) return has_root;
    if (!has_root || state.history.size() < history.size() ||
        !std::equal(history.begin(), history.end(), state.history.begin()))
      return false;
    PyState<G> replay{game, root, {}};
    for (size_t i = history.size(); i < state.history.size(); ++i) {
      const Action a = state.history[i];
      if (replay.game->is_terminal(replay.state) || !replay.is_legal(a)) return false;
      replay.game->apply(replay.state, a);
      path.push_back(a);
    }
    return game->serialize(replay.state) == game->serialize(state.state);
  }
};

// Runs a sampling search from `state` with `options`: a one-off search, or through `kept` (tree
// reuse; None: one-off).
template <typename Tree, typename Options>
MctsResult run_kept(const PyState<typename Tree::GameType>& state, const py::object& kept_obj, Options o,
                    StopToken* token) {
  o.progress = progress_of(token);
  if (kept_obj.is_none()) {
    // The search works on a copy: Python may touch `state` while the GIL is released.
    return run_interruptible(
        [game = state.game, root = state.state, o](const StopFlag* stop) mutable {
          o.stop = stop;
          return ReusingSearch<Tree, Options>(*game).search(root, nullptr, o);
        },
        token);
  }
  if (!py::isinstance<KeptSearch<Tree, Options>>(kept_obj))
    throw std::invalid_argument("tree: a search tree made for another game or algorithm");
  auto& kept = kept_obj.cast<KeptSearch<Tree, Options>&>();
  if (kept.busy) throw std::invalid_argument("tree: this search tree is in use by another search");
  if (!same_game(kept.game, state.game)) throw std::invalid_argument("tree: the search tree belongs to another game");
  std::vector<Action> path;
  const bool follows = kept.path_to(state, path);
  kept.busy = true;
  MctsResult r;
  try {
    r = run_interruptible(
        [&kept, root = state.state, o, follows, &path](const StopFlag* stop) mutable {
          o.stop = stop;
          return kept.search.search(root, follows ? &path : nullptr, o);
        },
        token);
  } catch (...) {  // the trees may be half moved: forget them
    kept.search.clear();
    kept.has_root = kept.busy = false;
    throw;
  }
  kept.root = state.state;
  kept.history = state.history;
  kept.has_root = true;
  kept.busy = false;
  return r;
}

template <typename Tree, typename Options>
void bind_kept_search(py::module_& m, const std::string& name) {
  using K = KeptSearch<Tree, Options>;
  py::class_<K>(m, name.c_str());
  m.def("search_tree", [](const PyState<typename Tree::GameType>& state) { return std::make_unique<K>(state.game); },
        py::arg("state"),
        "An empty kept search for the game's tree search (MCTS, or ISMCTS on hidden information).");
}

template <GameConcept G>
void bind_information_search(py::module_& m) {
  // ISMCTS and PIMC: the same budgets, seeds and threads as MCTS.
  for (const char* name : {"ismcts_search", "pimc_search"}) {
    const bool pimc = name[0] == 'p';
    m.def(name, [pimc](const PyState<G>& state, const py::handle& iterations, double time_limit, double exploration,
                       const py::handle& seed, const py::handle& threads, bool heuristic_rollouts,
                       const py::handle& max_nodes, const py::handle& determinizations, double policy_bias,
                       double margin, double margin_scale, StopToken* token, const py::object& tree) {
      IsmctsOptions o;
      read_budget(o, iterations, time_limit, exploration, seed, threads, heuristic_rollouts, max_nodes);
      o.margin = margin;
      o.margin_scale = margin_scale;
      o.determinizations = static_cast<int>(int_arg(determinizations, "determinizations", 1, 100000));
      o.policy_bias = policy_bias;
      if (!pimc) return mcts_result_to_py(run_kept<IsmctsTree<G>, IsmctsOptions>(state, tree, o, token));
      if (!tree.is_none()) throw std::invalid_argument("tree: PIMC keeps no tree between searches");
      o.progress = progress_of(token);
      // The search works on a copy: Python may touch `state` while the GIL is released.
      const MctsResult r = run_interruptible(
          [game = state.game, root = state.state, o](const StopFlag* stop) mutable {
            o.stop = stop;
            return pimc_search(*game, root, o);
          },
          token);
      return mcts_result_to_py(r);
    }, py::arg("state"), py::arg("iterations"), py::arg("time_limit"), py::arg("exploration"), py::arg("seed"),
       py::arg("threads"), py::arg("heuristic_rollouts"), py::arg("max_nodes"), py::arg("determinizations"),
       py::arg("policy_bias"), py::arg("margin") = 0.0, py::arg("margin_scale") = 10.0, py::arg("stop") = nullptr,
       py::arg("tree") = py::none());
  }
  bind_kept_search<IsmctsTree<G>, IsmctsOptions>(m, std::string("_IsmctsTree_") + G::kName);
}

template <GameConcept G>
void bind_full_information_search(py::module_& m) {
  if constexpr (HasEvaluation<G>) {
    m.def("expectimax_search", [](const PyState<G>& state, const py::handle& depth, double bound, bool pruning,
                                  bool star2, const StopToken* token) {
      ExpectimaxOptions o;
      o.depth = static_cast<int>(int_arg(depth, "depth", 1, 64));
      o.bound = bound;
      o.pruning = pruning;
      o.star2 = star2;
      // The search works on a copy: Python may touch `state` while the GIL is released.
      const ExpectimaxResult r = run_interruptible(
          [game = state.game, root = state.state, o](const StopFlag* stop) mutable {
            o.stop = stop;
            return Expectimax<G>(*game, o).search(root);
          },
          token);
      py::dict out = stats_to_py(r.best_action, r.actions);
      out["root_value"] = r.root_value;
      out["nodes"] = r.nodes;
      out["elapsed"] = r.elapsed;
      return out;
    }, py::arg("state"), py::arg("depth"), py::arg("bound"), py::arg("pruning"), py::arg("star2"),
       py::arg("stop") = nullptr);
  }
  m.def("mcts_search", [](const PyState<G>& state, const py::handle& iterations, double time_limit, double exploration,
                          const py::handle& seed, const py::handle& threads, bool heuristic_rollouts,
                          const py::handle& max_nodes, double widening, double margin, double margin_scale,
                          double policy_bias, StopToken* token, const py::object& tree) {
    MctsOptions o;
    read_budget(o, iterations, time_limit, exploration, seed, threads, heuristic_rollouts, max_nodes);
    o.widening = widening;
    o.margin = margin;
    o.margin_scale = margin_scale;
    o.policy_bias = policy_bias;
    return mcts_result_to_py(run_kept<MctsTree<G>, MctsOptions>(state, tree, o, token));
  }, py::arg("state"), py::arg("iterations"), py::arg("time_limit"), py::arg("exploration"), py::arg("seed"),
     py::arg("threads"), py::arg("heuristic_rollouts"), py::arg("max_nodes"), py::arg("widening") = 0.0,
     py::arg("margin") = 0.0, py::arg("margin_scale") = 10.0, py::arg("policy_bias") = 0.0, py::arg("stop") = nullptr,
     py::arg("tree") = py::none());
  bind_kept_search<MctsTree<G>, MctsOptions>(m, std::string("_MctsTree_") + G::kName);
}

// Searches that read the whole state (MCTS, expectimax) are bound only for games of perfect
// information: on a hidden-information game they would peek.
template <GameConcept G>
void bind_search(py::module_& m) {
  if constexpr (HasEvaluation<G>) {
    m.def("evaluate", [](const PyState<G>& state) {
      double v[G::kMaxNumPlayers];
      evaluate_all(*state.game, state.state, v);
      return std::vector<double>(v, v + state.game->num_players());
    }, py::arg("state"), "The game's heuristic evaluation: estimated final points per player.");
  }
  if constexpr (HasRolloutPolicy<G>) {
    m.def("greedy_action", [](const PyState<G>& state) {
      if (state.game->is_terminal(state.state) || state.game->is_chance(state.state))
        throw std::invalid_argument("greedy_action needs a decision node");
      Rng rng(0);
      return rollout_action(*state.game, state.state, rng);
    }, py::arg("state"));
    // Bare playouts of the kind heuristic_rollouts plays (bench/iteration_cost.py times a search
    // against playouts of its own kind).
    m.def("greedy_playouts", [](const PyState<G>& state, const py::handle& n, const py::handle& seed) {
      const int64_t count = int_arg(n, "greedy_playouts: n", 0, int64_t{1} << 40);
      return playouts(state.game, state.state, count, seed_arg(seed),
                      [](const G& g, auto& s, Rng& rng) { return play_out(g, s, rng, true); });
    }, py::arg("state"), py::arg("n"), py::arg("seed") = 0,
       "n games from `state` to the end by the game's greedy policy (chance by its odds): (returns, lengths).");
  }
  if constexpr (HasActionOrder<G>) {
    m.def("ordered_actions", [](const PyState<G>& state) {
      if (state.game->is_terminal(state.state) || state.game->is_chance(state.state))
        throw std::invalid_argument("ordered_actions needs a decision node");
      typename G::Actions legal;
      state.game->legal_actions(state.state, legal);
      order_actions(*state.game, state.state, legal);
      return std::vector<Action>(legal.begin(), legal.end());
    }, py::arg("state"), "The legal actions best first, as MCTS expands and widens them.");
  }
  if constexpr (G::kHiddenInformation) {
    bind_information_search<G>(m);
  } else {
    bind_full_information_search<G>(m);
  }
}

}  // namespace nutcore::bindings
