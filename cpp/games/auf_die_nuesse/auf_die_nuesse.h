// Auf die Nüsse! (2-4 players): push-your-luck dice, squirrels pushed up a three-row board, nut
// stores to fill. Rules as implemented, with every ruling and the action / chance / JSON encodings:
// docs/rules/auf_die_nuesse.md. This header holds the state layout and the hot rules; parsing,
// JSON, validation and text live in auf_die_nuesse.cc.
//
// Contracts (shared by every nutcore game):
// - legal_actions() and chance_outcomes() list actions in ascending id order.
// - apply() takes a legal action (a decision, or a chance outcome with probability > 0); it does no
//   checking. After it, forced decisions (exactly one legal action) are applied too, so a decision
//   node always offers at least two actions. Checking happens at the boundary (bindings).
// - A terminal state has no legal actions and no chance outcomes.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/game_defaults.h"
#include "core/json.h"
#include "core/perfect_information.h"
#include "core/rng.h"
#include "core/types.h"
#include "games/auf_die_nuesse/declaration.h"  // the facts: name, tag, players...

namespace nutcore::auf_die_nuesse {

constexpr int kMaxPlayers = declare::auf_die_nuesse::kMaxPlayers;
constexpr int kNumKinds = 4;       // walnut, hazelnut, beechnut, acorn
constexpr int kNumJokerTypes = 6;  // the unordered pairs of kinds
constexpr int kNumCards = kNumKinds + kNumJokerTypes;
constexpr int kNumSpaces = 9;  // A B R D E | L R3 Rt | 4
constexpr int kNumSlots = 4;
constexpr int kNumStores = 8;
constexpr uint8_t kNone = 0xFF;

enum SpaceId : uint8_t { kA, kB, kR, kD, kE, kL, kR3, kRt, kFour };

// Card c < 4 is a kind; card 4 + t is joker type t, whose kinds are kJokerKinds[t].
constexpr uint8_t kJokerKinds[kNumJokerTypes][2] = {{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}};
constexpr uint8_t kThreshold[kNumSpaces] = {2, 2, 2, 2, 2, 3, 3, 3, 4};
constexpr uint8_t kPushTo[kNumSpaces] = {kL, kL, kR3, kRt, kRt, kFour, kFour, kFour, kFour};
constexpr uint8_t kSlotMask[kNumSpaces] = {0b0001, 0b0010, 0b1111, 0b0100, 0b1000, 0b0011, 0b1111, 0b1100, 0b1111};
constexpr bool kRaccoon[kNumSpaces] = {false, false, true, false, false, false, true, false, false};
// The 2-area space above start-track space s (index s - 2).
constexpr uint8_t kAboveStart[11] = {kA, kA, kA, kB, kB, kR, kD, kD, kE, kE, kE};
// Pre-placement spaces, in the order of the `put` actions.
constexpr uint8_t kPutSpaces[4] = {kA, kB, kD, kE};

// Action ids (docs/rules/auf_die_nuesse.md, "Action encoding").
namespace act {
constexpr Action kRoll = 0;
constexpr Action kStop = 1;
constexpr Action kSpace = 0;   // + N for start-track space N in 2..12
constexpr Action kTake = 13;   // + slot
constexpr Action kStore = 17;  // + store
constexpr Action kJoker = 25;  // + 16 * type + 8 * which kind + store
constexpr Action kKeep = 121;
constexpr Action kSteal = 122;  // + 8 * victim + store
constexpr Action kNoSteal = 154;
constexpr Action kDone = 155;
constexpr Action kPut = 156;   // + index into kPutSpaces
constexpr Action kDraw = 160;  // + card
constexpr Action kRollFail = 170;
constexpr Action kRollFree = 171;  // + 11 * (a - 2) + (b - 2), a <= b; a == b: one free space
constexpr int kNumDistinct = 292;
}  // namespace act

enum class Stage : uint8_t { kSetup, kTurn, kCheck, kFinal, kOver };

// Node phases are the ones a state can rest in; the others are transient steps of the automaton
// in Game::run() and never visible outside it.
enum class Phase : uint8_t {
  // nodes
  kDealFaceUp,
  kDealStartNut,
  kPlace,
  kPrePlace,
  kRoll,
  kChooseSpace,
  kRollOrStop,
  kTake,
  kRefill,
  kSteal,
  kKeptJokers,
  kFinalJokers,
  kTerminal,
  // transient
  kAfterCard,
  kPrePlaceNext,
  kCheckStep,
  kTurnEnd,
  kNextTurn,
  kFinalBegin,
  kFinalStep,
  kFinalJokersNext,
};
constexpr int kNumNodePhases = 13;

struct Params {
  int players = 2;
  int turn_cap = 400;
  int squirrels = 15;
  int reserve = 8;
  int nuts_per_kind = 12;
  int jokers_per_pair = 2;
  int removed_per_kind_2p = 2;
  int removed_per_kind_3p = 1;
  std::array<int, kNumStores> store_capacities = {2, 2, 3, 3, 4, 4, 5, 6};
  std::array<int, kNumStores> store_values = {5, 5, 10, 10, 15, 15, 20, 30};
};

// The whole game position: a trivially copyable value of 124 bytes for every player count.
//
//   board[space]        4 bits per seat: squirrels of seat p at bits 4p..4p+3
//   start_track         bit s-2 set: start-track space s holds one of the active player's squirrels
//   store[p][s]         bits 0-2 kind + 1 (0 = no kind), bits 3-5 nuts in it; a full store holds
//                       nuts == capacity and no kind
//   store_jokers[p]     4 bits per store: how many of its nuts are joker cards
//   kept[p][t]          jokers of type t kept in front of seat p
//   unseen[c]           cards of type c not yet seen (draw pile and reserve together)
//   face_up[slot]       card, or kNone once nothing is left to draw
//   the rest            the automaton's cursor: see docs/rules/auf_die_nuesse.md, "Canonical JSON"
struct State {
  uint16_t board[kNumSpaces];
  uint16_t start_track;
  uint8_t store[kMaxPlayers][kNumStores];
  uint32_t store_jokers[kMaxPlayers];
  uint8_t kept[kMaxPlayers][kNumJokerTypes];
  uint8_t unseen[kNumCards];
  uint8_t face_up[kNumSlots];
  uint16_t turn;
  uint8_t draw_pile;
  uint8_t reserve;
  uint8_t num_players;
  Stage stage;
  Phase phase;
  uint8_t active;
  uint8_t seat;
  uint8_t check_space;
  uint8_t pending;
  uint8_t refill_slot;
  uint8_t roll_a;
  uint8_t roll_b;
  uint8_t pre_place_left;
  uint8_t david;
  uint8_t end_triggered;
  uint8_t steal_next;

  int squirrels_at(int space, int p) const { return (board[space] >> (4 * p)) & 15; }
  void set_squirrels(int space, int p, int n) {
    board[space] = static_cast<uint16_t>((board[space] & ~(15u << (4 * p))) | (unsigned(n) << (4 * p)));
  }
  int store_kind(int p, int s) const { return (store[p][s] & 7) - 1; }  // -1: none
  int store_nuts(int p, int s) const { return store[p][s] >> 3; }
  int store_joker_nuts(int p, int s) const { return (store_jokers[p] >> (4 * s)) & 15; }
  void set_store(int p, int s, int kind, int nuts, int jokers) {
    store[p][s] = static_cast<uint8_t>((kind + 1) | (nuts << 3));
    store_jokers[p] = (store_jokers[p] & ~(15u << (4 * s))) | (unsigned(jokers) << (4 * s));
  }
  bool operator==(const State& o) const { return std::memcmp(this, &o, sizeof(State)) == 0; }
};
static_assert(sizeof(State) == 124, "document the new size in docs/rules/auf_die_nuesse.md");
static_assert(std::is_trivially_copyable_v<State>);
static_assert(std::has_unique_object_representations_v<State>, "no padding: equal states are equal bytes");

using ActionList = FixedList<Action, 128>;
using ChanceList = FixedList<ChanceOutcome, 64>;

class Game : public GameDefaults<Game, State>, public PerfectInformation<Game, State> {
 public:
  // The facts are the declaration's (one source); these names are the contract's.
  static constexpr const char* kName = declare::auf_die_nuesse::kName;
  static constexpr uint8_t kGameTag = declare::auf_die_nuesse::kGameTag;
  static constexpr uint8_t kFormatVersion = declare::auf_die_nuesse::kFormatVersion;
  static constexpr bool kHasChance = declare::auf_die_nuesse::kHasChance;
  static constexpr bool kHiddenInformation = declare::auf_die_nuesse::kHiddenInformation;
  static constexpr int kMaxNumPlayers = declare::auf_die_nuesse::kMaxPlayers;
  static constexpr int kNumDistinctActions = act::kNumDistinct;
  using StateType = State;
  using Actions = ActionList;
  using Chances = ChanceList;

  // Throws std::invalid_argument for out-of-range parameters.
  explicit Game(const Params& params);
  const Params& params() const { return params_; }
  int num_players() const { return params_.players; }

  State new_initial_state() const;

  int current_player(const State& s) const;
  bool is_chance(const State& s) const {
    return s.phase == Phase::kDealFaceUp || s.phase == Phase::kDealStartNut || s.phase == Phase::kRoll ||
           s.phase == Phase::kRefill;
  }
  bool is_terminal(const State& s) const { return s.phase == Phase::kTerminal; }
  void legal_actions(const State& s, ActionList& out) const;
  void chance_outcomes(const State& s, ChanceList& out) const;
  // Samples a chance outcome with exactly the probabilities of chance_outcomes(), faster.
  Action sample_chance(const State& s, Rng& rng) const;
  // A uniformly random legal action, the most frequent decisions without listing (the contract of
  // random_action in search/random_playout.h).
  Action random_action(const State& s, Rng& rng) const;
  void apply(State& s, Action a) const;
  void returns(const State& s, double* out) const;
  void scores(const State& s, int* out) const;
  int supply(const State& s, int p) const;
  // The observation tensor (docs/rules/auf_die_nuesse.md, "Observation tensor"): the position
  // decoded for learning, a number per fact (not the state's packed bytes), with `player`'s seat.
  int observation_tensor_size() const { return 134 + 69 * params_.players; }
  void observation_tensor(const State& s, int player, float* out) const;
  // Bounds, not estimates. A turn: at most 12 rolls (11 start spaces, then a fail or a stop), each
  // with a space choice and a roll-or-stop; each collection removes at least 2 squirrels from the
  // board, so a check has at most squirrels/2 of them, each take + refill + place + steal + place;
  // kept jokers: one placement per card at most, then done. There are at most turn_cap + 1 turns,
  // the set-up and the final collections.
  int64_t max_game_length() const {
    const int64_t squirrels = int64_t{params_.players} * params_.squirrels;
    const int64_t per_turn = 12 * 3 + 5 * (squirrels / 2 + 1) + deck_size_ + 1;
    const int64_t setup = 4 + 2 * params_.players + 6 + params_.players;
    const int64_t final_phase = 3 * (squirrels / 4 + 1) + deck_size_ + 1;
    return setup + (int64_t{params_.turn_cap} + 1) * per_turn + final_phase;
  }

  // Cold path.
  // Parameters as a JSON object: every key optional, unknown keys and wrong types rejected.
  static Params params_from_json(const Json& j);
  Json params_json() const;
  static std::string action_to_string(Action a);
  static Action string_to_action(const std::string& text);  // throws std::invalid_argument
  Json to_json(const State& s) const;
  State from_json(const Json& j) const;               // validates, then applies forced moves
  State deserialize(const std::string& bytes) const;  // validates, then applies forced moves
  void validate(const State& s) const;                // throws std::invalid_argument naming the problem
  std::string to_string(const State& s) const;

 private:
  Params params_;
  int deck_[kNumCards];  // cards of each type in play after removal
  int deck_size_ = 0;
  uint8_t twin_before_[kNumStores];  // earlier stores with the same capacity and value (bit mask)
  unsigned has_twin_before_ = 0;     // stores with a nonzero twin_before_ (bit mask)
  uint64_t full_bytes_ = 0;          // byte st: the store byte of a full store st (capacity << 3)

  int capacity(int s) const { return params_.store_capacities[s]; }
  bool store_offered(const State& s, int p, int store) const;
  unsigned store_mask(const State& s, int p, int kind) const;
  unsigned take_mask(const State& s) const;
  void add_nut(State& s, int p, int store, int kind, bool joker) const;
  void legal_store_actions(const State& s, int p, ActionList& out) const;
  void legal_joker_actions(const State& s, int p, int type, ActionList& out) const;
  void do_action(State& s, Action a) const;
  void run(State& s) const;
  void no_legal_action(State& s) const;
  bool settle_from_mask(State& s, unsigned mask, Action base) const;
  int first_collector(const State& s, int space) const;
  void collect(State& s, int p, int space) const;
  void take(State& s, int slot) const;
  void finish_check_or_final(State& s) const;
};

}  // namespace nutcore::auf_die_nuesse

// ---------------------------------------------------------------------------------------------
// Hot rules, inline so that the search templates can inline them.
namespace nutcore::auf_die_nuesse {

inline int Game::supply(const State& s, int p) const {
  int placed = 0;
  for (int sp = 0; sp < kNumSpaces; ++sp) placed += s.squirrels_at(sp, p);
  if (p == s.active) placed += popcount(s.start_track);
  return params_.squirrels - placed;
}

inline int Game::current_player(const State& s) const {
  switch (s.phase) {
    case Phase::kDealFaceUp:
    case Phase::kDealStartNut:
    case Phase::kRoll:
    case Phase::kRefill:
      return kChancePlayer;
    case Phase::kTerminal:
      return kTerminalPlayer;
    case Phase::kChooseSpace:
    case Phase::kRollOrStop:
    case Phase::kKeptJokers:
      return s.active;
    default:
      return s.seat;  // place, pre_place, take, steal, final_jokers
  }
}

// Identical stores give identical results; only the lowest index of a set of twins is offered.
inline bool Game::store_offered(const State& s, int p, int store) const {
  for (unsigned twins = twin_before_[store]; twins; twins &= twins - 1) {
    const int t = __builtin_ctz(twins);
    if (s.store[p][t] == s.store[p][store] && s.store_joker_nuts(p, t) == s.store_joker_nuts(p, store)) return false;
  }
  return true;
}

// Bit i set where byte i of x is zero (exact: no borrow between bytes).
inline unsigned zero_bytes(uint64_t x) {
  constexpr uint64_t kLow7 = 0x7F7F7F7F7F7F7F7FULL;
  const uint64_t nonzero = ((x & kLow7) + kLow7) | x;  // each byte's high bit: byte != 0
  const uint64_t zero = ~nonzero & 0x8080808080808080ULL;
  return static_cast<unsigned>(((zero >> 7) * 0x0102040810204080ULL) >> 56);  // gather the 8 bits
}

// The stores of seat p that take a nut of `kind` (not full, holding no kind or that one) and are
// offered, one bit per store: exactly the stores legal_store_actions lists. A place decision is
// among the commonest in a game, and run() and random_action() both need it, so the eight stores
// are tested at once as one 64-bit word.
inline unsigned Game::store_mask(const State& s, int p, int kind) const {
  static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "byte i of the word is store i");
  static_assert(sizeof s.store[p] == 8);
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  uint64_t bytes;
  std::memcpy(&bytes, s.store[p], 8);
  const uint64_t kinds = bytes & (7 * kOnes);
  const unsigned open = ~zero_bytes(bytes ^ full_bytes_) & 0xFFu;  // not full
  const unsigned takes = zero_bytes(kinds) | zero_bytes(kinds ^ (uint64_t(kind + 1) * kOnes));
  unsigned mask = open & takes;
  for (unsigned check = mask & has_twin_before_; check; check &= check - 1) {
    const int st = __builtin_ctz(check);
    if (!store_offered(s, p, st)) mask &= ~(1u << st);
  }
  return mask;
}

// The face-up slots a take may choose from, one bit per slot.
inline unsigned Game::take_mask(const State& s) const {
  const unsigned allowed = s.stage == Stage::kFinal ? 0b1111u : kSlotMask[s.check_space];
  unsigned mask = 0;
  for (int i = 0; i < kNumSlots; ++i)
    if (s.face_up[i] != kNone) mask |= 1u << i;
  return mask & allowed;
}

inline void Game::add_nut(State& s, int p, int store, int kind, bool joker) const {
  const int nuts = s.store_nuts(p, store) + 1;
  const int jokers = s.store_joker_nuts(p, store) + (joker ? 1 : 0);
  if (nuts == capacity(store))
    s.set_store(p, store, -1, nuts, 0);  // full: turned over, its nuts boxed
  else
    s.set_store(p, store, kind, nuts, jokers);
}

inline void Game::legal_store_actions(const State& s, int p, ActionList& out) const {
  for (unsigned m = store_mask(s, p, s.pending); m; m &= m - 1) out.push_back(act::kStore + __builtin_ctz(m));
}

inline void Game::legal_joker_actions(const State& s, int p, int type, ActionList& out) const {
  for (int which = 0; which < 2; ++which)
    for (unsigned m = store_mask(s, p, kJokerKinds[type][which]); m; m &= m - 1)
      out.push_back(act::kJoker + 16 * type + 8 * which + __builtin_ctz(m));
}

inline void Game::legal_actions(const State& s, ActionList& out) const {
  out.clear();
  switch (s.phase) {
    case Phase::kPlace:
      if (s.pending < kNumKinds) {
        legal_store_actions(s, s.seat, out);
      } else {
        legal_joker_actions(s, s.seat, s.pending - kNumKinds, out);
        out.push_back(act::kKeep);
      }
      break;
    case Phase::kPrePlace:
      out.push_back(act::kStop);
      if (supply(s, s.seat) > 0)
        for (int i = 0; i < 4; ++i)
          if (s.squirrels_at(kPutSpaces[i], s.seat) == 0) out.push_back(act::kPut + i);
      break;
    case Phase::kChooseSpace:
      out.push_back(act::kSpace + s.roll_a);
      out.push_back(act::kSpace + s.roll_b);
      break;
    case Phase::kRollOrStop:
      if (supply(s, s.active) > 0) out.push_back(act::kRoll);
      out.push_back(act::kStop);
      break;
    case Phase::kTake:
      for (unsigned m = take_mask(s); m; m &= m - 1) out.push_back(act::kTake + __builtin_ctz(m));
      break;
    case Phase::kSteal:
      for (int v = 0; v < s.num_players; ++v) {
        if (v == s.seat || v == s.david) continue;
        for (int st = 0; st < kNumStores; ++st) {
          const int nuts = s.store_nuts(v, st);
          if (nuts > s.store_joker_nuts(v, st) && nuts < capacity(st) && store_offered(s, v, st))
            out.push_back(act::kSteal + 8 * v + st);
        }
      }
      out.push_back(act::kNoSteal);
      break;
    case Phase::kKeptJokers:
    case Phase::kFinalJokers: {
      const int p = s.phase == Phase::kKeptJokers ? s.active : s.seat;
      for (int t = 0; t < kNumJokerTypes; ++t)
        if (s.kept[p][t]) legal_joker_actions(s, p, t, out);
      if (s.phase == Phase::kKeptJokers) out.push_back(act::kDone);
      break;
    }
    default:
      break;  // chance nodes and the terminal state
  }
}

// The free candidate spaces for one roll, as the chance action they aggregate into.
inline Action roll_outcome(unsigned track, int a, int b) {
  const bool free_a = !(track >> (a - 2) & 1);
  const bool free_b = !(track >> (b - 2) & 1);
  if (free_a && free_b) {
    if (a > b) std::swap(a, b);
    return act::kRollFree + 11 * (a - 2) + (b - 2);
  }
  if (free_a) return act::kRollFree + 12 * (a - 2);
  if (free_b) return act::kRollFree + 12 * (b - 2);
  return act::kRollFail;
}

inline void Game::chance_outcomes(const State& s, ChanceList& out) const {
  out.clear();
  if (s.phase == Phase::kRoll) {
    int count[act::kNumDistinct - act::kRollFail] = {};
    for (int g = 1; g <= 6; ++g)
      for (int w1 = 1; w1 <= 6; ++w1)
        for (int w2 = 1; w2 <= 6; ++w2) ++count[roll_outcome(s.start_track, g + w1, g + w2) - act::kRollFail];
    for (int i = 0; i < act::kNumDistinct - act::kRollFail; ++i)
      if (count[i]) out.push_back({act::kRollFail + i, count[i] / 216.0});
  } else if (is_chance(s)) {
    int total = 0;
    for (int c = 0; c < kNumCards; ++c) total += s.unseen[c];
    for (int c = 0; c < kNumCards; ++c)
      if (s.unseen[c]) out.push_back({act::kDraw + c, static_cast<double>(s.unseen[c]) / total});
  }
}

inline Action Game::sample_chance(const State& s, Rng& rng) const {
  if (s.phase == Phase::kRoll) {
    const int g = 1 + rng.below(6);
    const int w1 = 1 + rng.below(6);
    const int w2 = 1 + rng.below(6);
    return roll_outcome(s.start_track, g + w1, g + w2);
  }
  int total = 0;
  for (int c = 0; c < kNumCards; ++c) total += s.unseen[c];
  int r = static_cast<int>(rng.below(static_cast<uint32_t>(total)));
  for (int c = 0; c < kNumCards; ++c) {
    r -= s.unseen[c];
    if (r < 0) return act::kDraw + c;
  }
  return act::kDraw + kNumCards - 1;  // unreachable for a valid state
}

inline Action Game::random_action(const State& s, Rng& rng) const {
  // Legal order: the lower space first (roll_a < roll_b), roll before stop.
  if (s.phase == Phase::kChooseSpace) return act::kSpace + (rng.below(2) ? s.roll_b : s.roll_a);
  if (s.phase == Phase::kRollOrStop) return rng.below(2) ? act::kStop : act::kRoll;  // a node: supply > 0
  if (s.phase == Phase::kTake) {
    return act::kTake + random_member(take_mask(s), rng);
  }
  if (s.phase == Phase::kPlace) {  // stores, then for a joker its second kind's stores and keep
    if (s.pending < kNumKinds) return act::kStore + random_member(store_mask(s, s.seat, s.pending), rng);
    const int type = s.pending - kNumKinds;
    const unsigned m0 = store_mask(s, s.seat, kJokerKinds[type][0]);
    const unsigned m1 = store_mask(s, s.seat, kJokerKinds[type][1]);
    const int n0 = popcount(m0), n1 = popcount(m1);
    const int r = static_cast<int>(rng.below(static_cast<uint32_t>(n0 + n1 + 1)));
    if (r < n0) return act::kJoker + 16 * type + nth_set_bit(m0, r);
    if (r < n0 + n1) return act::kJoker + 16 * type + 8 + nth_set_bit(m1, r - n0);
    return act::kKeep;
  }
  return random_action_by_listing(*this, s, rng);
}

// Whether any seat's 4-bit count in a board word reaches k (2, 3 or 4 here), all seats at once:
// a count >= 2 has a bit above bit 0, a count >= 4 one above bit 1, and 3 is 0b0011.
constexpr bool any_reaches(unsigned w, int k) {
  const unsigned high = w & (k == 2 ? 0xEEEEu : 0xCCCCu);
  const unsigned three = k == 3 ? (w & (w >> 1) & 0x1111u) : 0u;
  return (high | three) != 0;
}
static_assert([] {
  for (int k : kThreshold)
    if (k < 2 || k > 4) return false;
  return true;
}());

inline int Game::first_collector(const State& s, int space) const {
  if (!any_reaches(s.board[space], kThreshold[space])) return -1;  // the usual case
  for (int i = 0, p = s.active; i < s.num_players; ++i) {          // from the active seat, clockwise
    if (s.squirrels_at(space, p) >= kThreshold[space]) return p;
    if (++p == s.num_players) p = 0;
  }
  return -1;
}

// Collector p returns k squirrels; other seats with fewer than k there are pushed up (none from
// the 4-area); then the collector takes a card.
inline void Game::collect(State& s, int p, int space) const {
  const int k = kThreshold[space];
  s.set_squirrels(space, p, s.squirrels_at(space, p) - k);
  if (space != kFour) {
    for (int q = 0; q < s.num_players; ++q) {
      const int n = s.squirrels_at(space, q);
      if (q == p || n == 0 || n >= k) continue;
      s.set_squirrels(space, q, 0);
      s.set_squirrels(kPushTo[space], q, s.squirrels_at(kPushTo[space], q) + n);
    }
  }
  s.seat = static_cast<uint8_t>(p);
  s.steal_next = kRaccoon[space];
  s.phase = Phase::kTake;
}

inline void Game::take(State& s, int slot) const {
  s.pending = s.face_up[slot];
  s.face_up[slot] = kNone;
  if (s.draw_pile == 0 && !s.end_triggered) {  // the set-aside nuts become the draw pile
    s.end_triggered = 1;
    s.draw_pile = s.reserve;
    s.reserve = 0;
  }
  if (s.draw_pile > 0) {
    s.refill_slot = static_cast<uint8_t>(slot);
    s.phase = Phase::kRefill;
  } else {
    s.phase = Phase::kPlace;
  }
}

inline void Game::do_action(State& s, Action a) const {
  switch (s.phase) {
    case Phase::kDealFaceUp: {
      int slot = 0;
      while (s.face_up[slot] != kNone) ++slot;
      s.face_up[slot] = static_cast<uint8_t>(a - act::kDraw);
      --s.unseen[a - act::kDraw];
      if (slot == kNumSlots - 1) {
        s.seat = 0;
        s.phase = Phase::kDealStartNut;
      }
      break;
    }
    case Phase::kDealStartNut:
      --s.unseen[a - act::kDraw];
      s.pending = static_cast<uint8_t>(a - act::kDraw);
      s.phase = Phase::kPlace;
      break;
    case Phase::kPlace:
      if (a == act::kKeep) {
        ++s.kept[s.seat][s.pending - kNumKinds];
      } else if (a >= act::kJoker) {
        const int j = a - act::kJoker;
        add_nut(s, s.seat, j % 8, kJokerKinds[j / 16][(j / 8) % 2], true);
      } else {
        add_nut(s, s.seat, a - act::kStore, s.pending, false);
      }
      s.pending = kNone;
      s.phase = Phase::kAfterCard;
      break;
    case Phase::kPrePlace:
      if (a == act::kStop) {
        s.phase = Phase::kPrePlaceNext;
      } else {
        const int space = kPutSpaces[a - act::kPut];
        s.set_squirrels(space, s.seat, s.squirrels_at(space, s.seat) + 1);
        if (--s.pre_place_left == 0) s.phase = Phase::kPrePlaceNext;
      }
      break;
    case Phase::kRoll:
      if (a == act::kRollFail) {  // failed roll: the start track goes back to the supply
        s.start_track = 0;
        s.stage = Stage::kCheck;
        s.check_space = 0;
        s.phase = Phase::kCheckStep;
      } else {
        const int lo = 2 + (a - act::kRollFree) / 11;
        const int hi = 2 + (a - act::kRollFree) % 11;
        if (lo == hi) {
          s.start_track |= static_cast<uint16_t>(1u << (lo - 2));
          s.phase = Phase::kRollOrStop;
        } else {
          s.roll_a = static_cast<uint8_t>(lo);
          s.roll_b = static_cast<uint8_t>(hi);
          s.phase = Phase::kChooseSpace;
        }
      }
      break;
    case Phase::kChooseSpace:
      s.start_track |= static_cast<uint16_t>(1u << (a - act::kSpace - 2));
      s.roll_a = s.roll_b = kNone;
      s.phase = Phase::kRollOrStop;
      break;
    case Phase::kRollOrStop:
      if (a == act::kRoll) {
        s.phase = Phase::kRoll;
      } else {  // success: each start-track squirrel moves into the 2-area space above it
        for (unsigned t = s.start_track; t; t &= t - 1) {
          const int space = kAboveStart[__builtin_ctz(t)];
          s.set_squirrels(space, s.active, s.squirrels_at(space, s.active) + 1);
        }
        s.start_track = 0;
        s.stage = Stage::kCheck;
        s.check_space = 0;
        s.phase = Phase::kCheckStep;
      }
      break;
    case Phase::kTake:
      take(s, a - act::kTake);
      break;
    case Phase::kRefill:
      s.face_up[s.refill_slot] = static_cast<uint8_t>(a - act::kDraw);
      --s.unseen[a - act::kDraw];
      --s.draw_pile;
      s.refill_slot = kNone;
      s.phase = Phase::kPlace;
      break;
    case Phase::kSteal:
      s.steal_next = 0;
      if (a == act::kNoSteal) {
        s.phase = Phase::kCheckStep;
      } else {
        const int victim = (a - act::kSteal) / 8, st = (a - act::kSteal) % 8;
        const int kind = s.store_kind(victim, st), nuts = s.store_nuts(victim, st) - 1;
        s.set_store(victim, st, nuts ? kind : -1, nuts, s.store_joker_nuts(victim, st));
        s.david = static_cast<uint8_t>(victim);
        s.pending = static_cast<uint8_t>(kind);
        s.phase = Phase::kPlace;
      }
      break;
    case Phase::kKeptJokers:
    case Phase::kFinalJokers: {
      if (a == act::kDone) {
        s.phase = Phase::kNextTurn;
        break;
      }
      const int p = s.phase == Phase::kKeptJokers ? s.active : s.seat;
      const int j = a - act::kJoker;
      --s.kept[p][j / 16];
      add_nut(s, p, j % 8, kJokerKinds[j / 16][(j / 8) % 2], true);
      break;
    }
    default:
      break;
  }
}

// A decision node without any legal action: what happens instead.
inline void Game::no_legal_action(State& s) const {
  switch (s.phase) {
    case Phase::kPlace:  // a nut that fits no store is discarded
      s.pending = kNone;
      s.phase = Phase::kAfterCard;
      break;
    case Phase::kTake:  // every allowed slot is empty: no card
      s.phase = Phase::kAfterCard;
      break;
    case Phase::kFinalJokers:  // jokers that fit nowhere are discarded
      std::memset(s.kept[s.seat], 0, sizeof s.kept[s.seat]);
      s.phase = Phase::kFinalJokersNext;
      break;
    default:
      s.phase = Phase::kTerminal;  // unreachable: every other decision has a fallback action
      s.stage = Stage::kOver;
      break;
  }
}

// A decision whose actions are `base` + the set bits of `mask`: false where it is a choice (two or
// more), otherwise applies the one action or what happens without any, and returns true.
inline bool Game::settle_from_mask(State& s, unsigned mask, Action base) const {
  if (mask & (mask - 1)) return false;
  if (mask)
    do_action(s, base + __builtin_ctz(mask));
  else
    no_legal_action(s);
  return true;
}

// Runs the automatic steps (and forced decisions) until the state rests at a node with a choice,
// a chance node or the end.
inline void Game::run(State& s) const {
  const int n = s.num_players;
  for (;;) {
    switch (s.phase) {
      case Phase::kDealFaceUp:
      case Phase::kDealStartNut:
      case Phase::kRoll:
      case Phase::kRefill:
      case Phase::kTerminal:
        return;
      case Phase::kChooseSpace:  // two different spaces: always a choice
        return;
      case Phase::kRollOrStop:  // roll and stop, or stop alone when the supply is empty
        if (supply(s, s.active) > 0) return;
        do_action(s, act::kStop);
        break;
      case Phase::kPlace:  // the commonest of these: counted from the store masks, not listed
        if (s.pending < kNumKinds) {
          if (!settle_from_mask(s, store_mask(s, s.seat, s.pending), act::kStore)) return;
        } else {
          const int type = s.pending - kNumKinds;
          if (store_mask(s, s.seat, kJokerKinds[type][0]) | store_mask(s, s.seat, kJokerKinds[type][1])) return;
          do_action(s, act::kKeep);
        }
        break;
      case Phase::kTake:
        if (!settle_from_mask(s, take_mask(s), act::kTake)) return;
        break;
      case Phase::kKeptJokers: {  // usually none kept: done is the only action
        bool any = false;
        for (int t = 0; t < kNumJokerTypes; ++t) any |= s.kept[s.active][t] != 0;
        if (!any) {
          do_action(s, act::kDone);
          break;
        }
        [[fallthrough]];
      }
      case Phase::kPrePlace:
      case Phase::kSteal:
      case Phase::kFinalJokers: {
        ActionList legal;
        legal_actions(s, legal);
        if (legal.size() >= 2) return;
        if (legal.size() == 1)
          do_action(s, legal[0]);
        else
          no_legal_action(s);
        break;
      }
      case Phase::kAfterCard:
        if (s.stage == Stage::kSetup) {
          if (++s.seat < n) {
            s.phase = Phase::kDealStartNut;
          } else {
            s.seat = 1;
            s.pre_place_left = 1;
            s.phase = Phase::kPrePlace;
          }
        } else if (s.stage == Stage::kCheck) {
          s.phase = s.steal_next ? Phase::kSteal : Phase::kCheckStep;
        } else {
          s.phase = Phase::kFinalStep;
        }
        break;
      case Phase::kPrePlaceNext:
        if (++s.seat < n) {
          s.pre_place_left = s.seat;
          s.phase = Phase::kPrePlace;
        } else {
          s.seat = kNone;
          s.pre_place_left = 0;
          s.stage = Stage::kTurn;
          s.active = 0;
          s.phase = supply(s, 0) > 0 ? Phase::kRoll : Phase::kRollOrStop;
        }
        break;
      case Phase::kCheckStep: {
        int p = -1, space = s.check_space;
        while (space < kNumSpaces && (p = first_collector(s, space)) < 0) ++space;
        s.check_space = static_cast<uint8_t>(space);
        if (p >= 0) {
          collect(s, p, space);
        } else {
          s.check_space = kNone;
          s.seat = kNone;
          s.phase = s.end_triggered ? Phase::kFinalBegin : Phase::kTurnEnd;
        }
        break;
      }
      case Phase::kTurnEnd:
        s.stage = Stage::kTurn;
        s.phase = Phase::kKeptJokers;
        break;
      case Phase::kNextTurn:
        if (++s.turn >= params_.turn_cap) {
          s.stage = Stage::kOver;
          s.phase = Phase::kTerminal;
          return;
        }
        s.active = static_cast<uint8_t>(next_seat(s.active, n));
        s.phase = supply(s, s.active) > 0 ? Phase::kRoll : Phase::kRollOrStop;
        break;
      case Phase::kFinalBegin:  // every squirrel on the board goes into the 4-area
        s.stage = Stage::kFinal;
        for (int p = 0; p < n; ++p) {
          int total = 0;
          for (int sp = 0; sp < kNumSpaces; ++sp) total += s.squirrels_at(sp, p);
          for (int sp = 0; sp < kFour; ++sp) s.set_squirrels(sp, p, 0);
          s.set_squirrels(kFour, p, total);
        }
        s.seat = s.active;
        s.phase = Phase::kFinalStep;
        break;
      case Phase::kFinalStep:
        if (s.squirrels_at(kFour, s.seat) >= 4) {
          s.set_squirrels(kFour, s.seat, s.squirrels_at(kFour, s.seat) - 4);
          s.phase = Phase::kTake;
        } else if (next_seat(s.seat, n) == s.active) {
          s.seat = s.active;
          s.phase = Phase::kFinalJokers;
        } else {
          s.seat = static_cast<uint8_t>(next_seat(s.seat, n));
        }
        break;
      case Phase::kFinalJokersNext:
        if (next_seat(s.seat, n) == s.active) {
          s.seat = kNone;
          s.stage = Stage::kOver;
          s.phase = Phase::kTerminal;
          return;
        }
        s.seat = static_cast<uint8_t>(next_seat(s.seat, n));
        s.phase = Phase::kFinalJokers;
        break;
    }
  }
}

inline void Game::apply(State& s, Action a) const {
  do_action(s, a);
  run(s);
}

inline void Game::scores(const State& s, int* out) const {
  for (int p = 0; p < s.num_players; ++p) {
    int points = 0;
    for (int st = 0; st < kNumStores; ++st) {
      const int nuts = s.store_nuts(p, st);
      points += nuts == capacity(st) ? params_.store_values[st] : nuts;
    }
    out[p] = points;
  }
}

inline void Game::returns(const State& s, double* out) const {
  const int n = s.num_players;
  for (int p = 0; p < n; ++p) out[p] = 0.0;
  if (!is_terminal(s)) return;
  int points[kMaxPlayers], best_store[kMaxPlayers];
  scores(s, points);
  for (int p = 0; p < n; ++p) {
    best_store[p] = 0;
    for (int st = 0; st < kNumStores; ++st)
      if (s.store_nuts(p, st) == capacity(st) && params_.store_values[st] > best_store[p])
        best_store[p] = params_.store_values[st];
  }
  // Most points wins; the tie-break is the most valuable full store; remaining ties share.
  int winners = 0;
  bool win[kMaxPlayers] = {};
  for (int p = 0; p < n; ++p) {
    bool beaten = false;
    for (int q = 0; q < n; ++q)
      if (points[q] > points[p] || (points[q] == points[p] && best_store[q] > best_store[p])) beaten = true;
    win[p] = !beaten;
    winners += win[p];
  }
  for (int p = 0; p < n; ++p)
    if (win[p]) out[p] = 1.0 / winners;
}

}  // namespace nutcore::auf_die_nuesse

// The heuristics come with the rules: every unit that sees the game sees the same optional hooks
// (found by argument-dependent lookup, core/game_concept.h), so searches are the same everywhere.
#include "games/auf_die_nuesse/heuristic.h"
#include "games/auf_die_nuesse/turn_solver.h"  // the solver the declaration offers
