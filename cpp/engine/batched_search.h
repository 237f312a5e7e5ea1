// A tree search in every environment of a vector environment at once, its leaves evaluated by the
// caller (docs/vector.md): the building block of AlphaZero-style self-play. Each round hands back
// at most one leaf per environment, as rows of arrays (the leaf's seat's observation, its legal
// moves, the seat); the caller evaluates them all in one batch (a network, in any framework) and
// gives back values per seat and, if it has them, priors over the moves; every tree backs its
// leaf up and walks to its next one. A tree that reaches the end of the game backs it up and walks
// on within the round, so a round holds a leaf of every search still running.
//
// Environment i's tree is the one best_move(state_i, seed=seed + i) would grow with a built-in
// evaluator that gave the same values and priors: the same tree code (search/mcts.h, ismcts.h),
// the same seed, iterations run one after another. The tests hold the two to that. With a
// built-in evaluator (playouts, a network) there is nothing to hand back: start runs every search
// to its end, on the environment's threads.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/stop.h"
#include "engine/any.h"
#include "engine/worker_pool.h"
#include "search/mcts.h"

namespace nutcore::engine {

template <typename Tree, typename Options>
class BatchedSearch {
 public:
  using G = typename Tree::GameType;
  using S = typename G::StateType;
  static constexpr int kP = G::kMaxNumPlayers;
  static constexpr int kA = G::kNumDistinctActions;

  BatchedSearch(const G& game, WorkerPool& pool) : game_(game), pool_(pool) {}

  bool running() const { return running_; }
  bool finished() const { return finished_; }

  // A search from each root (a row that is not at a decision node gets none) with `options`
  // (iterations per environment), environment i's seeded as best_move's with seed + i. Writes the
  // first round of leaves; returns how many there are. Stopped by `stop`: throws Stopped, and
  // there is no search (as after clear()).
  int start(const std::vector<S>& roots, Options options, uint64_t seed, const LeafBuffers& out, const StopFlag* stop) {
    options.threads = 1;
    options.stop = nullptr;  // the trees outlive this call's flag: `stop` is polled between chunks
    options.progress = nullptr;
    options_ = options;
    seed_ = seed;
    roots_ = roots;
    slots_.resize(roots.size());
    running_ = finished_ = false;
    Job job{this, nullptr, nullptr, &out, stop};
    run(&BatchedSearch::start_share, job);
    return after_round();
  }

  // The values [N, P] and priors ([N, A], or null: uniform) of the last round's leaves (rows
  // without a leaf are not read), checked before any is used: std::invalid_argument, and nothing
  // changes, if a value is not finite or a prior is negative or not finite. Writes the next round;
  // returns how many leaves it holds (0: every search is done). Stopped by `stop` (the iterations
  // that end the game run within a round, up to the whole budget): throws Stopped, and the search
  // is over, without a result.
  int evaluate(const float* values, const float* priors, const LeafBuffers& out, const StopFlag* stop) {
    if (!running_) throw std::invalid_argument("evaluate: no search is waiting for values (call start)");
    const int players = game_.num_players();
    for (size_t i = 0; i < slots_.size(); ++i) {
      if (!slots_[i].pending) continue;
      for (int p = 0; p < players; ++p)
        if (!std::isfinite(values[i * players + p]))
          throw std::invalid_argument("evaluate: values[" + std::to_string(i) + "] is not finite");
      if (priors)
        for (int a = 0; a < kA; ++a) {
          const float x = priors[i * kA + a];
          if (!(x >= 0) || !std::isfinite(x))
            throw std::invalid_argument("evaluate: priors[" + std::to_string(i) + ", " + std::to_string(a) +
                                        "] must be finite and >= 0");
        }
    }
    Job job{this, values, priors, &out, stop};
    run(&BatchedSearch::evaluate_share, job);
    return after_round();
  }

  // Per environment: the move (-1: no search), the root's visits per move [A], the mean return
  // per seat [P] and the iterations run.
  void result(const SearchResultBuffers& out) const {
    if (!finished_) throw std::invalid_argument("result: the search is not finished (evaluate its leaves first)");
    const int players = game_.num_players();
    for (size_t i = 0; i < slots_.size(); ++i) {
      const Slot& slot = slots_[i];
      int32_t* visits = out.visits ? out.visits + i * kA : nullptr;
      if (visits) std::fill_n(visits, kA, 0);
      float* value = out.value ? out.value + i * players : nullptr;
      if (value) std::fill_n(value, players, 0.0f);
      if (out.iterations) out.iterations[i] = static_cast<int32_t>(slot.done);
      if (out.action) out.action[i] = -1;
      if (!slot.tree) continue;
      const Tree& tree = *slot.tree;
      std::vector<ActionTally> stats;
      std::vector<double> sums;
      for (int k = 0; k < tree.root().num_children; ++k) {
        const auto& c = tree.root_child(k);
        detail::add_stat(stats, sums, c.action, c.visits, c.value);
        if (visits) visits[c.action] = static_cast<int32_t>(c.visits);
      }
      TreeSearchResult r;
      r.iterations = slot.done;
      detail::finish_result(r, stats, sums, nullptr, std::chrono::steady_clock::now());
      if (out.action) out.action[i] = r.best_action;
      if (value)
        for (int p = 0; p < players; ++p) value[p] = static_cast<float>(tree.root_sum()[p] / slot.done);
    }
  }

  void clear() {
    slots_.clear();
    roots_.clear();
    running_ = finished_ = false;
  }

 private:
  struct Slot {
    std::unique_ptr<Tree> tree;  // null: no search here
    long remaining = 0;          // iterations still to run
    long done = 0;
    bool pending = false;    // a leaf awaits its evaluation
    bool root_leaf = false;  // that leaf is the root's own evaluation (not an iteration)
  };
  struct Job {
    BatchedSearch* self;
    const float* values;
    const float* priors;
    const LeafBuffers* out;
    const StopFlag* stop;
  };
  // Iterations a built-in evaluator's search runs between two looks at the stop flag: a few
  // milliseconds at most, and no different a tree from one call with the whole budget.
  static constexpr long kChunk = 256;

  void run(WorkerPool::Task task, Job& job) {
    try {
      pool_.run(static_cast<int>(slots_.size()), task, &job);
    } catch (...) {
      clear();  // a search half run has no result
      throw;
    }
  }

  static void start_share(void* ctx, int begin, int end) {
    const Job& job = *static_cast<Job*>(ctx);
    BatchedSearch& self = *job.self;
    for (int i = begin; i < end; ++i) {
      Slot& slot = self.slots_[i];
      slot = Slot{};
      const S& root = self.roots_[i];
      if (!self.game_.is_terminal(root) && !self.game_.is_chance(root)) {
        Options o = self.options_;
        o.seed = self.seed_ + static_cast<uint64_t>(i);
        // As KeptTreeSearch seeds a search's first (only) tree.
        slot.tree = std::make_unique<Tree>(self.game_, root, o, o.seed * 0x9E3779B97F4A7C15ULL);
        slot.remaining = o.iterations;
        if (o.evaluator != Evaluator::kOutside) {  // a built-in evaluator: the whole search now
          while (slot.remaining > 0) {
            if (stop_requested(job.stop)) throw Stopped();
            const long done =
                slot.tree->search(std::min(kChunk, slot.remaining), std::chrono::steady_clock::now(), 0.0);
            slot.done += done;
            slot.remaining -= done;
          }
        }
      }
      self.advance(i, *job.out, job.stop);
    }
  }

  static void evaluate_share(void* ctx, int begin, int end) {
    const Job& job = *static_cast<Job*>(ctx);
    BatchedSearch& self = *job.self;
    const int players = self.game_.num_players();
    for (int i = begin; i < end; ++i) {
      Slot& slot = self.slots_[i];
      if (!slot.pending) {
        self.write_none(i, *job.out);
        continue;
      }
      double values[kP] = {};
      for (int p = 0; p < players; ++p) values[p] = job.values[static_cast<size_t>(i) * players + p];
      slot.tree->end_iteration(values, job.priors ? job.priors + static_cast<size_t>(i) * kA : nullptr);
      if (!slot.root_leaf) {
        --slot.remaining;
        ++slot.done;
      }
      self.advance(i, *job.out, job.stop);
    }
  }

  // Environment i's tree walks to its next leaf needing an evaluation (row i shows it), running
  // the iterations that end the game on the way; or its search is done (row i empty).
  void advance(int i, const LeafBuffers& out, const StopFlag* stop) {
    Slot& slot = slots_[i];
    slot.pending = false;
    const bool outside = options_.evaluator == Evaluator::kOutside;
    while (outside && slot.tree && (slot.remaining > 0 || !slot.tree->root_evaluated())) {
      if (stop_requested(stop)) throw Stopped();
      slot.root_leaf = !slot.tree->root_evaluated();
      if (slot.tree->begin_iteration()) {
        slot.pending = true;
        write_leaf(i, out);
        return;
      }
      --slot.remaining;
      ++slot.done;
    }
    write_none(i, out);
  }

  void write_leaf(int i, const LeafBuffers& out) {
    const Tree& tree = *slots_[i].tree;
    const S& leaf = tree.leaf_state();
    const int seat = tree.leaf_player();
    if (out.observation)
      game_.observation_tensor(leaf, seat, out.observation + static_cast<size_t>(i) * game_.observation_tensor_size());
    if (out.legal_mask) {
      uint8_t* mask = out.legal_mask + static_cast<size_t>(i) * kA;
      std::fill_n(mask, kA, uint8_t{0});
      typename G::Actions legal;
      game_.legal_actions(leaf, legal);
      for (Action a : legal) mask[a] = 1;
    }
    if (out.current_player) out.current_player[i] = seat;
    if (out.pending) out.pending[i] = 1;
  }

  void write_none(int i, const LeafBuffers& out) {
    if (out.observation)
      std::fill_n(out.observation + static_cast<size_t>(i) * game_.observation_tensor_size(),
                  game_.observation_tensor_size(), 0.0f);
    if (out.legal_mask) std::fill_n(out.legal_mask + static_cast<size_t>(i) * kA, kA, uint8_t{0});
    if (out.current_player) out.current_player[i] = -1;
    if (out.pending) out.pending[i] = 0;
  }

  int after_round() {
    int pending = 0;
    for (const Slot& s : slots_) pending += s.pending;
    running_ = pending > 0;
    finished_ = pending == 0;
    return pending;
  }

  const G& game_;
  WorkerPool& pool_;
  Options options_;
  uint64_t seed_ = 0;
  std::vector<S> roots_;
  std::vector<Slot> slots_;
  bool running_ = false;
  bool finished_ = false;
};

}  // namespace nutcore::engine
