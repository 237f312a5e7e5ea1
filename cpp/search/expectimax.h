// Depth-limited expectimax over a game's heuristic evaluation.
//
//   V(s) = eval(s)                                   at depth 0 or when s is terminal
//   V(s) = sum_o P(o) V(s after o)                   at chance nodes
//   V(s) = V(s after argmax_a V_p(s after a))        at decisions of player p   (max-n, Luckhardt & Irani 1986)
//
// Values are vectors, one entry per player. With two players the search runs on the margin
// v = eval_0 - eval_1 (zero-sum) with alpha-beta at decision nodes and Star1 pruning at chance
// nodes (Ballard 1983; Hauk, Buro & Schaeffer 2004): once the outcomes seen so far bound the
// expectation outside (alpha, beta), the rest are skipped, using |v| <= bound; Star2 first probes
// one move below each outcome for bounds that may cut the whole chance node at once.
// Depth counts plies: every decision and every chance event is one.
//
// Iterative deepening: depths 1, 2, ... up to `depth` are searched in turn, each exactly as a
// search to that depth alone (the same move order and ties), and the answer is the deepest depth
// completed. A stop (the caller's, or a deadline's: core/deadline.h) during depth d > 1 answers
// with depth d - 1; only a stop before depth 1 completes throws Stopped. The shallower depths cost
// a fraction of the last (bench/RESULTS.md). Where a depth's tree ended the game on every line,
// the deeper ones would visit the same nodes, so the deepening ends there (not with Star2, whose
// probes start at depth 2 below a chance node and so differ with the depth).
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/game_concept.h"
#include "core/stop.h"
#include "search/mcts.h"

namespace nutcore {

struct ExpectimaxOptions {
  static constexpr int kMaxDepth = 64;
  int depth = 3;         // the deepest depth searched (iterative deepening: 1, 2, ... depth), 1..kMaxDepth
  double bound = 250.0;  // |eval_i| <= bound; used by Star1 (two players)
  bool pruning = true;
  // Star2 probing: correct, but on Auf die Nüsse! it costs more nodes than it saves (bench/RESULTS.md).
  bool star2 = false;
  // Polled before each depth and every 1,024 nodes: a stop answers with the last complete depth,
  // or throws Stopped before depth 1 completes.
  const StopFlag* stop = nullptr;
};

struct ExpectimaxResult {
  Action best_action = -1;
  // mean_value: the action's value for the mover (the margin with 2 players). With two players and
  // pruning, exact for the best action and an upper bound for the others.
  std::vector<ActionTally> actions;
  std::vector<double> root_value;
  long nodes = 0;  // over every depth searched
  double elapsed = 0.0;
  int depth = 0;          // the depth of this answer: the deepest completed
  bool complete = false;  // depth is the options' depth (a stop cut none short)
};

template <GameConcept G>
requires HasEvaluation<G>
class Expectimax {
 public:
  using State = typename G::StateType;
  static constexpr int kP = G::kMaxNumPlayers;

  Expectimax(const G& game, const ExpectimaxOptions& options) : game_(game), options_(options) {}

  ExpectimaxResult search(const State& root) {
    if (game_.is_terminal(root) || game_.is_chance(root))
      throw std::invalid_argument("search needs a decision node (the state is terminal or a chance node)");
    if (options_.depth < 1 || options_.depth > ExpectimaxOptions::kMaxDepth)
      throw std::invalid_argument("depth must be 1.." + std::to_string(ExpectimaxOptions::kMaxDepth));
    if (!(options_.bound > 0) || !std::isfinite(options_.bound))
      throw std::invalid_argument("bound must be a positive finite number");
    const auto start = std::chrono::steady_clock::now();
    if (stop_requested(options_.stop)) throw Stopped();
    // Star2's probes depend on the depth (depth >= 2 below a chance node): with them a tree that
    // ended the game everywhere may still differ one depth deeper.
    const bool probes = game_.num_players() == 2 && options_.pruning && options_.star2;
    ExpectimaxResult result;
    for (int d = 1; d <= options_.depth; ++d) {
      if (d > 1 && stop_requested(options_.stop)) break;
      horizon_ = false;
      try {
        result = search_to(root, d);
      } catch (const Stopped&) {
        if (d == 1) throw;
        break;  // `result` is depth d - 1's
      }
      result.depth = d;
      if (!horizon_ && !probes) {
        result.depth = options_.depth;  // every line ended the game: the same as the full depth
        break;
      }
    }
    result.complete = result.depth == options_.depth;
    result.nodes = nodes_;
    result.elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
  }

 private:
  const G& game_;
  ExpectimaxOptions options_;
  long nodes_ = 0;
  bool horizon_ = false;  // this depth's search stopped at its depth somewhere (not at the game's end)

  static double inf() { return std::numeric_limits<double>::infinity(); }

  // One depth's search from the root: its actions, best action and value (not its nodes or time).
  ExpectimaxResult search_to(const State& root, int depth) {
    ExpectimaxResult result;
    const int mover = game_.current_player(root);
    const int n = game_.num_players();
    typename G::Actions legal;
    game_.legal_actions(root, legal);
    double best = -std::numeric_limits<double>::infinity();
    std::vector<double> best_vec(n, 0.0);
    double alpha = -inf(), beta = inf();
    for (Action a : legal) {
      State child = root;
      game_.apply(child, a);
      double value;
      std::vector<double> vec(n, 0.0);
      if (n == 2) {
        // With pruning the root keeps an alpha-beta window too: the chosen action's value is exact,
        // the others' are upper bounds (fail-soft). Without pruning every value is exact.
        const double margin = margin_search(child, depth - 1, alpha, beta);
        if (options_.pruning) {
          if (mover == 0)
            alpha = std::max(alpha, margin);
          else
            beta = std::min(beta, margin);
        }
        value = mover == 0 ? margin : -margin;
        vec[0] = margin;
        vec[1] = -margin;
      } else {
        double v[kP];
        maxn(child, depth - 1, v);
        value = v[mover];
        vec.assign(v, v + n);
      }
      result.actions.push_back({a, 1, value});
      if (value > best) {
        best = value;
        best_vec = vec;
        result.best_action = a;
      }
    }
    result.root_value = best_vec;
    return result;
  }

  void count_node() {
    if ((++nodes_ & 1023) == 0 && stop_requested(options_.stop)) throw Stopped();
  }

  double margin_eval(const State& s) {
    double v[kP];
    evaluate_all(game_, s, v);
    return std::clamp(v[0] - v[1], -2 * options_.bound, 2 * options_.bound);
  }

  // Two players: the value of s for seat 0 (seat 1 gets its negation).
  double margin_search(const State& s, int depth, double alpha, double beta) {
    count_node();
    if (depth == 0 || game_.is_terminal(s)) {
      horizon_ |= depth == 0;  // a terminal leaf at depth 0 too: one depth more, but no check per leaf
      return margin_eval(s);
    }
    const double lo = -2 * options_.bound, hi = 2 * options_.bound;
    if (game_.is_chance(s)) {
      typename G::Chances outcomes;
      game_.chance_outcomes(s, outcomes);
      if (options_.pruning && options_.star2 && depth >= 2) {
        // Star2 probing: one move of each outcome's decision node bounds that outcome's value
        // (from below where seat 0 moves, from above where seat 1 moves); the bounds together
        // may already settle the chance node outside the window.
        double lower = 0.0, upper = 0.0;
        for (const auto& o : outcomes) {
          State child = s;
          game_.apply(child, o.action);
          double child_lo = lo, child_hi = hi;
          if (!game_.is_terminal(child) && !game_.is_chance(child)) {
            typename G::Actions legal;
            game_.legal_actions(child, legal);
            State probe = child;
            game_.apply(probe, legal[0]);
            const double v = margin_search(probe, depth - 2, -inf(), inf());
            if (game_.current_player(child) == 0)
              child_lo = v;
            else
              child_hi = v;
          }
          lower += o.probability * child_lo;
          upper += o.probability * child_hi;
        }
        if (lower >= beta) return lower;
        if (upper <= alpha) return upper;
      }
      double sum = 0.0, remaining = 1.0;
      for (const auto& o : outcomes) {
        State child = s;
        game_.apply(child, o.action);
        remaining -= o.probability;
        if (options_.pruning) {
          // Star1: the window for this child that could still move the expectation into (alpha, beta).
          const double child_alpha = std::max(lo, (alpha - sum - remaining * hi) / o.probability);
          const double child_beta = std::min(hi, (beta - sum - remaining * lo) / o.probability);
          const double v = margin_search(child, depth - 1, child_alpha, child_beta);
          sum += o.probability * v;
          if (sum + std::max(0.0, remaining) * hi <= alpha) return sum + std::max(0.0, remaining) * hi;
          if (sum + std::max(0.0, remaining) * lo >= beta) return sum + std::max(0.0, remaining) * lo;
        } else {
          sum += o.probability * margin_search(child, depth - 1, -inf(), inf());
        }
      }
      return sum;
    }
    typename G::Actions legal;
    game_.legal_actions(s, legal);
    const bool maximize = game_.current_player(s) == 0;
    double best = maximize ? -inf() : inf();
    for (Action a : legal) {
      State child = s;
      game_.apply(child, a);
      const double v = margin_search(child, depth - 1, alpha, beta);
      if (maximize) {
        best = std::max(best, v);
        alpha = std::max(alpha, v);
      } else {
        best = std::min(best, v);
        beta = std::min(beta, v);
      }
      if (options_.pruning && alpha >= beta) break;
    }
    return best;
  }

  // Max-n for three or more players, no pruning: every entry of the vector is kept.
  void maxn(const State& s, int depth, double* out) {
    count_node();
    const int n = game_.num_players();
    if (depth == 0 || game_.is_terminal(s)) {
      horizon_ |= depth == 0;
      evaluate_all(game_, s, out);
      return;
    }
    double v[kP];
    if (game_.is_chance(s)) {
      typename G::Chances outcomes;
      game_.chance_outcomes(s, outcomes);
      for (int p = 0; p < n; ++p) out[p] = 0.0;
      for (const auto& o : outcomes) {
        State child = s;
        game_.apply(child, o.action);
        maxn(child, depth - 1, v);
        for (int p = 0; p < n; ++p) out[p] += o.probability * v[p];
      }
      return;
    }
    typename G::Actions legal;
    game_.legal_actions(s, legal);
    const int mover = game_.current_player(s);
    double best = -inf();
    for (Action a : legal) {
      State child = s;
      game_.apply(child, a);
      maxn(child, depth - 1, v);
      if (v[mover] > best) {
        best = v[mover];
        for (int p = 0; p < n; ++p) out[p] = v[p];
      }
    }
  }
};

}  // namespace nutcore
