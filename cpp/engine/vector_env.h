// Many games of one declared game stepped at once (docs/vector.md): the batched environment for
// learning. Each environment is a state of the game's own type, with its own generator; a step
// applies one action per environment, draws the chance outcomes that follow (or leaves them to the
// caller), starts a finished game again, and writes the next observations into the caller's
// buffers. Nothing is allocated per step, and the results do not depend on the threads.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "core/game_concept.h"
#include "core/rng.h"
#include "core/stop.h"
#include "engine/any.h"
#include "engine/batched_search.h"
#include "engine/bots.h"
#include "engine/worker_pool.h"
#include "search/ismcts.h"
#include "search/mcts.h"
#include "search/random_playout.h"

namespace nutcore::engine {

template <typename D>
class GameModel;

// D: a game's declaration (engine/declaration.h); Model: its GameModel, which wraps a state for
// the opponents' bots (engine/model.h).
template <typename D, typename Model = GameModel<D>>
class VectorModel final : public AnyVectorEnv {
 public:
  using G = typename D::Game;
  using S = typename G::StateType;

  // Every option is checked before anything is allocated.
  VectorModel(std::shared_ptr<const Model> model, const VectorOptions& o) : VectorModel(checked(*model, o), model, o) {}

  int num_envs() const override { return n_; }
  int num_players() const override { return players_; }
  int observation_size() const override { return obs_size_; }
  int num_actions() const override { return G::kNumDistinctActions; }
  int threads() const override { return pool_.threads(); }
  bool external_chance() const override { return external_; }
  int seat() const override { return seat_; }
  bool interruptible() const override { return opponents_ == Opponents::kBot; }

  void reset(const VectorBuffers& out, const StopFlag* stop) override {
    Job job{this, nullptr, &out, nullptr, stop};
    run_undoable(&VectorModel::reset_share, job);
    search_.clear();
    started_ = true;
  }

  void step(const int64_t* actions, const VectorBuffers& out, const StopFlag* stop) override {
    if (!started_) throw std::invalid_argument("step: call reset first");
    // Every action checked before any is applied: a bad one changes nothing.
    for (int i = 0; i < n_; ++i) {
      const int64_t a = actions[i];
      if (a < 0 || a >= G::kNumDistinctActions || !(legal_[i * words_ + a / 64] >> (a % 64) & 1)) {
        const Env& e = envs_[i];
        const bool chance = game_->is_chance(e.state);
        throw std::invalid_argument("step: action " + std::to_string(a) + " in environment " + std::to_string(i) +
                                    " is not " + (chance ? "a chance outcome there" : "legal there") + " (legal_mask[" +
                                    std::to_string(i) + "] lists what is)");
      }
    }
    Job job{this, actions, &out, nullptr, stop};
    run_undoable(&VectorModel::step_share, job);
    search_.clear();
  }

  void search_check(const SearchRequest& request) const override { prepare_batched_search(*model_, request); }
  int search_start(const SearchRequest& request, uint64_t seed, const LeafBuffers& out, const StopFlag* stop) override {
    if (!started_) throw std::invalid_argument("search: call reset first");
    const ResolvedSearch settings = prepare_batched_search(*model_, request);
    std::vector<S> roots(envs_.size());
    for (size_t i = 0; i < envs_.size(); ++i) roots[i] = envs_[i].state;
    if constexpr (G::kHiddenInformation)
      return search_.start(roots, settings.ismcts, seed, out, stop);
    else
      return search_.start(roots, settings.mcts, seed, out, stop);
  }
  int search_evaluate(const float* values, const float* priors, const LeafBuffers& out, const StopFlag* stop) override {
    return search_.evaluate(values, priors, out, stop);
  }
  void search_result(const SearchResultBuffers& out) const override { search_.result(out); }

  void random_actions(int64_t* out) override {
    if (!started_) throw std::invalid_argument("random_actions: call reset first");
    Job job{this, nullptr, nullptr, out};
    pool_.run(n_, &VectorModel::random_share, &job);
  }

  std::string serialized_state(int i) const override {
    if (i < 0 || i >= n_) throw std::invalid_argument("state: no environment " + std::to_string(i));
    return game_->serialize(envs_[i].state);
  }

  void set_state(int i, const std::string& bytes, const VectorBuffers& out) override {
    if (!started_) throw std::invalid_argument("set_state: call reset first");
    if (i < 0 || i >= n_) throw std::invalid_argument("set_state: no environment " + std::to_string(i));
    const S s = game_->deserialize(bytes);
    if (game_->is_terminal(s)) throw std::invalid_argument("set_state: the game is over in that state");
    if (game_->is_chance(s) && !external_)
      throw std::invalid_argument("set_state: a chance node (only with chance=\"external\")");
    if (!game_->is_chance(s) && seat_ >= 0 && game_->current_player(s) != seat_)
      throw std::invalid_argument("set_state: not the learner's (seat " + std::to_string(seat_) + ") turn");
    search_.clear();
    envs_[i].state = s;
    envs_[i].steps = 0;
    write(i, out);
  }

 private:
  enum class Opponents : uint8_t { kNone, kRandom, kGreedy, kBot };
  struct Env {
    S state{};
    Rng rng;
    Rng policy;         // random_actions' draws (and the opponents'): apart from the chance draws
    int32_t steps = 0;  // the caller's actions in this game
  };
  struct Job {
    VectorModel* self;
    const int64_t* actions;  // step's
    const VectorBuffers* out;
    int64_t* drawn = nullptr;  // random_actions'
    const StopFlag* stop = nullptr;
  };
  // What the constructor needs of its checks.
  struct Checked {
    Opponents opponents = Opponents::kNone;
    BotSpec spec;  // kBot's
  };

  // The options checked, and the memory they ask for estimated, before any allocation.
  static Checked checked(const Model& model, const VectorOptions& o) {
    const G& game = model.rules();
    const int players = game.num_players();
    if (o.num_envs < 1 || o.num_envs > kMaxVectorEnvs)
      throw std::invalid_argument("num_envs is out of range (1.." + std::to_string(kMaxVectorEnvs) +
                                  ", the cap in docs/vector.md): " + std::to_string(o.num_envs));
    if (o.threads < 1) throw std::invalid_argument("threads must be at least 1");
    Checked c;
    if (o.seat < 0) {
      if (o.opponents)
        throw std::invalid_argument("opponents play the other seats of a seat mode: give seat= too (opponents " +
                                    *o.opponents + " without a seat)");
    } else {
      if (o.seat >= players)
        throw std::invalid_argument("seat must be in 0.." + std::to_string(players - 1) + ", got " +
                                    std::to_string(o.seat));
      c.spec = parse_bot_spec(o.opponents.value_or("random"));
      if (c.spec.reuse)
        throw std::invalid_argument("opponents: reuse is not offered here (each move is its own search)");
      if (c.spec.kind == BotSpec::Kind::kRandom && !c.spec.seed) {
        c.opponents = Opponents::kRandom;
      } else if (c.spec.kind == BotSpec::Kind::kGreedy && c.spec.memory == 1 && c.spec.noise == 0) {
        c.opponents = Opponents::kGreedy;
      } else {
        c.opponents = Opponents::kBot;
        Bot(c.spec).check_for(*model.wrap(game.new_initial_state()));
        // A level is the spec of its table.
        const BotSpec plays = c.spec.kind == BotSpec::Kind::kLevel
                                  ? parse_bot_spec(level_spec(model.info().name, c.spec.level, players))
                                  : c.spec;
        if (plays.kind == BotSpec::Kind::kSearch) {
          Json request = plays.settings;
          request.set("algorithm", Json::string(plays.kind_name()));
          check_vector_search(parse_search_request(request, "opponents"), "opponents");
        }
      }
    }
    const int64_t bytes = o.num_envs * bytes_per_env(game, o, c.opponents);
    if (bytes > kMaxVectorBytes) {
      const auto mib = [](int64_t b) { return std::to_string((b + (1 << 20) - 1) >> 20) + " MiB"; };
      throw std::invalid_argument(std::to_string(o.num_envs) + " environments of " + std::string(G::kName) +
                                  " would take about " + mib(bytes) + " (states and arrays); the cap is " +
                                  mib(kMaxVectorBytes) + " (docs/vector.md): use fewer environments");
    }
    return c;
  }

  // An environment's memory: its state, generators and legal bits (and where opponents search,
  // its bot and the copy a step keeps to undo itself), the batched search's copy of its root and
  // its slot, and the rows of every array vector.py makes (the step's, with its mode's own, a
  // batched search's leaves and results, random_actions').
  static int64_t bytes_per_env(const G& game, const VectorOptions& o, Opponents opponents) {
    const int64_t obs = game.observation_tensor_size(), a = G::kNumDistinctActions, p = game.num_players();
    int64_t native = int64_t{sizeof(Env)} + (a + 63) / 64 * 8 + 2 * int64_t{sizeof(S)} + 64;
    if (opponents == Opponents::kBot) native += int64_t{sizeof(Env)} + 2 * int64_t{sizeof(Bot)} + 1024;
    int64_t arrays = 4 * obs + a + 4 + 4 * p + 1 + 4;  // observation .. episode_length
    if (o.external_chance) arrays += 8 * a;            // chance_probabilities
    if (o.seat >= 0) arrays += 4 * obs;                // final_observation
    arrays += 4 * obs + a + 4 + 1;                     // the leaves
    arrays += 8 + 4 * a + 4 * p + 4 + 8;               // the results, random_actions'
    return native + arrays;
  }

  // Private: `checked` first, so that nothing is allocated before it.
  VectorModel(Checked c, const std::shared_ptr<const Model>& model, const VectorOptions& o)
      : model_(model),
        game_(model_->rules_ptr()),
        n_(static_cast<int>(o.num_envs)),
        seed_(o.seed),
        external_(o.external_chance),
        seat_(o.seat),
        opponents_(c.opponents),
        players_(game_->num_players()),
        obs_size_(game_->observation_tensor_size()),
        words_((G::kNumDistinctActions + 63) / 64),
        envs_(static_cast<size_t>(o.num_envs)),
        legal_(static_cast<size_t>(o.num_envs) * words_),
        pool_(std::min(o.threads, n_)) {
    if (opponents_ != Opponents::kBot) return;
    backup_.resize(envs_.size());
    const auto probe = model_->wrap(game_->new_initial_state());
    for (int i = 0; i < n_; ++i) {
      bots_.push_back(std::make_unique<Bot>(c.spec));
      bots_.back()->check_for(*probe);  // a level makes its game's bot here
    }
  }

  // Runs a reset or step share by share. Where opponents search, a share first copies its
  // environments aside: a run that is stopped, or fails, puts them all back (a first reset has
  // nothing to put back) and shows them again in `out`.
  void run_undoable(WorkerPool::Task task, Job& job) {
    if (opponents_ != Opponents::kBot) return pool_.run(n_, task, &job);
    try {
      pool_.run(n_, task, &job);
    } catch (...) {
      if (!started_) throw;
      Job undo{this, nullptr, job.out};
      pool_.run(n_, &VectorModel::undo_share, &undo);
      throw;
    }
  }

  void keep(int begin, int end) {
    if (opponents_ == Opponents::kBot) std::copy(envs_.begin() + begin, envs_.begin() + end, backup_.begin() + begin);
  }

  static void undo_share(void* ctx, int begin, int end) {
    const Job& job = *static_cast<Job*>(ctx);
    VectorModel& self = *job.self;
    for (int i = begin; i < end; ++i) {
      self.envs_[i] = self.backup_[i];
      self.write(i, *job.out);
      if (job.out->rewards) std::fill_n(job.out->rewards + int64_t{i} * self.players_, self.players_, 0.0f);
      if (job.out->terminated) job.out->terminated[i] = 0;
      if (job.out->episode_length) job.out->episode_length[i] = 0;
    }
  }

  // A uniformly random legal action (or chance outcome, uniformly too) per environment, from its
  // legal bits.
  static void random_share(void* ctx, int begin, int end) {
    const Job& job = *static_cast<Job*>(ctx);
    VectorModel& self = *job.self;
    int64_t* out = job.drawn;
    for (int i = begin; i < end; ++i) {
      const uint64_t* bits = &self.legal_[static_cast<size_t>(i) * self.words_];
      uint32_t count = 0;
      for (int w = 0; w < self.words_; ++w) count += static_cast<uint32_t>(__builtin_popcountll(bits[w]));
      uint32_t k = self.envs_[i].policy.below(count);
      for (int w = 0; w < self.words_; ++w) {
        const uint32_t here = static_cast<uint32_t>(__builtin_popcountll(bits[w]));
        if (k >= here) {
          k -= here;
          continue;
        }
        uint64_t m = bits[w];
        for (; k > 0; --k) m &= m - 1;
        out[i] = int64_t{w} * 64 + __builtin_ctzll(m);
        break;
      }
    }
  }

  static void reset_share(void* ctx, int begin, int end) {
    const Job& job = *static_cast<Job*>(ctx);
    job.self->keep(begin, end);
    for (int i = begin; i < end; ++i) {
      if (stop_requested(job.stop)) throw Stopped();
      Env& e = job.self->envs_[i];
      e.rng.reseed(playout_seed(job.self->seed_, i));
      e.policy.reseed(playout_seed(~job.self->seed_, i));
      job.self->start(e, i, job.stop);
      job.self->write(i, *job.out);
      if (job.out->rewards) std::fill_n(job.out->rewards + int64_t{i} * job.self->players_, job.self->players_, 0.0f);
      if (job.out->terminated) job.out->terminated[i] = 0;
      if (job.out->episode_length) job.out->episode_length[i] = 0;
    }
  }

  static void step_share(void* ctx, int begin, int end) {
    const Job& job = *static_cast<Job*>(ctx);
    VectorModel& self = *job.self;
    const G& g = *self.game_;
    self.keep(begin, end);
    for (int i = begin; i < end; ++i) {
      if (stop_requested(job.stop)) throw Stopped();
      Env& e = self.envs_[i];
      const bool chance = g.is_chance(e.state);
      g.apply(e.state, static_cast<Action>(job.actions[i]));
      if (!chance) ++e.steps;
      self.advance(e, i, job.stop);
      float* rewards = job.out->rewards ? job.out->rewards + int64_t{i} * self.players_ : nullptr;
      if (g.is_terminal(e.state)) {
        double values[G::kMaxNumPlayers];
        g.returns(e.state, values);
        if (rewards)
          for (int p = 0; p < self.players_; ++p) rewards[p] = static_cast<float>(values[p]);
        if (job.out->terminated) job.out->terminated[i] = 1;
        if (job.out->episode_length) job.out->episode_length[i] = e.steps;
        if (job.out->final_observation && self.seat_ >= 0)
          g.observation_tensor(e.state, self.seat_, job.out->final_observation + int64_t{i} * self.obs_size_);
        self.start(e, i, job.stop);  // the next game, from the same generators
      } else {
        if (rewards) std::fill_n(rewards, self.players_, 0.0f);
        if (job.out->terminated) job.out->terminated[i] = 0;
        if (job.out->episode_length) job.out->episode_length[i] = 0;
      }
      self.write(i, *job.out);
    }
  }

  // A new game, played on to the caller's first move. In a seat mode a game that the opponents end
  // before the learner's first move is not shown: the next one starts.
  void start(Env& e, int i, const StopFlag* stop) {
    do {
      e.state = game_->new_initial_state();
      e.steps = 0;
      advance(e, i, stop);
    } while (game_->is_terminal(e.state));
  }

  // On to the caller's next move: chance drawn (internal mode), and in a seat mode the opponents'
  // moves played.
  void advance(Env& e, int i, const StopFlag* stop) {
    const G& g = *game_;
    while (!g.is_terminal(e.state)) {
      if (g.is_chance(e.state)) {
        if (external_) return;
        g.apply(e.state, g.sample_chance(e.state, e.rng));
      } else if (seat_ >= 0 && g.current_player(e.state) != seat_) {
        g.apply(e.state, opponent_action(e, i, stop));
      } else {
        return;
      }
    }
  }

  Action opponent_action(Env& e, int i, const StopFlag* stop) {
    switch (opponents_) {
      case Opponents::kRandom:
        return random_decision(*game_, e.state, e.policy);
      case Opponents::kGreedy:
        return greedy_policy_action(*game_, e.state);
      default: {
        // Seeded from the environment's generator at every move, so that a step undone puts the
        // bot back too. A search the stop ended is not played: the step is undone.
        bots_[i]->reset(e.policy.next());
        const Action a = bots_[i]->step(*model_->wrap(e.state), stop);
        if (stop_requested(stop)) throw Stopped();
        return a;
      }
    }
  }

  // The observation of the seat to move (zeros at a chance node), its legal mask (at a chance node
  // the outcomes, and their probabilities), and who moves.
  void write(int i, const VectorBuffers& out) {
    const Env& e = envs_[i];
    uint64_t* bits = &legal_[static_cast<size_t>(i) * words_];
    std::fill_n(bits, words_, uint64_t{0});
    const int64_t A = G::kNumDistinctActions;
    uint8_t* mask = out.legal_mask ? out.legal_mask + i * A : nullptr;
    double* probs = out.chance_probabilities ? out.chance_probabilities + i * A : nullptr;
    if (mask) std::memset(mask, 0, static_cast<size_t>(A));
    if (probs) std::fill_n(probs, A, 0.0);
    float* obs = out.observation ? out.observation + int64_t{i} * obs_size_ : nullptr;
    const bool chance = game_->is_chance(e.state);
    if (chance) {
      typename G::Chances outcomes;
      game_->chance_outcomes(e.state, outcomes);
      for (const auto& o : outcomes) {
        if (o.probability <= 0) continue;
        bits[o.action / 64] |= uint64_t{1} << (o.action % 64);
        if (mask) mask[o.action] = 1;
        if (probs) probs[o.action] = o.probability;
      }
      if (obs) std::fill_n(obs, obs_size_, 0.0f);
    } else {
      typename G::Actions legal;
      game_->legal_actions(e.state, legal);
      for (Action a : legal) {
        bits[a / 64] |= uint64_t{1} << (a % 64);
        if (mask) mask[a] = 1;
      }
      if (obs) game_->observation_tensor(e.state, game_->current_player(e.state), obs);
    }
    if (out.current_player) out.current_player[i] = game_->current_player(e.state);
  }

  std::shared_ptr<const Model> model_;
  std::shared_ptr<const G> game_;
  int n_;
  uint64_t seed_;
  bool external_;
  int seat_;  // the learner's seat, or -1: every seat is the caller's
  Opponents opponents_;
  std::vector<std::unique_ptr<Bot>> bots_;  // kBot: one per environment
  int players_;
  int obs_size_;
  int words_;
  std::vector<Env> envs_;
  std::vector<Env> backup_;      // kBot: the environments before this reset or step, to undo it
  std::vector<uint64_t> legal_;  // each environment's legal actions as bits: what step accepts
  WorkerPool pool_;
  bool started_ = false;
  // The batched search over the environments' positions: the game's tree search (ISMCTS on hidden
  // information, else MCTS).
  using Tree = std::conditional_t<G::kHiddenInformation, IsmctsTree<G>, MctsTree<G>>;
  using TreeOptions = std::conditional_t<G::kHiddenInformation, IsmctsOptions, MctsOptions>;
  BatchedSearch<Tree, TreeOptions> search_{*game_, pool_};
};

}  // namespace nutcore::engine
