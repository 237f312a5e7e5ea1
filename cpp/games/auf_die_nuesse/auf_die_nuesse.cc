// Auf die Nüsse!: the cold path. Parameters, action strings, canonical JSON, binary encoding,
// validation of positions from outside, and the readable board.
#include "games/auf_die_nuesse/auf_die_nuesse.h"

#include <algorithm>
#include <cassert>
#include <sstream>
#include <stdexcept>

#include "core/state_bytes.h"
#include "core/tensor_writer.h"

namespace nutcore::auf_die_nuesse {

namespace {

const char* const kCardNames[kNumCards] = {"walnut",          "hazelnut",        "beechnut",     "acorn",
                                           "walnut/hazelnut", "walnut/beechnut", "walnut/acorn", "hazelnut/beechnut",
                                           "hazelnut/acorn",  "beechnut/acorn"};
const char* const kSpaceNames[kNumSpaces] = {"A", "B", "R", "D", "E", "L", "R3", "Rt", "4"};
const char* const kStageNames[] = {"setup", "turn", "check", "final", "over"};
const char* const kPhaseNames[kNumNodePhases] = {"deal_face_up", "deal_start_nut", "place",   "pre_place", "roll",
                                                 "choose_space", "roll_or_stop",   "take",    "refill",    "steal",
                                                 "kept_jokers",  "final_jokers",   "terminal"};

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

bool is_node_phase(Phase p) { return static_cast<int>(p) < kNumNodePhases; }

void check_range(const std::string& name, int value, int lo, int hi) {
  if (value < lo || value > hi)
    fail("auf_die_nuesse: parameter " + name + " = " + std::to_string(value) + " is outside " + std::to_string(lo) +
         ".." + std::to_string(hi));
}

}  // namespace

Game::Game(const Params& params) : params_(params) {
  const Params& p = params_;
  check_range("players", p.players, 2, kMaxPlayers);
  check_range("turn_cap", p.turn_cap, 1, 65535);
  check_range("squirrels", p.squirrels, 1, 15);
  check_range("reserve", p.reserve, 0, 40);
  check_range("nuts_per_kind", p.nuts_per_kind, 1, 40);
  check_range("jokers_per_pair", p.jokers_per_pair, 0, 10);
  check_range("removed_per_kind_2p", p.removed_per_kind_2p, 0, p.nuts_per_kind);
  check_range("removed_per_kind_3p", p.removed_per_kind_3p, 0, p.nuts_per_kind);
  for (int s = 0; s < kNumStores; ++s) {
    check_range("store_capacities[" + std::to_string(s) + "]", p.store_capacities[s], 1, 7);
    check_range("store_values[" + std::to_string(s) + "]", p.store_values[s], 0, 1000);
  }
  const int removed = p.players == 2 ? p.removed_per_kind_2p : p.players == 3 ? p.removed_per_kind_3p : 0;
  deck_size_ = 0;
  for (int c = 0; c < kNumCards; ++c) {
    deck_[c] = c < kNumKinds ? p.nuts_per_kind - removed : p.jokers_per_pair;
    deck_size_ += deck_[c];
  }
  if (deck_size_ < kNumSlots + p.players + p.reserve)
    fail("auf_die_nuesse: the deck of " + std::to_string(deck_size_) + " cards cannot supply 4 face-up nuts, " +
         std::to_string(p.players) + " start nuts and a reserve of " + std::to_string(p.reserve));
  for (int s = 0; s < kNumStores; ++s) {
    twin_before_[s] = 0;
    for (int t = 0; t < s; ++t)
      if (p.store_capacities[t] == p.store_capacities[s] && p.store_values[t] == p.store_values[s])
        twin_before_[s] |= static_cast<uint8_t>(1u << t);
    if (twin_before_[s]) has_twin_before_ |= 1u << s;
    full_bytes_ |= uint64_t(p.store_capacities[s] << 3) << (8 * s);
  }
}

Params Game::params_from_json(const Json& j) {
  Params p;
  for (const auto& item : j.items("auf_die_nuesse parameters")) {
    // Not a structured binding: the lambdas below capture these, which clang < 16 cannot.
    const std::string& key = item.first;
    const Json& value = item.second;
    auto as_int = [&](int& field) {
      const int64_t v = value.as_int("parameter " + key);
      if (v < -1000000 || v > 1000000) fail("parameter " + key + " is out of range");
      field = static_cast<int>(v);
    };
    auto as_list = [&](std::array<int, kNumStores>& field) {
      const auto& list = value.as_array("parameter " + key);
      if (list.size() != kNumStores) fail("parameter " + key + " needs exactly 8 entries");
      for (int i = 0; i < kNumStores; ++i) {
        const int64_t v = list[i].as_int("parameter " + key);
        if (v < -1000000 || v > 1000000) fail("parameter " + key + " is out of range");
        field[i] = static_cast<int>(v);
      }
    };
    if (key == "players")
      as_int(p.players);
    else if (key == "turn_cap")
      as_int(p.turn_cap);
    else if (key == "squirrels")
      as_int(p.squirrels);
    else if (key == "reserve")
      as_int(p.reserve);
    else if (key == "nuts_per_kind")
      as_int(p.nuts_per_kind);
    else if (key == "jokers_per_pair")
      as_int(p.jokers_per_pair);
    else if (key == "removed_per_kind_2p")
      as_int(p.removed_per_kind_2p);
    else if (key == "removed_per_kind_3p")
      as_int(p.removed_per_kind_3p);
    else if (key == "store_capacities")
      as_list(p.store_capacities);
    else if (key == "store_values")
      as_list(p.store_values);
    else
      fail("auf_die_nuesse has no parameter \"" + key + "\"");
  }
  return p;
}

Json Game::params_json() const {
  Json j = Json::object();
  j.set("players", Json::integer(params_.players));
  j.set("turn_cap", Json::integer(params_.turn_cap));
  j.set("squirrels", Json::integer(params_.squirrels));
  j.set("reserve", Json::integer(params_.reserve));
  j.set("nuts_per_kind", Json::integer(params_.nuts_per_kind));
  j.set("jokers_per_pair", Json::integer(params_.jokers_per_pair));
  j.set("removed_per_kind_2p", Json::integer(params_.removed_per_kind_2p));
  j.set("removed_per_kind_3p", Json::integer(params_.removed_per_kind_3p));
  Json caps = Json::array(), values = Json::array();
  for (int s = 0; s < kNumStores; ++s) {
    caps.push(Json::integer(params_.store_capacities[s]));
    values.push(Json::integer(params_.store_values[s]));
  }
  j.set("store_capacities", caps);
  j.set("store_values", values);
  return j;
}

State Game::new_initial_state() const {
  State s;
  std::memset(&s, 0, sizeof s);
  s.num_players = static_cast<uint8_t>(params_.players);
  for (int c = 0; c < kNumCards; ++c) s.unseen[c] = static_cast<uint8_t>(deck_[c]);
  std::memset(s.face_up, kNone, sizeof s.face_up);
  s.draw_pile = static_cast<uint8_t>(deck_size_ - kNumSlots - params_.players - params_.reserve);
  s.reserve = static_cast<uint8_t>(params_.reserve);
  s.stage = Stage::kSetup;
  s.phase = Phase::kDealFaceUp;
  s.seat = s.check_space = s.pending = s.refill_slot = s.roll_a = s.roll_b = s.david = kNone;
  return s;
}

// ---------------------------------------------------------------------------------------------
// Action strings.

std::string Game::action_to_string(Action a) {
  using namespace act;
  if (a < 0 || a >= kNumDistinct) return "action " + std::to_string(a) + " (out of range)";
  if (a == kRoll) return "roll";
  if (a == kStop) return "stop";
  if (a < kTake) return "space " + std::to_string(a);
  if (a < kStore) return "take slot " + std::to_string(a - kTake);
  if (a < kJoker) return "store " + std::to_string(a - kStore);
  if (a < kKeep) {
    const int j = a - kJoker, type = j / 16, which = (j / 8) % 2;
    return std::string("joker ") + kCardNames[kNumKinds + type] + " as " + kCardNames[kJokerKinds[type][which]] +
           " store " + std::to_string(j % 8);
  }
  if (a == kKeep) return "keep joker";
  if (a < kNoSteal)
    return "steal seat " + std::to_string((a - kSteal) / 8) + " store " + std::to_string((a - kSteal) % 8);
  if (a == kNoSteal) return "no steal";
  if (a == kDone) return "done";
  if (a < kDraw) return std::string("put ") + kSpaceNames[kPutSpaces[a - kPut]];
  if (a < kRollFail) return std::string("draw ") + kCardNames[a - kDraw];
  if (a == kRollFail) return "roll fail";
  const int lo = 2 + (a - kRollFree) / 11, hi = 2 + (a - kRollFree) % 11;
  if (lo == hi) return "roll " + std::to_string(lo);
  return "roll " + std::to_string(lo) + " or " + std::to_string(hi);
}

Action Game::string_to_action(const std::string& text) {
  // The strings are few; matching against all of them keeps parsing and printing in one place.
  static const std::vector<std::string> all = [] {
    std::vector<std::string> v;
    for (Action a = 0; a < act::kNumDistinct; ++a) v.push_back(action_to_string(a));
    return v;
  }();
  for (Action a = 0; a < act::kNumDistinct; ++a)
    if (all[a] == text) return a;
  fail("auf_die_nuesse: no action is called \"" + text + "\"");
}

// ---------------------------------------------------------------------------------------------
// Canonical JSON.

namespace {

Json seat_or_null(uint8_t v) { return v == kNone ? Json::null() : Json::integer(v); }
Json card_or_null(uint8_t v) { return v == kNone ? Json::null() : Json::string(kCardNames[v]); }

}  // namespace

void Game::observation_tensor(const State& s, int player, float* out) const {
  const int n = s.num_players;
  TensorWriter w(out, observation_tensor_size());
  w.one_hot(player, n);
  w.one_hot(current_player(s), n);
  w.one_hot(static_cast<int>(s.stage), 5);
  w.one_hot(static_cast<int>(s.phase), kNumNodePhases);
  w.value(s.turn);
  w.one_hot(s.active, n);
  w.one_hot(s.seat, n);
  w.one_hot(s.check_space, kNumSpaces);
  w.one_hot(s.pending, kNumCards);
  w.value(s.steal_next);
  w.one_hot(s.refill_slot, kNumSlots);
  w.one_hot(s.roll_a == kNone ? -1 : s.roll_a - 2, 11);
  w.one_hot(s.roll_b == kNone ? -1 : s.roll_b - 2, 11);
  w.value(s.pre_place_left);
  for (int sp = 2; sp <= 12; ++sp) w.value(s.start_track >> (sp - 2) & 1);
  for (int sp = 0; sp < kNumSpaces; ++sp)
    for (int p = 0; p < n; ++p) w.value(s.squirrels_at(sp, p));
  for (int p = 0; p < n; ++p) w.value(supply(s, p));
  for (int p = 0; p < n; ++p)
    for (int st = 0; st < kNumStores; ++st) {
      w.one_hot(s.store_kind(p, st), kNumKinds);
      w.value(s.store_nuts(p, st));
      w.value(s.store_joker_nuts(p, st));
    }
  for (int p = 0; p < n; ++p)
    for (int t = 0; t < kNumJokerTypes; ++t) w.value(s.kept[p][t]);
  for (int c = 0; c < kNumCards; ++c) w.value(s.unseen[c]);
  for (int slot = 0; slot < kNumSlots; ++slot)
    w.one_hot(s.face_up[slot] == kNone ? kNumCards : s.face_up[slot], kNumCards + 1);
  w.value(s.draw_pile);
  w.value(s.reserve);
  w.one_hot(s.david, n);
  w.value(s.end_triggered);
  assert(w.full());
}

Json Game::to_json(const State& s) const {
  const int n = s.num_players;
  Json j = Json::object();
  j.set("game", Json::string(kName));
  j.set("players", Json::integer(n));
  j.set("stage", Json::string(kStageNames[static_cast<int>(s.stage)]));
  j.set("phase", Json::string(kPhaseNames[static_cast<int>(s.phase)]));
  j.set("current_player", Json::integer(current_player(s)));
  j.set("active", Json::integer(s.active));
  j.set("turn", Json::integer(s.turn));
  j.set("seat", seat_or_null(s.seat));
  j.set("check_space", s.check_space == kNone ? Json::null() : Json::string(kSpaceNames[s.check_space]));
  j.set("pending", card_or_null(s.pending));
  j.set("steal_next", Json::boolean(s.steal_next));
  j.set("refill_slot", seat_or_null(s.refill_slot));
  if (s.roll_a == kNone) {
    j.set("roll_choice", Json::null());
  } else {
    Json choice = Json::array();
    choice.push(Json::integer(s.roll_a));
    choice.push(Json::integer(s.roll_b));
    j.set("roll_choice", choice);
  }
  j.set("pre_place_left", Json::integer(s.pre_place_left));
  Json track = Json::array();
  for (int sp = 2; sp <= 12; ++sp)
    if (s.start_track >> (sp - 2) & 1) track.push(Json::integer(sp));
  j.set("start_track", track);
  Json board = Json::object();
  for (int sp = 0; sp < kNumSpaces; ++sp) {
    Json counts = Json::array();
    for (int p = 0; p < n; ++p) counts.push(Json::integer(s.squirrels_at(sp, p)));
    board.set(kSpaceNames[sp], counts);
  }
  j.set("board", board);
  Json supplies = Json::array();
  for (int p = 0; p < n; ++p) supplies.push(Json::integer(supply(s, p)));
  j.set("supply", supplies);
  Json stores = Json::array();
  for (int p = 0; p < n; ++p) {
    Json row = Json::array();
    for (int st = 0; st < kNumStores; ++st) {
      Json store = Json::object();
      const int kind = s.store_kind(p, st);
      store.set("kind", kind < 0 ? Json::null() : Json::string(kCardNames[kind]));
      store.set("nuts", Json::integer(s.store_nuts(p, st)));
      store.set("jokers", Json::integer(s.store_joker_nuts(p, st)));
      row.push(store);
    }
    stores.push(row);
  }
  j.set("stores", stores);
  Json kept = Json::array();
  for (int p = 0; p < n; ++p) {
    Json row = Json::object();
    for (int t = 0; t < kNumJokerTypes; ++t) row.set(kCardNames[kNumKinds + t], Json::integer(s.kept[p][t]));
    kept.push(row);
  }
  j.set("kept_jokers", kept);
  Json face_up = Json::array();
  for (int i = 0; i < kNumSlots; ++i) face_up.push(card_or_null(s.face_up[i]));
  j.set("face_up", face_up);
  Json unseen = Json::object();
  for (int c = 0; c < kNumCards; ++c) unseen.set(kCardNames[c], Json::integer(s.unseen[c]));
  j.set("unseen", unseen);
  j.set("draw_pile", Json::integer(s.draw_pile));
  j.set("reserve", Json::integer(s.reserve));
  j.set("end_triggered", Json::boolean(s.end_triggered));
  j.set("david", seat_or_null(s.david));
  return j;
}

namespace {

uint8_t read_seat_or_null(const Json& v, const std::string& what, int n) {
  return v.is_null() ? kNone : static_cast<uint8_t>(json_int_in(v, what, 0, n - 1));
}
uint8_t read_card_or_null(const Json& v, const std::string& what) {
  return v.is_null() ? kNone : static_cast<uint8_t>(name_index(kCardNames, kNumCards, v.as_string(what), what));
}
const std::vector<Json>& read_list(const Json& v, const std::string& what, size_t size) {
  const auto& list = v.as_array(what);
  if (list.size() != size)
    fail(what + ": expected " + std::to_string(size) + " entries, got " + std::to_string(list.size()));
  return list;
}

}  // namespace

State Game::from_json(const Json& j) const {
  State s;
  std::memset(&s, 0, sizeof s);
  JsonObjectReader r(j, "auf_die_nuesse state");
  if (r.get("game").as_string("game") != kName) fail("game: expected \"auf_die_nuesse\"");
  const int n = json_int_in(r.get("players"), "players", 2, 4);
  if (n != params_.players)
    fail("players: the state has " + std::to_string(n) + " players, the game " + std::to_string(params_.players));
  s.num_players = static_cast<uint8_t>(n);
  s.stage = static_cast<Stage>(name_index(kStageNames, 5, r.get("stage").as_string("stage"), "stage"));
  s.phase = static_cast<Phase>(name_index(kPhaseNames, kNumNodePhases, r.get("phase").as_string("phase"), "phase"));
  const int claimed_player = json_int_in(r.get("current_player"), "current_player", -4, n - 1);
  s.active = static_cast<uint8_t>(json_int_in(r.get("active"), "active", 0, n - 1));
  s.turn = static_cast<uint16_t>(json_int_in(r.get("turn"), "turn", 0, params_.turn_cap));
  s.seat = read_seat_or_null(r.get("seat"), "seat", n);
  const Json& check_space = r.get("check_space");
  s.check_space = check_space.is_null()
                      ? kNone
                      : static_cast<uint8_t>(
                            name_index(kSpaceNames, kNumSpaces, check_space.as_string("check_space"), "check_space"));
  s.pending = read_card_or_null(r.get("pending"), "pending");
  s.steal_next = r.get("steal_next").as_bool("steal_next");
  s.refill_slot = r.get("refill_slot").is_null()
                      ? kNone
                      : static_cast<uint8_t>(json_int_in(r.get("refill_slot"), "refill_slot", 0, 3));
  const Json& choice = r.get("roll_choice");
  s.roll_a = s.roll_b = kNone;
  if (!choice.is_null()) {
    const auto& ab = read_list(choice, "roll_choice", 2);
    s.roll_a = static_cast<uint8_t>(json_int_in(ab[0], "roll_choice[0]", 2, 12));
    s.roll_b = static_cast<uint8_t>(json_int_in(ab[1], "roll_choice[1]", 2, 12));
  }
  s.pre_place_left = static_cast<uint8_t>(json_int_in(r.get("pre_place_left"), "pre_place_left", 0, 3));
  int previous = 1;
  for (const Json& v : r.get("start_track").as_array("start_track")) {
    const int sp = json_int_in(v, "start_track entry", 2, 12);
    if (sp <= previous) fail("start_track: spaces must be ascending and distinct");
    previous = sp;
    s.start_track |= static_cast<uint16_t>(1u << (sp - 2));
  }
  {
    JsonObjectReader board(r.get("board"), "board");
    for (int sp = 0; sp < kNumSpaces; ++sp) {
      const std::string what = std::string("board.") + kSpaceNames[sp];
      const auto& counts = read_list(board.get(kSpaceNames[sp]), what, n);
      for (int p = 0; p < n; ++p) s.set_squirrels(sp, p, json_int_in(counts[p], what, 0, params_.squirrels));
    }
    board.finish();
  }
  const auto& supplies = read_list(r.get("supply"), "supply", n);
  const auto& stores = read_list(r.get("stores"), "stores", n);
  for (int p = 0; p < n; ++p) {
    const auto& row = read_list(stores[p], "stores[" + std::to_string(p) + "]", kNumStores);
    for (int st = 0; st < kNumStores; ++st) {
      const std::string what = "stores[" + std::to_string(p) + "][" + std::to_string(st) + "]";
      JsonObjectReader store(row[st], what);
      const Json& kind_json = store.get("kind");
      const int kind = kind_json.is_null()
                           ? -1
                           : name_index(kCardNames, kNumKinds, kind_json.as_string(what + ".kind"), what + ".kind");
      const int nuts = json_int_in(store.get("nuts"), what + ".nuts", 0, capacity(st));
      const int jokers = json_int_in(store.get("jokers"), what + ".jokers", 0, nuts);
      store.finish();
      s.set_store(p, st, kind, nuts, jokers);
    }
  }
  const auto& kept = read_list(r.get("kept_jokers"), "kept_jokers", n);
  for (int p = 0; p < n; ++p) {
    JsonObjectReader row(kept[p], "kept_jokers[" + std::to_string(p) + "]");
    for (int t = 0; t < kNumJokerTypes; ++t)
      s.kept[p][t] =
          static_cast<uint8_t>(json_int_in(row.get(kCardNames[kNumKinds + t]), "kept_jokers", 0, deck_[kNumKinds + t]));
    row.finish();
  }
  const auto& face_up = read_list(r.get("face_up"), "face_up", kNumSlots);
  for (int i = 0; i < kNumSlots; ++i) s.face_up[i] = read_card_or_null(face_up[i], "face_up");
  {
    JsonObjectReader unseen(r.get("unseen"), "unseen");
    for (int c = 0; c < kNumCards; ++c)
      s.unseen[c] = static_cast<uint8_t>(
          json_int_in(unseen.get(kCardNames[c]), std::string("unseen.") + kCardNames[c], 0, deck_[c]));
    unseen.finish();
  }
  s.draw_pile = static_cast<uint8_t>(json_int_in(r.get("draw_pile"), "draw_pile", 0, deck_size_));
  s.reserve = static_cast<uint8_t>(json_int_in(r.get("reserve"), "reserve", 0, params_.reserve));
  s.end_triggered = r.get("end_triggered").as_bool("end_triggered");
  s.david = read_seat_or_null(r.get("david"), "david", n);
  r.finish();

  validate(s);
  if (claimed_player != current_player(s))
    fail("current_player: " + std::to_string(claimed_player) + " does not match the phase (it is " +
         std::to_string(current_player(s)) + ")");
  for (int p = 0; p < n; ++p)
    if (supplies[p].as_int("supply") != supply(s, p))
      fail("supply[" + std::to_string(p) + "] does not match squirrels minus those on the board and start track");
  run(s);
  return s;
}

// ---------------------------------------------------------------------------------------------
// Validation: everything a position from outside must satisfy before the hot rules may run on it.

void Game::validate(const State& s) const {
  const int n = s.num_players;
  require_players(s);  // require() and this: core/game_defaults.h
  require(static_cast<int>(s.stage) <= static_cast<int>(Stage::kOver), "bad stage");
  require(is_node_phase(s.phase), "bad phase");
  const Phase ph = s.phase;
  const Stage st = s.stage;
  auto phase_in = [&](std::initializer_list<Phase> phases) {
    return std::find(phases.begin(), phases.end(), ph) != phases.end();
  };
  switch (st) {
    case Stage::kSetup:
      require(phase_in({Phase::kDealFaceUp, Phase::kDealStartNut, Phase::kPlace, Phase::kPrePlace}),
              "phase does not belong to stage setup");
      break;
    case Stage::kTurn:
      require(phase_in({Phase::kRoll, Phase::kChooseSpace, Phase::kRollOrStop, Phase::kKeptJokers}),
              "phase does not belong to stage turn");
      break;
    case Stage::kCheck:
      require(phase_in({Phase::kTake, Phase::kRefill, Phase::kPlace, Phase::kSteal}),
              "phase does not belong to stage check");
      break;
    case Stage::kFinal:
      require(phase_in({Phase::kTake, Phase::kRefill, Phase::kPlace, Phase::kFinalJokers}),
              "phase does not belong to stage final");
      break;
    case Stage::kOver:
      require(ph == Phase::kTerminal, "stage over needs phase terminal");
      break;
  }
  require(s.active < n, "active seat out of range");
  require(st != Stage::kSetup || s.active == 0, "seat 0 is active during set-up");
  require(s.turn <= params_.turn_cap && (s.turn < params_.turn_cap || st == Stage::kOver), "turn counter past the cap");
  require(st == Stage::kSetup || st == Stage::kOver || s.turn < params_.turn_cap, "turn counter past the cap");

  const bool needs_seat = st == Stage::kCheck || st == Stage::kFinal || ph == Phase::kDealStartNut ||
                          ph == Phase::kPrePlace || (st == Stage::kSetup && ph == Phase::kPlace);
  require(needs_seat ? s.seat < n : s.seat == kNone,
          needs_seat ? "seat missing or out of range" : "seat must be null in this phase");
  require(st == Stage::kCheck ? s.check_space < kNumSpaces : s.check_space == kNone,
          "check_space is set exactly in stage check");
  const bool card_pending = ph == Phase::kPlace || (ph == Phase::kRefill);
  require(card_pending ? s.pending < kNumCards : s.pending == kNone,
          "pending card is set exactly in phases place and refill");
  require(s.steal_next <= 1 && s.end_triggered <= 1, "bad flag");
  require(!s.steal_next || (st == Stage::kCheck && (s.check_space == kR || s.check_space == kR3)),
          "steal_next only during a raccoon collection");
  require(ph != Phase::kSteal || s.steal_next, "phase steal needs steal_next");
  require(ph == Phase::kRefill ? s.refill_slot < kNumSlots : s.refill_slot == kNone,
          "refill_slot is set exactly in phase refill");
  if (ph == Phase::kChooseSpace) {
    require(s.roll_a >= 2 && s.roll_a < s.roll_b && s.roll_b <= 12 && s.roll_b - s.roll_a <= 5,
            "roll_choice must be two spaces a < b, at most 5 apart");
    require(!(s.start_track >> (s.roll_a - 2) & 1) && !(s.start_track >> (s.roll_b - 2) & 1),
            "roll_choice spaces must be free");
  } else {
    require(s.roll_a == kNone && s.roll_b == kNone, "roll_choice is set only in phase choose_space");
  }
  require(ph == Phase::kPrePlace ? (s.pre_place_left >= 1 && s.seat >= 1 && s.pre_place_left <= s.seat)
                                 : s.pre_place_left == 0,
          "pre_place_left must be 1..seat in phase pre_place and 0 elsewhere");
  require(s.david == kNone || s.david < n, "david out of range");

  // Squirrels.
  require((s.start_track >> 11) == 0, "start track bits beyond space 12");
  require(s.start_track == 0 || phase_in({Phase::kRoll, Phase::kChooseSpace, Phase::kRollOrStop}),
          "start track must be empty outside the rolling part of a turn");
  for (int p = 0; p < kMaxPlayers; ++p)
    for (int sp = 0; sp < kNumSpaces; ++sp)
      require(p < n || s.squirrels_at(sp, p) == 0, "squirrels for a seat that does not play");
  for (int p = 0; p < n; ++p)
    if (supply(s, p) < 0)
      fail("inconsistent auf_die_nuesse state: seat " + std::to_string(p) + " has more than " +
           std::to_string(params_.squirrels) + " squirrels out");
  require(ph != Phase::kRoll || supply(s, s.active) > 0, "phase roll needs a squirrel in the supply");
  require(ph != Phase::kChooseSpace || supply(s, s.active) > 0, "phase choose_space needs a squirrel in the supply");
  if (st == Stage::kSetup) {
    for (int sp = 0; sp < kNumSpaces; ++sp)
      for (int p = 0; p < n; ++p) {
        const int c = s.squirrels_at(sp, p);
        require(c <= 1 && (c == 0 || sp == kA || sp == kB || sp == kD || sp == kE),
                "set-up squirrels only one per 2-area space, never on R");
      }
  }
  if (st == Stage::kFinal)
    for (int sp = 0; sp < kFour; ++sp) require(s.board[sp] == 0, "in stage final every squirrel is in the 4-area");
  // Outside a collection check every space has been checked: nobody has enough to collect there.
  // During a check, that holds for the spaces already checked (pushes only go upwards).
  if (st == Stage::kSetup || st == Stage::kTurn || st == Stage::kCheck) {
    const int checked = st == Stage::kCheck ? s.check_space : kNumSpaces;
    for (int sp = 0; sp < checked; ++sp)
      for (int p = 0; p < n; ++p)
        if (s.squirrels_at(sp, p) >= kThreshold[sp])
          fail("inconsistent auf_die_nuesse state: seat " + std::to_string(p) + " has " +
               std::to_string(s.squirrels_at(sp, p)) + " squirrels in " + kSpaceNames[sp] +
               ", which the collection check would have collected");
  }

  // Stores and jokers.
  for (int p = 0; p < kMaxPlayers; ++p)
    for (int t = 0; t < kNumJokerTypes; ++t)
      require(p < n || s.kept[p][t] == 0, "kept jokers for a seat that does not play");
  for (int p = 0; p < kMaxPlayers; ++p) {
    for (int sto = 0; sto < kNumStores; ++sto) {
      const int raw_kind = s.store[p][sto] & 7, nuts = s.store_nuts(p, sto), jokers = s.store_joker_nuts(p, sto);
      if (p >= n) {
        require(s.store[p][sto] == 0 && jokers == 0, "stores for a seat that does not play");
        continue;
      }
      require((s.store[p][sto] >> 6) == 0 && raw_kind <= kNumKinds, "bad store encoding");
      require(nuts <= capacity(sto), "a store holds more nuts than its capacity");
      require(jokers <= nuts, "a store holds more joker nuts than nuts");
      if (nuts == 0 || nuts == capacity(sto))
        require(raw_kind == 0 && jokers == 0, "an empty or full store has no kind and no joker count");
      else
        require(raw_kind != 0, "a partly filled store needs a kind");
    }
  }

  // Cards: nothing may exceed the deck.
  int kind_count[kNumCards] = {};
  for (int c = 0; c < kNumCards; ++c) kind_count[c] = s.unseen[c];
  for (int i = 0; i < kNumSlots; ++i) {
    require(s.face_up[i] == kNone || s.face_up[i] < kNumCards, "bad face-up card");
    if (s.face_up[i] != kNone) ++kind_count[s.face_up[i]];
  }
  if (s.pending != kNone) ++kind_count[s.pending];
  int store_jokers = 0;
  for (int p = 0; p < n; ++p) {
    for (int t = 0; t < kNumJokerTypes; ++t) kind_count[kNumKinds + t] += s.kept[p][t];
    for (int sto = 0; sto < kNumStores; ++sto) {
      if (s.store_kind(p, sto) >= 0)
        kind_count[s.store_kind(p, sto)] += s.store_nuts(p, sto) - s.store_joker_nuts(p, sto);
      store_jokers += s.store_joker_nuts(p, sto);
    }
  }
  int all_jokers = store_jokers;
  for (int c = 0; c < kNumCards; ++c) {
    if (kind_count[c] > deck_[c])
      fail(std::string("inconsistent auf_die_nuesse state: more ") + kCardNames[c] +
           " cards in play than the deck holds");
    if (c >= kNumKinds) all_jokers += kind_count[c];
  }
  require(all_jokers <= kNumJokerTypes * params_.jokers_per_pair, "more jokers in play than the deck holds");
  // Every nut in a store, full ones included, was a card of the deck (a stolen nut moves, a
  // discarded one is gone).
  int cards_seen = 0;
  for (int c = 0; c < kNumCards; ++c) cards_seen += kind_count[c] - s.unseen[c];
  for (int p = 0; p < n; ++p)
    for (int sto = 0; sto < kNumStores; ++sto)
      cards_seen += s.store_kind(p, sto) >= 0 ? s.store_joker_nuts(p, sto) : s.store_nuts(p, sto);
  int unseen_sum = 0;
  for (int c = 0; c < kNumCards; ++c) unseen_sum += s.unseen[c];
  require(cards_seen + unseen_sum <= deck_size_, "more cards accounted for than the deck holds");

  // The unseen cards are exactly the draw pile, the reserve and the set-up cards still to deal.
  int unseen_total = 0;
  for (int c = 0; c < kNumCards; ++c) unseen_total += s.unseen[c];
  int filled = 0;
  for (int i = 0; i < kNumSlots; ++i) filled += s.face_up[i] != kNone;
  int setup_left = 0;
  if (ph == Phase::kDealFaceUp) {
    for (int i = 0; i < kNumSlots; ++i)
      require((s.face_up[i] != kNone) == (i < filled), "face-up slots are dealt in order");
    require(filled < kNumSlots, "phase deal_face_up with every slot dealt");
    setup_left = kNumSlots - filled + n;
  } else if (ph == Phase::kDealStartNut) {
    setup_left = n - s.seat;
  } else if (st == Stage::kSetup && ph == Phase::kPlace) {
    setup_left = n - s.seat - 1;
  }
  require(unseen_total == s.draw_pile + s.reserve + setup_left,
          "unseen cards must equal draw pile + reserve + set-up cards still to deal");
  const int initial_pile = deck_size_ - kNumSlots - n - params_.reserve;
  require(s.end_triggered ? s.reserve == 0 : (s.reserve == params_.reserve && s.draw_pile <= initial_pile),
          "draw pile / reserve inconsistent with end_triggered");
  require(!s.end_triggered || st == Stage::kCheck || st == Stage::kFinal || st == Stage::kOver,
          "the end is triggered only during a collection check");
  require(st != Stage::kFinal || s.end_triggered, "stage final needs the end triggered");
  require(st != Stage::kSetup || (s.david == kNone && s.turn == 0 && !s.end_triggered),
          "nothing happens before the first turn");
  if (ph != Phase::kDealFaceUp) {
    for (int i = 0; i < kNumSlots; ++i) {
      const bool empty_ok = (ph == Phase::kRefill && i == s.refill_slot) || (s.end_triggered && s.draw_pile == 0);
      require(s.face_up[i] != kNone || empty_ok, "a face-up slot is empty while cards are left to draw");
    }
  }
  require(ph != Phase::kRefill || (s.draw_pile > 0 && s.face_up[s.refill_slot] == kNone),
          "phase refill needs a card to draw and an empty slot");
  require(st != Stage::kSetup || ph != Phase::kPlace || s.seat < n, "set-up place needs a seat");
  require(ph != Phase::kDealStartNut || s.seat < n, "deal_start_nut needs a seat");
}

// ---------------------------------------------------------------------------------------------
// Binary encoding: the shared nutcore header, then the state (core/state_bytes.h).

State Game::deserialize(const std::string& bytes) const {
  State s = state_from_bytes<State>(bytes, kGameTag, kFormatVersion, params_.players);
  validate(s);
  run(s);
  return s;
}

// ---------------------------------------------------------------------------------------------
// The readable board.

std::string Game::to_string(const State& s) const {
  const int n = s.num_players;
  std::ostringstream o;
  o << "Auf die Nüsse! " << n << " players, turn " << s.turn << ", " << kStageNames[static_cast<int>(s.stage)] << " / "
    << kPhaseNames[static_cast<int>(s.phase)];
  const int cp = current_player(s);
  o << (cp >= 0               ? ", seat " + std::to_string(cp) + " to act"
        : cp == kChancePlayer ? ", chance"
                              : ", game over")
    << "\n";
  auto row = [&](int space) {
    std::string cell = std::string(kSpaceNames[space]) + ":";
    for (int p = 0; p < n; ++p) {
      cell += ' ';
      cell += std::to_string(s.squirrels_at(space, p));
    }
    return cell;
  };
  o << "  4-area   [" << row(kFour) << "]\n";
  o << "  3-area   [" << row(kL) << "] [" << row(kR3) << "] [" << row(kRt) << "]\n";
  o << "  2-area   ";
  for (int sp = kA; sp <= kE; ++sp) o << "[" << row(sp) << "] ";
  o << "\n  start    ";
  for (int sp = 2; sp <= 12; ++sp) o << sp << (s.start_track >> (sp - 2) & 1 ? "* " : " ");
  o << "\n  face-up  ";
  for (int i = 0; i < kNumSlots; ++i) o << i << ":" << (s.face_up[i] == kNone ? "-" : kCardNames[s.face_up[i]]) << "  ";
  o << "\n  draw pile " << int(s.draw_pile) << ", reserve " << int(s.reserve)
    << (s.end_triggered ? " (end triggered)" : "") << ", David "
    << (s.david == kNone ? std::string("with nobody") : "with seat " + std::to_string(s.david)) << "\n";
  if (s.pending != kNone) o << "  pending: " << kCardNames[s.pending] << "\n";
  int points[kMaxPlayers];
  scores(s, points);
  for (int p = 0; p < n; ++p) {
    o << "  seat " << p << (p == s.active ? "*" : " ") << " supply " << supply(s, p) << ", " << points[p]
      << " points, stores:";
    for (int st = 0; st < kNumStores; ++st) {
      const int nuts = s.store_nuts(p, st), cap = capacity(st);
      o << " " << st << "=";
      if (nuts == cap)
        o << "FULL";
      else if (nuts == 0)
        o << "0/" << cap;
      else
        o << nuts << "/" << cap << " " << kCardNames[s.store_kind(p, st)];
    }
    bool any = false;
    for (int t = 0; t < kNumJokerTypes; ++t)
      for (int k = 0; k < s.kept[p][t]; ++k) {
        o << (any ? ", " : "; kept: ") << kCardNames[kNumKinds + t];
        any = true;
      }
    o << "\n";
  }
  return o.str();
}

}  // namespace nutcore::auf_die_nuesse
