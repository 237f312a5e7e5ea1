// Type erasure, once, below every door (Python, the protocol, the C ABI): any declared game and
// any of its states behind one interface, with the searches, solvers and policies the game offers.
// One virtual call per request, never per search node: a search runs inside the game's own
// template instantiation (engine/model.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/game_concept.h"
#include "core/json.h"
#include "core/stop.h"
#include "engine/declaration.h"
#include "engine/settings.h"

namespace nutcore::engine {

// What the engine knows of a declared game without loading it.
struct GameInfo {
  std::string name;   // "auf_die_nuesse"
  std::string title;  // "Auf die Nüsse!"
  uint8_t tag = 0;    // the game tag of its serialized states
  bool hidden_information = false;
  bool whole_game_solver = false;
  bool memory_aids = false;  // its board has a view without them (unaided_json)
  int min_players = 2, max_players = 4;
  AlgorithmSet algorithms;
  Json search_defaults;             // {"mcts": {...}} over the generic defaults
  std::vector<std::string> levels;  // kNumLevels bot specs, "" where the generic level applies
};

struct ActionStat {
  Action action = -1;
  std::string action_string;
  long visits = -1;  // -1: none (the exact algorithms)
  double value = 0.0;
};

// A search's answer, every door's: SearchResult.to_dict() in Python, the protocol's "result".
struct SearchResult {
  Action action = -1;
  std::string action_string;
  std::string algorithm;
  std::vector<double> value;  // per seat; NaN where unknown (JSON: null)
  std::vector<ActionStat> actions;
  long iterations = -1;  // -1: none
  long nodes = -1;
  double elapsed = 0.0;
  Json extra = Json::object();  // the algorithm's extras, in order (stopped, seed, ...)
  bool stopped() const;
  Json to_json() const;
};

class AnyState;

// Where a vector environment writes (engine/vector_env.h): row i of each array is environment i;
// A is num_actions, P num_players, O observation_size. A null pointer: not wanted.
struct VectorBuffers {
  float* observation = nullptr;            // [N, O] the seat to move's observation (0 at chance)
  uint8_t* legal_mask = nullptr;           // [N, A] its legal actions (at a chance node: outcomes)
  int32_t* current_player = nullptr;       // [N] the seat to move, or -1 (chance, external mode)
  float* rewards = nullptr;                // [N, P] the returns of a game that ended at this step
  uint8_t* terminated = nullptr;           // [N] a game ended at this step (and a new one began)
  int32_t* episode_length = nullptr;       // [N] that game's length in steps (0 if none ended)
  double* chance_probabilities = nullptr;  // [N, A] at chance nodes (external mode), else 0
  float* final_observation = nullptr;      // [N, O] a seat mode's learner's view of a game that ended
};

// Where a batched search writes a round of leaves (engine/batched_search.h): row i is environment
// i's leaf, if it has one this round (pending[i]); a row without one is zeros, its seat -1.
struct LeafBuffers {
  float* observation = nullptr;       // [N, O] the leaf's seat's observation of the leaf
  uint8_t* legal_mask = nullptr;      // [N, A] its legal moves
  int32_t* current_player = nullptr;  // [N] that seat
  uint8_t* pending = nullptr;         // [N] a leaf awaits its evaluation
};

// And its results, per environment.
struct SearchResultBuffers {
  int64_t* action = nullptr;      // [N] the move chosen, -1 where no search ran (not a decision node)
  int32_t* visits = nullptr;      // [N, A] the root's visits per move
  float* value = nullptr;         // [N, P] the mean return per seat over the iterations
  int32_t* iterations = nullptr;  // [N]
};

struct VectorOptions {
  int64_t num_envs = 1;  // up to kMaxVectorEnvs
  uint64_t seed = 0;
  int threads = 1;
  bool external_chance = false;
  int seat = -1;                         // a seat mode: the learner's seat; the others play `opponents`
  std::optional<std::string> opponents;  // a bot spec (engine/bots.h), for a seat mode only; none: "random"
};

// The vector environment's caps, checked before anything is allocated (std::invalid_argument
// naming the cap); docs/vector.md says why these numbers.
constexpr int kMaxVectorEnvs = 1 << 20;
// Its estimated memory: the states, and the arrays python/nutcore/vector.py makes for it and for a
// batched search over it (a search's trees aside: max_nodes bounds each).
constexpr int64_t kMaxVectorBytes = int64_t{1} << 30;
// A search's iterations per environment per move: a batched search's, and a searching opponent's.
constexpr long kMaxVectorIterations = 100'000;
// An opponent's expectimax depth: each ply multiplies its cost by the branching, outcomes included.
constexpr int kMaxOpponentDepth = 4;

// A batched search's budget (`who`: "search") or a searching opponent's ("opponents"): checked
// against the caps above.
void check_vector_search(const SearchRequest& request, const std::string& who);

// num_envs games of one game stepped together (docs/vector.md).
class AnyVectorEnv {
 public:
  virtual ~AnyVectorEnv() = default;
  virtual int num_envs() const = 0;
  virtual int num_players() const = 0;
  virtual int observation_size() const = 0;
  virtual int num_actions() const = 0;
  virtual int threads() const = 0;
  virtual bool external_chance() const = 0;
  virtual int seat() const = 0;  // -1 unless a seat mode
  // Whether a reset or step may run searches (the opponents' bots): a caller that can be
  // interrupted hands those a stop flag.
  virtual bool interruptible() const = 0;
  // Every environment's first game, environment i's generator seeded from (seed, i).
  virtual void reset(const VectorBuffers& out, const StopFlag* stop) = 0;
  // One action per environment (a chance outcome where one is due, external mode); checked first:
  // std::invalid_argument, and nothing changes, if any is not legal in its environment.
  // A reset or step that `stop` ends (or that fails) is undone: every environment is put back as
  // it was, generators included, and its row of `out` shows it again (rewards, terminated and
  // episode_length 0); then Stopped is thrown. A first reset stopped leaves the environment unreset.
  virtual void step(const int64_t* actions, const VectorBuffers& out, const StopFlag* stop) = 0;
  // A uniformly random legal action per environment (an outcome, uniformly, at a chance node),
  // from a generator of its own seeded from (seed, i): a random policy for benchmarks and baselines.
  virtual void random_actions(int64_t* out) = 0;
  virtual std::string serialized_state(int i) const = 0;  // environment i's state (serialize())
  // Environment i continues from `bytes` (a serialized state of this game: std::invalid_argument,
  // and nothing changes, unless it is one the environment can show: not over; at a decision unless
  // chance is external; in a seat mode at the learner's turn). Row i of `out` shows it.
  virtual void set_state(int i, const std::string& bytes, const VectorBuffers& out) = 0;
  // The batched search (engine/batched_search.h) from every environment's position: start writes
  // the first round of leaves, evaluate takes their values [N, P] and priors ([N, A] or null) and
  // writes the next; each returns the leaves it wrote (0: done). With a built-in evaluator, start
  // runs every search to its end. A step or reset ends a search. Settings as best_move's, but for
  // the tree searches only and iterations only (prepare_batched_search). A start or evaluate that
  // `stop` ends throws Stopped and ends the search (there is no result until the next start).
  virtual void search_check(const SearchRequest& request) const = 0;  // std::invalid_argument unless start takes it
  virtual int search_start(const SearchRequest& request, uint64_t seed, const LeafBuffers& out,
                           const StopFlag* stop) = 0;
  virtual int search_evaluate(const float* values, const float* priors, const LeafBuffers& out,
                              const StopFlag* stop) = 0;
  virtual void search_result(const SearchResultBuffers& out) const = 0;
};

// A search kept between calls (tree reuse): made by a game for its tree search; later searches
// of the same game go on from it (engine/model.h says when).
class AnyKeptTree {
 public:
  virtual ~AnyKeptTree() = default;
  virtual void clear() = 0;
};

class AnyGame {
 public:
  virtual ~AnyGame() = default;
  virtual const GameInfo& info() const = 0;
  virtual int num_players() const = 0;
  virtual Json params_json() const = 0;
  virtual int num_distinct_actions() const = 0;
  virtual int64_t max_game_length() const = 0;
  virtual int observation_tensor_size() const = 0;
  virtual std::unique_ptr<AnyState> new_initial_state() const = 0;
  // Validated loaders: std::invalid_argument for anything but a legal position of this game.
  virtual std::unique_ptr<AnyState> state_from_json(const Json& data) const = 0;
  virtual std::unique_ptr<AnyState> deserialize(const std::string& bytes) const = 0;
  // An empty kept tree for this game's tree search (MCTS, or ISMCTS on hidden information).
  virtual std::unique_ptr<AnyKeptTree> new_kept_tree() const = 0;
  // num_envs >= 1 environments of this game (std::invalid_argument names a bad option).
  virtual std::unique_ptr<AnyVectorEnv> new_vector_env(const VectorOptions& options) const = 0;
  // Whether another game has the same parameters (games are values).
  bool same_as(const AnyGame& other) const;
};

// A state of a declared game, with its history of actions. Every method that takes a seat or an
// action checks it (std::invalid_argument), and a failed call changes nothing.
class AnyState {
 public:
  virtual ~AnyState() = default;
  virtual const AnyGame& game() const = 0;
  virtual std::shared_ptr<const AnyGame> game_ptr() const = 0;
  virtual std::unique_ptr<AnyState> clone() const = 0;

  virtual int current_player() const = 0;
  virtual bool is_chance_node() const = 0;
  virtual bool is_terminal() const = 0;
  virtual std::vector<Action> legal_actions() const = 0;
  virtual std::vector<std::pair<Action, double>> chance_outcomes() const = 0;
  virtual bool is_legal(Action a) const = 0;  // a legal action, or a chance outcome
  virtual void apply_action(Action a) = 0;    // is_legal or std::invalid_argument
  // "illegal action <shown> (<its string>) in <game>; legal actions: [...]": apply_action's error,
  // with the action shown as the caller got it (a is -1 where it is no action id at all).
  virtual std::string illegal_action_message(const std::string& shown, Action a) const = 0;
  virtual std::string action_to_string(Action a) const = 0;
  virtual Action string_to_action(const std::string& text) const = 0;
  virtual std::vector<double> returns() const = 0;
  virtual std::vector<int> scores() const = 0;
  virtual const std::vector<Action>& history() const = 0;
  virtual void set_history(std::vector<Action> history) = 0;  // unpickling: the actions that led here

  virtual Json to_json() const = 0;
  virtual std::string to_string() const = 0;
  virtual std::string serialize() const = 0;
  virtual bool equals(const AnyState& other) const = 0;

  // Information sets (docs/information.md): what `seat` knows, never more.
  virtual std::string information_string(int seat) const = 0;
  virtual Json view_json(int seat) const = 0;
  // What lies in front of `seat` (-1: an onlooker, who sees what everyone sees) at this moment:
  // the board without the memory aids, the facts a player of the physical game has to remember
  // (docs/web.md). The view itself for the games that ask nothing to be remembered.
  virtual Json unaided_json(int seat) const = 0;
  virtual std::string unaided_string(int seat) const = 0;
  virtual uint64_t information_key(int seat) const = 0;
  virtual void observation_tensor(int seat, float* out) const = 0;
  virtual std::unique_ptr<AnyState> resample(int seat, uint64_t seed) const = 0;
  // The state as `seat` might remember it (bots with imperfect memory); itself if the game asks
  // nothing to be remembered.
  virtual std::unique_ptr<AnyState> forget(int seat, double recall, uint64_t seed) const = 0;
  // What `seat` sees of action or chance outcome `a` (legal here) as it is played (the game's
  // observe hook, core/game_concept.h): everything in a game of perfect information.
  virtual Observed observe(Action a, int seat) const = 0;

  // What the generic layers ask of the game here.
  // `count` uniformly random games from here (random_playout.h, game i drawn by playout_seed):
  // the actions applied over all of them.
  virtual int64_t random_playouts(int64_t count, uint64_t seed, const StopFlag* stop) const = 0;

  virtual Algorithm auto_algorithm() const = 0;
  virtual bool solver_applies() const = 0;
  virtual Action greedy_action() const = 0;  // the game's greedy policy (uniform if it has none)

  // A search from this decision node, on a copy (the state may change meanwhile): `kept` (may be
  // null) is a tree to reuse, made by this game; `stop` and `progress` may be null. An exact
  // algorithm's time limit (settings.time_limit) ends it as a stop would: expectimax answers with
  // its deepest complete depth, a solver cut short throws Stopped.
  virtual SearchResult search(const ResolvedSearch& settings, uint64_t seed, const StopFlag* stop,
                              SearchProgress* progress, AnyKeptTree* kept) const = 0;
  // The exact solver (std::invalid_argument if the game has none).
  virtual SearchResult solve(const StopFlag* stop) const = 0;

  int checked_seat(int64_t seat, const std::string& what) const;
};

// The position drawn for a seat, as the protocol's board answers it: {"seat", "memory_aids",
// "text", "json"}. With a seat, what it knows (memory aids on: information_string, view_json) or
// what lies in front of it now (off: unaided_string, unaided_json); without one, everything
// (to_string, to_json) or what lies in front of everyone (present_*(-1)). The one drawing behind
// the protocol's board and the C ABI's nc_state_board; which seat may ask is the caller's rule.
// std::invalid_argument for a seat out of range.
Json board_json(const AnyState& state, std::optional<int> seat, bool memory_aids);

// The declared games (CMake's NUTCORE_GAMES), by name, and loading one by name from its
// parameters (players included). std::invalid_argument names the problem.
const std::vector<GameInfo>& game_infos();
const GameInfo& game_info(const std::string& name);
std::shared_ptr<const AnyGame> load_game(const std::string& name, const Json& params);

// A request made concrete at a state: the algorithm "auto" picks there, the settings it runs
// with, and whether it can use a kept tree. Where "auto" picks an exact algorithm (a game's
// auto_algorithm does so only where that takes milliseconds: Purzelbaum's winter solver, some tens
// at most) its budget is checked and ignored, the time limit too: its answer there is the exact
// one, the same on any machine, and never the error `stopped` for want of time. Every check
// best_move makes, before any search: std::invalid_argument names what is wrong (a terminal or
// chance node, an algorithm the game does not offer, an option it does not take, a tree given to a
// search that keeps none).
struct PreparedSearch {
  ResolvedSearch settings;
  bool tree_search = false;  // MCTS or ISMCTS: a kept tree can serve
};
PreparedSearch prepare_search(const AnyState& state, const SearchRequest& request, bool with_tree,
                              const std::string& who = "best_move");

// best_move's whole call: prepare_search, then the search. The seed is drawn from the system when
// the request gives none. `kept`: a tree to reuse ("auto", MCTS and ISMCTS only).
SearchResult best_move(const AnyState& state, const SearchRequest& request, const StopFlag* stop,
                       SearchProgress* progress, AnyKeptTree* kept, const std::string& who = "best_move");

// A tree kept between searches for one game at a time (a bot's with reuse, nutcore.SearchTree's):
// made anew when the game changes.
struct KeptTree {
  std::shared_ptr<const AnyGame> owner;
  std::unique_ptr<AnyKeptTree> kept;
  AnyKeptTree* for_state(const AnyState& state);
  void clear();
};

uint64_t random_seed();  // from the system, for searches that give none

// The trained networks built into the engine (python/nutcore/data/networks/<game>-<players>p.nnet,
// generated/networks.inc): the learned evaluator's for `game` at `players`, or null; and which
// there are, as "<game>-<players>p".
std::shared_ptr<const Network> shipped_network(const std::string& game, int players);
std::vector<std::string> shipped_networks();

// A network from its file's bytes (Network::from_bytes), whose header names a declared game and a
// player count that game is played by: std::invalid_argument otherwise, at load rather than at its
// first search.
std::shared_ptr<Network> load_network(const std::string& bytes);

// The network the learned evaluator of `settings` uses for `game` (the request's, else the
// game's built-in one), set into its options; std::invalid_argument if there is none or it is
// another game's. Nothing for the other evaluators (a request's network then is an error).
void attach_network(ResolvedSearch& settings, const SearchRequest& request, const AnyGame& game,
                    const std::string& who);

// A batched search's settings for a game (std::invalid_argument names what is wrong): the game's
// tree search ("auto"; MCTS, or ISMCTS on hidden information), an iteration budget per
// environment, the game's defaults under the request's options; no time limit or threads (the
// environment's threads run it). Without an evaluator its caller evaluates the leaves (kOutside).
ResolvedSearch prepare_batched_search(const AnyGame& game, const SearchRequest& request);

}  // namespace nutcore::engine
