// Die Ritter von der Haselnuss (2-4 players): roll and move on a graph, draw from the bushes' card
// stacks, remember the thieves put back, shout their names. Rules as implemented, encodings and
// the information model: docs/rules/ritter.md. This header holds the state layout, the hot rules
// and the information-set functions; ritter.cc the parameters, JSON, validation and text.
//
// Contracts as for every nutcore game: legal actions and chance outcomes in ascending id order;
// apply() takes a legal action and then applies forced decisions (exactly one legal action) and
// chance nodes with a single outcome. Hidden information: the state holds the whole truth and, per
// stack, who has seen its known top; information_key / resample read only what a seat knows.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "core/game_concept.h"
#include "core/game_defaults.h"
#include "core/json.h"
#include "core/perfect_information.h"
#include "core/rng.h"
#include "core/types.h"
#include "games/ritter/declaration.h"  // the facts: name, tag, players...

namespace nutcore::ritter {

constexpr int kMaxPlayers = declare::ritter::kMaxPlayers;
constexpr int kMaxNodes = 16;
constexpr int kMaxBushes = 12;
constexpr int kMaxHides = 4;
constexpr int kMaxFaces = 12;
constexpr int kKinds = 3;  // thieves: Max (the Marten), Leo (the Lynx), Fritz (the Fox)
constexpr uint8_t kNone = 0xFF;
constexpr uint8_t kHidden = 4;  // in a seat's view: a shout made by another seat, not yet revealed

namespace act {
constexpr Action kTo = 0;  // + node
constexpr Action kSilent = 16;
constexpr Action kShout = 17;  // + thief kind
constexpr Action kRoll = 19;   // + K (20..25)
constexpr Action kDrawNut = 26;
constexpr Action kDrawThief = 27;   // + thief kind
constexpr Action kFirstRight = 30;  // + seat
constexpr Action kFirstWrong = 34;  // + seat
constexpr Action kFirstShout = 38;  // + seat
constexpr int kNumDistinct = 42;
}  // namespace act

enum class Phase : uint8_t { kPlace, kRoll, kMove, kShout, kDraw, kFirstRight, kFirstWrong, kFirstShout, kTerminal };
constexpr int kNumPhases = 9;

struct Board {
  std::vector<std::string> bushes, hiding_places;
  std::vector<std::pair<int, int>> edges;  // node ids: bushes first, then hiding places
};

struct Params {
  int players = 2;
  Board board;  // empty: the default board
  int stack_size = 7;
  int hazelnuts = 32;
  int thieves_per_kind = 8;
  std::vector<int> die = {1, 1, 2, 2, 3, 3};
  std::vector<int> delivery_points = {1, 3, 6, 10};
  int shout_points = 2;
  int score_floor = -3;
  int score_target = 25;
  int empty_stacks_to_end = 2;
  bool first_only = false;  // shout_resolution "first_only" (default "separate")
  int turn_cap = 500;
};

// The whole position, 64 bytes for every player count and board:
//   cards[b]    stack height of bush b            top[b]   kind of its known top, kNone if none
//   seen[b]     bit s: seat s has seen that top   pool[k]  undrawn cards: 0 hazelnuts, 1 + thief kind
//   knight[s]   node of seat s's knight (kNone before it is placed)
//   score[s], carried[s]                          shout[s] kNone, 0 silent, 1 + thief kind
//   turn        completed turns                   phase, current (the seat to act), drawer, roll,
//   card        the card being resolved: 0 hazelnut, 1 + thief kind (phases first_*), else kNone
// Fields a phase does not use are kNone (0 for counts), so that equal positions are equal bytes.
struct State {
  uint8_t cards[kMaxBushes];
  uint8_t top[kMaxBushes];
  uint8_t seen[kMaxBushes];
  uint8_t knight[kMaxPlayers];
  int8_t score[kMaxPlayers];
  uint8_t carried[kMaxPlayers];
  uint8_t shout[kMaxPlayers];
  uint8_t pool[1 + kKinds];
  uint16_t turn;
  uint8_t num_players;
  Phase phase;
  uint8_t current;
  uint8_t drawer;
  uint8_t roll;
  uint8_t card;

  bool operator==(const State& o) const { return std::memcmp(this, &o, sizeof(State)) == 0; }
};
static_assert(sizeof(State) == 64, "document the new size in docs/rules/ritter.md");
static_assert(std::is_trivially_copyable_v<State>);
static_assert(std::has_unique_object_representations_v<State>, "no padding: equal states are equal bytes");

using ActionList = FixedList<Action, kMaxNodes>;
using ChanceList = FixedList<ChanceOutcome, 6>;

class Game : public GameDefaults<Game, State> {
 public:
  // The facts are the declaration's (one source); these names are the contract's.
  static constexpr const char* kName = declare::ritter::kName;
  static constexpr uint8_t kGameTag = declare::ritter::kGameTag;
  static constexpr uint8_t kFormatVersion = declare::ritter::kFormatVersion;
  static constexpr bool kHasChance = declare::ritter::kHasChance;
  static constexpr bool kHiddenInformation = declare::ritter::kHiddenInformation;
  static constexpr int kMaxNumPlayers = declare::ritter::kMaxPlayers;
  static constexpr int kNumDistinctActions = act::kNumDistinct;
  using StateType = State;
  using Actions = ActionList;
  using Chances = ChanceList;

  explicit Game(const Params& params);  // throws std::invalid_argument
  const Params& params() const { return params_; }
  int num_players() const { return params_.players; }
  int num_bushes() const { return num_bushes_; }
  // A bound: the set-up placements, then at most turn_cap turns of a roll, a move, the others'
  // shouts, the card and the two first-shouter draws.
  int64_t max_game_length() const { return params_.players + int64_t{params_.turn_cap} * (params_.players - 1 + 5); }
  int num_nodes() const { return num_nodes_; }
  bool is_bush(int node) const { return node < num_bushes_; }
  int degree(int node) const { return degree_[node]; }
  int delivery_value(int nuts) const {
    if (nuts <= 0) return 0;
    const int n = static_cast<int>(params_.delivery_points.size());
    return params_.delivery_points[std::min(nuts, n) - 1];
  }
  // Publicly known: thieves of kind k removed from play.
  int removed(const State& s, int k) const {
    int on_top = 0;
    for (int b = 0; b < num_bushes_; ++b) on_top += s.top[b] == k;
    return params_.thieves_per_kind - s.pool[1 + k] - on_top;
  }

  State new_initial_state() const;
  int current_player(const State& s) const {
    if (s.phase == Phase::kTerminal) return kTerminalPlayer;
    return is_chance(s) ? kChancePlayer : s.current;
  }
  bool is_chance(const State& s) const {
    return s.phase == Phase::kRoll || s.phase == Phase::kDraw || s.phase == Phase::kFirstRight ||
           s.phase == Phase::kFirstWrong || s.phase == Phase::kFirstShout;
  }
  bool is_terminal(const State& s) const { return s.phase == Phase::kTerminal; }
  void legal_actions(const State& s, ActionList& out) const;
  void chance_outcomes(const State& s, ChanceList& out) const;
  Action sample_chance(const State& s, Rng& rng) const;
  // The uniform legal action without listing (search/random_playout.h): the same action and draws.
  Action random_action(const State& s, Rng& rng) const;
  void apply(State& s, Action a) const;
  void returns(const State& s, double* out) const;
  void scores(const State& s, int* out) const;

  // Information sets (docs/rules/ritter.md, "Information").
  State view(const State& s, int player) const;  // s with what `player` cannot know masked out
  uint64_t information_key(const State& s, int player) const;
  State resample(const State& s, int player, Rng& rng) const;
  // Imperfect memory (core/game_concept.h, HasForget): each top `player` has seen is remembered
  // with probability `recall`; a forgotten one is as if never seen.
  State forget(const State& s, int player, double recall, Rng& rng) const;
  // What `player` sees of `a` as it is played (core/game_concept.h, HasObserve; the rules'
  // "What each seat sees"): everything but others' shouts until the card is resolved and a thief
  // nobody shouted at, which only the drawer (and whoever saw it before) sees; the event that
  // resolves the card tells it, and every shout with whether it was right.
  Observed observe(const State& s, Action a, int player) const;
  int observation_tensor_size() const;
  void observation_tensor(const State& s, int player, float* out) const;
  std::string information_string(const State& s, int player) const;
  // What lies in front of `player` (-1: of an onlooker) now, without the memory aids (docs/web.md):
  // the view without the kinds of known tops, nor who has seen them (face-down cards all look
  // alike; the rulebook's game asks players to remember them).
  Json unaided_json(const State& s, int player) const;
  std::string unaided_string(const State& s, int player) const;

  // Cold path.
  static Params params_from_json(const Json& j);
  Json params_json() const;
  std::string action_to_string(Action a) const;
  Json to_json(const State& s) const;
  Json view_json(const State& s, int player) const;  // to_json with what `player` has not seen "hidden"
  State from_json(const Json& j) const;
  State deserialize(const std::string& bytes) const;
  void validate(const State& s) const;
  std::string to_string(const State& s) const;
  const std::string& node_name(int node) const { return names_[node]; }

 private:
  std::string seat_string(const State& s, int player, bool memory) const;
  std::string full_string(const State& s, bool memory) const;
  Params params_;
  int num_bushes_ = 0;
  int num_nodes_ = 0;
  std::vector<std::string> names_;
  uint8_t degree_[kMaxNodes] = {};
  uint8_t adjacent_[kMaxNodes][kMaxNodes] = {};
  uint8_t face_count_[7] = {};  // die faces showing K paws
  int num_distinct_faces_ = 0;
  ChanceList roll_outcomes_;  // a roll's outcomes as chance_outcomes lists them (they never change)

  // Move ends from the empty bushes (a bitmask), the knight's node and the roll: tabled for boards
  // of up to kTabledBushes bushes (legal_actions is hot: every greedy move and tree node lists them).
  static constexpr int kTabledBushes = 10;
  std::vector<uint32_t> ends_table_;  // [empty bushes][node][roll 0..6]
  void build_ends_table();
  uint32_t move_ends(const State& s) const;
  uint32_t empty_bushes(const State& s) const;  // bit b: bush b's stack is empty
  void walk(uint32_t empty, int node, int previous, int steps, uint32_t& ends) const;
  // move_ends by walking the board, where it is not tabled (out of line: large, and rare).
  [[gnu::noinline]] uint32_t walked_ends(uint32_t empty, int node, int steps) const {
    uint32_t ends = 0;
    walk(empty, node, -1, steps, ends);
    return ends;
  }
  void do_action(State& s, Action a) const;
  void after_shouts(State& s) const;
  void resolve(State& s, uint8_t old_seen) const;
  void finish(State& s, uint8_t old_seen) const;
  void end_turn(State& s, int mover) const;
  void end_game(State& s) const;
  void run(State& s) const;
  // Seats (bit masks) whose shout names the card being resolved, and those who named another.
  struct Shouts {
    uint32_t right = 0, wrong = 0;
  };
  static Shouts shouts(const State& s) {
    Shouts out;
    for (int p = 0; p < s.num_players; ++p) {
      const int x = s.shout[p];
      if (x == kNone || x == 0) continue;
      (s.card == x ? out.right : out.wrong) |= 1u << p;
    }
    return out;
  }
  // Score-track moves: up to the target; a penalty stops at the floor. A right shout also costs
  // the drawer the carried hazelnuts.
  void advance(State& s, int p, int points) const {
    s.score[p] = static_cast<int8_t>(std::min(params_.score_target, s.score[p] + points));
  }
  void reward(State& s, int p) const {
    advance(s, p, params_.shout_points);
    s.carried[s.drawer] = 0;
  }
  void penalize(State& s, int p) const {
    s.score[p] = static_cast<int8_t>(std::max(params_.score_floor, s.score[p] - params_.shout_points));
  }
  bool reached_target(const State& s) const {
    for (int p = 0; p < s.num_players; ++p)
      if (s.score[p] >= params_.score_target) return true;
    return false;
  }
};

// ---------------------------------------------------------------------------------------------
// Hot rules.

// All end nodes of walks of `steps` more steps from `node`, never straight back to `previous`.
inline void Game::walk(uint32_t empty, int node, int previous, int steps, uint32_t& ends) const {
  if (steps == 0) {
    ends |= 1u << node;
    return;
  }
  bool moved = false;
  for (int i = 0; i < degree_[node]; ++i) {
    const int next = adjacent_[node][i];
    if (next == previous) continue;
    moved = true;
    if (empty >> next & 1)
      ends |= 1u << next;  // an empty stack ends the walk
    else
      walk(empty, next, node, steps - 1, ends);
  }
  if (!moved) ends |= 1u << node;  // stuck: no edge but the one it came by
}

inline uint32_t Game::empty_bushes(const State& s) const {
#if defined(__SSE2__)
  // The state's first 16 bytes: the 12 stack heights, then tops, which the mask drops.
  static_assert(offsetof(State, cards) == 0 && sizeof(State) >= 16);
  __m128i bytes;
  std::memcpy(&bytes, &s, sizeof bytes);
  const auto zero = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_setzero_si128())));
  return zero & ((1u << num_bushes_) - 1);
#else
  uint32_t empty = 0;
  for (int b = 0; b < num_bushes_; ++b) empty |= static_cast<uint32_t>(s.cards[b] == 0) << b;
  return empty;
#endif
}

inline uint32_t Game::move_ends(const State& s) const {
  const uint32_t empty = empty_bushes(s);
  if (!ends_table_.empty() && s.roll <= 6) [[likely]]
    return ends_table_[(static_cast<size_t>(empty) * num_nodes_ + s.knight[s.current]) * 7 + s.roll];
  return walked_ends(empty, s.knight[s.current], s.roll);
}

inline void Game::legal_actions(const State& s, ActionList& out) const {
  out.clear();
  if (s.phase == Phase::kPlace) {
    for (int b = 0; b < num_bushes_; ++b) {
      bool free = true;
      for (int p = 0; p < s.current; ++p) free &= s.knight[p] != b;
      if (free) out.push_back(act::kTo + b);
    }
  } else if (s.phase == Phase::kMove) {
    for (uint32_t ends = move_ends(s); ends; ends &= ends - 1) out.push_back(act::kTo + __builtin_ctz(ends));
  } else if (s.phase == Phase::kShout) {
    for (Action a = act::kSilent; a < act::kShout + kKinds; ++a) out.push_back(a);
  }
}

inline void Game::chance_outcomes(const State& s, ChanceList& out) const {
  out.clear();
  switch (s.phase) {
    case Phase::kRoll:
      out = roll_outcomes_;
      break;
    case Phase::kDraw: {
      const int total = s.pool[0] + s.pool[1] + s.pool[2] + s.pool[3];
      for (int c = 0; c < 1 + kKinds; ++c)
        if (s.pool[c]) out.push_back({act::kDrawNut + c, static_cast<double>(s.pool[c]) / total});
      break;
    }
    case Phase::kFirstRight:
    case Phase::kFirstWrong:
    case Phase::kFirstShout: {
      // Candidates: the right shouters, the wrong ones, or all shouters.
      const Shouts x = shouts(s);
      uint32_t mask = s.phase == Phase::kFirstRight   ? x.right
                      : s.phase == Phase::kFirstWrong ? x.wrong
                                                      : x.right | x.wrong;
      const Action base = s.phase == Phase::kFirstRight   ? act::kFirstRight
                          : s.phase == Phase::kFirstWrong ? act::kFirstWrong
                                                          : act::kFirstShout;
      const double p = 1.0 / popcount(mask);
      for (; mask; mask &= mask - 1) out.push_back({base + __builtin_ctz(mask), p});
      break;
    }
    default:
      break;
  }
}

// sample_outcome over chance_outcomes' list, the same draw, but without building the list for a
// roll (built at load) or a draw from the pool (the commonest chance nodes of a playout).
inline Action Game::sample_chance(const State& s, Rng& rng) const {
  if (s.phase == Phase::kRoll) return sample_outcome(roll_outcomes_, rng);
  if (s.phase == Phase::kDraw) {
    const int total = s.pool[0] + s.pool[1] + s.pool[2] + s.pool[3];
    int last = kKinds;
    while (last > 0 && !s.pool[last]) --last;
    double r = rng.uniform();
    for (int c = 0; c < last; ++c) {
      if (!s.pool[c]) continue;
      r -= static_cast<double>(s.pool[c]) / total;
      if (r < 0) return act::kDrawNut + c;
    }
    return act::kDrawNut + last;
  }
  ChanceList list;
  chance_outcomes(s, list);
  return sample_outcome(list, rng);
}

inline Action Game::random_action(const State& s, Rng& rng) const {
  if (s.phase == Phase::kMove) return act::kTo + random_member(move_ends(s), rng);
  if (s.phase == Phase::kShout) return act::kSilent + static_cast<Action>(rng.below(1 + kKinds));
  return random_action_by_listing(*this, s, rng);
}

inline void Game::end_game(State& s) const {
  s.phase = Phase::kTerminal;
  s.current = 0;  // canonical: nobody is to act
  s.drawer = s.roll = s.card = kNone;
  for (int p = 0; p < kMaxPlayers; ++p) s.shout[p] = kNone;
}

inline void Game::end_turn(State& s, int mover) const {
  ++s.turn;
  const int empty = popcount(empty_bushes(s));
  if (empty >= params_.empty_stacks_to_end || s.turn >= params_.turn_cap) {
    end_game(s);
    return;
  }
  s.current = static_cast<uint8_t>(next_seat(mover, s.num_players));
  s.phase = Phase::kRoll;
}

// The card is resolved: it goes where it belongs, and the turn (or the game) ends.
inline void Game::finish(State& s, uint8_t old_seen) const {
  const int d = s.drawer, b = s.knight[d];
  bool shouted = false;
  for (int p = 0; p < s.num_players; ++p) shouted |= s.shout[p] != kNone && s.shout[p] != 0;
  if (s.card == 0) {
    ++s.carried[d];
  } else if (!shouted) {  // back on top; the drawer has now seen it too
    ++s.cards[b];
    s.top[b] = static_cast<uint8_t>(s.card - 1);
    s.seen[b] = static_cast<uint8_t>(old_seen | 1u << d);
  }  // a thief that drew a shout leaves play
  s.card = s.drawer = kNone;
  for (int p = 0; p < kMaxPlayers; ++p) s.shout[p] = kNone;
  if (reached_target(s)) {
    end_game(s);
    return;
  }
  end_turn(s, d);
}

// Scores the shouts whose first shouter is known and stops at the first chance node still needed.
// Called with the phase that was just resolved (kDraw when none was).
inline void Game::resolve(State& s, uint8_t old_seen) const {
  const auto [right, wrong] = shouts(s);
  // Several candidates: a chance node picks the first (the card has left its stack already).
  if (params_.first_only) {
    const uint32_t all = right | wrong;
    if (s.phase != Phase::kFirstShout && popcount(all) >= 2) {
      s.phase = Phase::kFirstShout;
      return;
    }
    if (s.phase != Phase::kFirstShout && all)
      right ? reward(s, __builtin_ctz(right)) : penalize(s, __builtin_ctz(wrong));
    return finish(s, old_seen);
  }
  if (s.phase != Phase::kFirstRight && s.phase != Phase::kFirstWrong) {
    if (popcount(right) >= 2) {
      s.phase = Phase::kFirstRight;
      return;
    }
    if (right) reward(s, __builtin_ctz(right));
  }
  if (s.phase != Phase::kFirstWrong) {
    if (popcount(wrong) >= 2) {
      s.phase = Phase::kFirstWrong;
      return;
    }
    if (wrong) penalize(s, __builtin_ctz(wrong));
  }
  finish(s, old_seen);
}

// All shouts are in: the card is the known top, or drawn from the pool (a chance node).
inline void Game::after_shouts(State& s) const {
  const int b = s.knight[s.drawer];
  s.current = s.drawer;
  if (s.top[b] == kNone) {
    s.phase = Phase::kDraw;
    return;
  }
  const uint8_t old_seen = s.seen[b];
  s.card = static_cast<uint8_t>(1 + s.top[b]);
  --s.cards[b];
  s.top[b] = kNone;
  s.seen[b] = 0;
  s.phase = Phase::kDraw;  // "no chance node was resolved yet"
  resolve(s, old_seen);
}

inline void Game::do_action(State& s, Action a) const {
  switch (s.phase) {
    case Phase::kPlace:
      s.knight[s.current] = static_cast<uint8_t>(a - act::kTo);
      if (++s.current == s.num_players) {
        s.current = 0;
        s.phase = Phase::kRoll;
      }
      break;
    case Phase::kRoll:
      s.roll = static_cast<uint8_t>(a - act::kRoll);
      s.phase = Phase::kMove;
      break;
    case Phase::kMove: {
      const int node = a - act::kTo, mover = s.current;
      s.knight[mover] = static_cast<uint8_t>(node);
      s.roll = kNone;
      if (!is_bush(node)) {  // a hiding place: deliver
        advance(s, mover, delivery_value(s.carried[mover]));
        s.carried[mover] = 0;
        if (reached_target(s)) return end_game(s);
        return end_turn(s, mover);
      }
      if (s.cards[node] == 0) return end_turn(s, mover);
      s.drawer = static_cast<uint8_t>(mover);
      s.current = static_cast<uint8_t>(next_seat(mover, s.num_players));
      s.phase = Phase::kShout;
      break;
    }
    case Phase::kShout: {
      s.shout[s.current] = static_cast<uint8_t>(a - act::kSilent);
      const int next = next_seat(s.current, s.num_players);
      if (next == s.drawer)
        after_shouts(s);
      else
        s.current = static_cast<uint8_t>(next);
      break;
    }
    case Phase::kDraw: {
      const int c = a - act::kDrawNut, b = s.knight[s.drawer];
      --s.pool[c];
      --s.cards[b];
      s.card = static_cast<uint8_t>(c);
      resolve(s, 0);
      break;
    }
    case Phase::kFirstRight:
      reward(s, a - act::kFirstRight);
      resolve(s, 0);
      break;
    case Phase::kFirstWrong:
      penalize(s, a - act::kFirstWrong);
      resolve(s, 0);
      break;
    case Phase::kFirstShout: {
      const int p = a - act::kFirstShout;
      s.shout[p] == s.card ? reward(s, p) : penalize(s, p);
      resolve(s, 0);
      break;
    }
    case Phase::kTerminal:
      break;
  }
}

// Forced decisions and single-outcome chance nodes are applied at once.
inline void Game::run(State& s) const {
  for (;;) {
    // A single choice or outcome is found from the masks and counts, without listing.
    if (s.phase == Phase::kMove) {
      const uint32_t ends = move_ends(s);
      if (!one_bit_set(ends)) return;
      do_action(s, act::kTo + __builtin_ctz(ends));
    } else if (s.phase == Phase::kPlace) {
      ActionList legal;
      legal_actions(s, legal);
      if (legal.size() != 1) return;
      do_action(s, legal[0]);
    } else if (s.phase == Phase::kRoll) {
      if (num_distinct_faces_ != 1) return;
      do_action(s, roll_outcomes_[0].action);
    } else if (s.phase == Phase::kDraw) {
      uint32_t kinds = 0;  // bit c: the pool holds cards of kind c
      for (int c = 0; c < 1 + kKinds; ++c) kinds |= static_cast<uint32_t>(s.pool[c] != 0) << c;
      if (!one_bit_set(kinds)) return;
      do_action(s, act::kDrawNut + __builtin_ctz(kinds));
    } else {
      return;
    }
  }
}

inline void Game::apply(State& s, Action a) const {
  do_action(s, a);
  run(s);
}

inline void Game::scores(const State& s, int* out) const {
  for (int p = 0; p < s.num_players; ++p) out[p] = s.score[p];
}

inline void Game::returns(const State& s, double* out) const {
  const int n = s.num_players;
  for (int p = 0; p < n; ++p) out[p] = 0.0;
  if (!is_terminal(s)) return;
  int best = -1000, winners = 0;
  for (int p = 0; p < n; ++p) best = std::max<int>(best, s.score[p]);
  for (int p = 0; p < n; ++p) winners += s.score[p] == best;
  for (int p = 0; p < n; ++p)
    if (s.score[p] == best) out[p] = 1.0 / winners;
}

// ---------------------------------------------------------------------------------------------
// Information sets.

// What `player` knows, as a state: tops it has not seen become "a thief" (kKinds), the pool holds
// the publicly known counts (hazelnuts undrawn, thieves of each kind removed), others' open shouts
// are kHidden. Two states give the same view exactly when the seat cannot tell them apart.
inline State Game::view(const State& s, int player) const {
  State v = s;
  for (int k = 0; k < kKinds; ++k) v.pool[1 + k] = static_cast<uint8_t>(removed(s, k));
  for (int b = 0; b < num_bushes_; ++b)
    if (s.top[b] != kNone && !(s.seen[b] >> player & 1)) v.top[b] = kKinds;
  if (s.phase == Phase::kShout || s.phase == Phase::kDraw)
    for (int p = 0; p < kMaxPlayers; ++p)  // seats beyond num_players never shout
      if (p != player && s.shout[p] != kNone) v.shout[p] = kHidden;
  return v;
}

inline uint64_t Game::information_key(const State& s, int player) const {
  return hash_bytes(view(s, player), static_cast<uint64_t>(player + 1) << 56);
}

// The exact posterior given `player`'s view (docs/rules/ritter.md): the kinds of the known tops it
// has not seen are drawn in node order from the thieves it cannot place; the pool is the rest;
// others' hidden shouts are uniform. Reads nothing of `s` that the view hides.
inline State Game::resample(const State& s, int player, Rng& rng) const {
  State r = s;
  int free[kKinds];
  for (int k = 0; k < kKinds; ++k) free[k] = params_.thieves_per_kind - removed(s, k);
  for (int b = 0; b < num_bushes_; ++b)
    if (s.top[b] != kNone && (s.seen[b] >> player & 1)) --free[s.top[b]];
  for (int b = 0; b < num_bushes_; ++b) {
    if (s.top[b] == kNone || (s.seen[b] >> player & 1)) continue;
    uint32_t x = rng.below(static_cast<uint32_t>(free[0] + free[1] + free[2]));
    int k = 0;
    while (x >= static_cast<uint32_t>(free[k])) x -= free[k++];
    r.top[b] = static_cast<uint8_t>(k);
    --free[k];
  }
  for (int k = 0; k < kKinds; ++k) r.pool[1 + k] = static_cast<uint8_t>(free[k]);
  if (s.phase == Phase::kShout || s.phase == Phase::kDraw)
    for (int p = 0; p < kMaxPlayers; ++p)
      if (p != player && s.shout[p] != kNone) r.shout[p] = static_cast<uint8_t>(rng.below(1 + kKinds));
  return r;
}

inline State Game::forget(const State& s, int player, double recall, Rng& rng) const {
  State r = s;
  for (int b = 0; b < num_bushes_; ++b)
    if (s.top[b] != kNone && (s.seen[b] >> player & 1) && !(rng.uniform() < recall))
      r.seen[b] = static_cast<uint8_t>(s.seen[b] & ~(1u << player));
  return r;
}

}  // namespace nutcore::ritter

// The heuristics come with the rules: every unit that sees the game sees the same optional hooks
// (found by argument-dependent lookup, core/game_concept.h), so searches are the same everywhere.
#include "games/ritter/heuristic.h"
