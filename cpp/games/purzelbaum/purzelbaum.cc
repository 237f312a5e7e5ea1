// Purzelbaum: the cold path. Parameters, action strings, canonical JSON, binary encoding,
// validation of positions from outside, and the readable meadow.
#include "games/purzelbaum/purzelbaum.h"

#include <cmath>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include "core/state_bytes.h"
#include "games/purzelbaum/tumble_model.h"

namespace nutcore::purzelbaum {

namespace {

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

const char* const kSeasonNames[] = {"autumn", "winter", "over"};
const char* const kPhaseNames[] = {"shove", "tumble", "bury", "dig", "terminal"};

std::vector<std::pair<double, double>> default_holes() {
  std::vector<std::pair<double, double>> holes;
  for (int y = -2; y <= 2; ++y)
    for (int x = -2; x <= 2; ++x)
      if (!(x == 0 && y == 0) && !(std::abs(x) == 2 && std::abs(y) == 2)) holes.emplace_back(x, y);
  return holes;
}

// The model's tables, by sigma and geometry: games of the same parameters are loaded again and
// again (unpickling, catalogues, one per seat), and a table takes milliseconds to compute.
std::shared_ptr<const std::vector<double>> cached_outcome_table(double sigma, const MeadowGeometry& g) {
  using Key = std::tuple<double, std::vector<std::pair<double, double>>, std::vector<double>, double, double>;
  static std::mutex mutex;
  static std::map<Key, std::shared_ptr<const std::vector<double>>> cache;
  Key key{sigma, g.holes, g.branch_lengths, g.half_box, g.hit_radius};
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto found = cache.find(key); found != cache.end()) return found->second;
  }
  auto table = std::make_shared<const std::vector<double>>(outcome_table(sigma, g));
  std::lock_guard<std::mutex> lock(mutex);
  if (cache.size() >= 64) cache.clear();
  return cache.emplace(std::move(key), std::move(table)).first->second;
}

uint8_t read_seat_or_null(const Json& v, const std::string& what, int hi) {
  return v.is_null() ? kNone : static_cast<uint8_t>(json_int_in(v, what, 0, hi));
}

}  // namespace

Params Game::checked_params(Params p) {
  if (p.players < 2 || p.players > kMaxPlayers) fail("purzelbaum: players must be 2..4");
  if (p.skill_sigma.size() == 1) {
    const double sigma = p.skill_sigma[0];  // a copy: assign() may not take a reference into the vector
    p.skill_sigma.assign(p.players, sigma);
  }
  if (static_cast<int>(p.skill_sigma.size()) != p.players)
    fail("purzelbaum: skill_sigma needs one value or one per seat");
  for (double s : p.skill_sigma)
    if (!(s > 0 && s <= 10)) fail("purzelbaum: skill_sigma must be in (0, 10]");
  if (p.branch_lengths.empty() || p.branch_lengths.size() > kMaxEnds / 2) fail("purzelbaum: 1..8 branches");
  for (double b : p.branch_lengths)
    if (!(b > 0 && b < 10)) fail("purzelbaum: branch lengths must be in (0, 10)");
  if (p.holes.empty()) p.holes = default_holes();
  if (p.holes.size() < 2 || p.holes.size() > kMaxHoles) fail("purzelbaum: 2..20 holes");
  if (!(p.half_box > 0 && p.half_box <= 10)) fail("purzelbaum: half_box must be in (0, 10]");
  if (p.turn_cap < 1 || p.turn_cap > 10000) fail("purzelbaum: turn_cap must be 1..10000");
  if (2 * p.branch_lengths.size() > p.holes.size())
    fail("purzelbaum: every branch end needs a hole to aim at: more holes than branch ends");
  return p;
}

Game::Game(const Params& params) : params_(checked_params(params)) {
  const Params& p = params_;
  num_holes_ = static_cast<int>(p.holes.size());
  num_ends_ = 2 * static_cast<int>(p.branch_lengths.size());
  all_holes_ = num_holes_ == 32 ? ~0u : (1u << num_holes_) - 1;
  const MeadowGeometry geometry{p.holes, p.branch_lengths, p.half_box, p.hit_radius};
  try {
    check_geometry(geometry);
  } catch (const std::invalid_argument& e) {
    fail(std::string("purzelbaum: bad parameters: ") + e.what());
  }
  for (double sigma : p.skill_sigma) {
    const auto t = cached_outcome_table(sigma, geometry);
    table_.insert(table_.end(), t->begin(), t->end());
  }
  for (int seat = 0; seat < p.players; ++seat) {
    std::vector<Action> order;
    for (int t = 0; t < num_holes_; ++t)
      for (int e = 0; e < num_ends_; ++e) order.push_back(act::kShove + 16 * t + e);
    std::stable_sort(order.begin(), order.end(), [&](Action a, Action b) {
      return hit_probability(seat, (a - act::kShove) % 16, (a - act::kShove) / 16) >
             hit_probability(seat, (b - act::kShove) % 16, (b - act::kShove) / 16);
    });
    shoves_by_hit_.push_back(std::move(order));
  }
  build_draws();
}

// For each outcome list (positive probabilities p_0.. in list order), the threshold of entry k is
// the least u in [0, 2^53] for which r = u * 2^-53 minus p_0, ..., p_k (in doubles, in that order,
// as sample_outcome subtracts) is not below 0. Rounded subtraction is monotone in r and never
// raises it, so "the draw is past entry k" holds exactly for u >= that threshold, and the
// thresholds rise with k: the draw is the first entry whose threshold exceeds u.
void Game::build_draws() {
  constexpr uint64_t kEnd = uint64_t{1} << 53;
  draws_.assign(static_cast<size_t>(params_.players) * num_ends_ * num_holes_, TumbleDraw{});
  for (int seat = 0; seat < params_.players; ++seat)
    for (int end = 0; end < num_ends_; ++end)
      for (int target = 0; target < num_holes_; ++target) {
        const double* p = outcomes(seat, end, target);
        TumbleDraw& d = draws_[cell(seat, end, target)];
        double prob[kMaxHoles + 2];
        int n = 0;
        for (int k = 0; k < num_holes_ + 2; ++k) {
          if (!(p[k] > 0)) continue;
          prob[n] = p[k];
          d.action[n++] = outcome_action(k);
        }
        const auto past = [&](uint64_t u, int k) {  // the draw from u goes beyond entry k
          double r = static_cast<double>(u) * 0x1.0p-53;
          for (int j = 0; j <= k; ++j) r -= prob[j];
          return !(r < 0);
        };
        for (int k = 0; k + 1 < n; ++k) {
          uint64_t lo = 0, hi = kEnd;  // past(hi) or hi == kEnd; not past(u) for u < lo
          while (lo < hi) {
            const uint64_t mid = lo + (hi - lo) / 2;
            if (past(mid, k))
              hi = mid;
            else
              lo = mid + 1;
          }
          d.passes[k] = lo;
        }
        d.passes[n - 1] = kEnd;  // the last outcome takes whatever is left
      }
}

Params Game::params_from_json(const Json& j) {
  Params p;
  for (const auto& [key, value] : j.items("purzelbaum parameters")) {
    const std::string what = "parameter " + key;
    if (key == "players") {
      p.players = static_cast<int>(std::clamp<int64_t>(value.as_int(what), -1, 99));
    } else if (key == "turn_cap") {
      p.turn_cap = static_cast<int>(std::clamp<int64_t>(value.as_int(what), -1, 1000000));
    } else if (key == "skill_sigma") {
      p.skill_sigma.clear();
      if (value.type() == Json::Type::kArray)
        for (const Json& v : value.as_array(what)) p.skill_sigma.push_back(v.as_number(what));
      else
        p.skill_sigma.push_back(value.as_number(what));
    } else if (key == "hit_radius") {
      p.hit_radius = value.as_number(what);
    } else if (key == "half_box") {
      p.half_box = value.as_number(what);
    } else if (key == "branch_lengths") {
      p.branch_lengths.clear();
      for (const Json& v : value.as_array(what)) p.branch_lengths.push_back(v.as_number(what));
    } else if (key == "holes") {
      p.holes.clear();
      for (const Json& v : value.as_array(what)) {
        const auto& xy = v.as_array(what);
        if (xy.size() != 2) fail(what + ": each hole is [x, y]");
        p.holes.emplace_back(xy[0].as_number(what), xy[1].as_number(what));
      }
      if (p.holes.empty()) fail(what + ": no holes");
    } else {
      fail("purzelbaum has no parameter \"" + key + "\"");
    }
  }
  return p;
}

Json Game::params_json() const {
  Json j = Json::object();
  j.set("players", Json::integer(params_.players));
  Json sigma = Json::array();
  for (double s : params_.skill_sigma) sigma.push(Json::number(s));
  j.set("skill_sigma", sigma);
  j.set("hit_radius", Json::number(params_.hit_radius));
  Json branches = Json::array();
  for (double b : params_.branch_lengths) branches.push(Json::number(b));
  j.set("branch_lengths", branches);
  Json holes = Json::array();
  for (const auto& [x, y] : params_.holes) {
    Json xy = Json::array();
    xy.push(Json::number(x));
    xy.push(Json::number(y));
    holes.push(xy);
  }
  j.set("holes", holes);
  j.set("half_box", Json::number(params_.half_box));
  j.set("turn_cap", Json::integer(params_.turn_cap));
  return j;
}

State Game::new_initial_state() const {
  State s;
  std::memset(&s, 0, sizeof s);
  s.num_players = static_cast<uint8_t>(params_.players);
  s.ends = static_cast<uint16_t>((1u << num_ends_) - 1);
  s.season = Season::kAutumn;
  s.phase = Phase::kShove;
  s.current = 0;
  s.shover = s.target = s.end = kNone;
  return s;
}

std::string Game::action_to_string(Action a) {
  if (a < 0 || a >= act::kNumDistinct) return "action " + std::to_string(a) + " (out of range)";
  if (a < act::kDig) return "target " + std::to_string(a / 16) + " end " + std::to_string(a % 16);
  if (a < act::kBury) return "dig " + std::to_string(a - act::kDig);
  if (a < act::kHit) return "bury " + std::to_string(a - act::kBury);
  if (a == act::kHit) return "hit";
  if (a < act::kOffBox) return "lands at hole " + std::to_string(a - act::kLands);
  return "off the box";
}

Json Game::to_json(const State& s) const {
  const int n = s.num_players;
  Json j = Json::object();
  j.set("game", Json::string(kName));
  j.set("players", Json::integer(n));
  j.set("season", Json::string(kSeasonNames[static_cast<int>(s.season)]));
  j.set("phase", Json::string(kPhaseNames[static_cast<int>(s.phase)]));
  j.set("current_player", Json::integer(current_player(s)));
  j.set("turn", Json::integer(s.turn));
  auto or_null = [](uint8_t v) { return v == kNone ? Json::null() : Json::integer(v); };
  j.set("shover", or_null(s.shover));
  j.set("target", or_null(s.target));
  j.set("end", or_null(s.end));
  Json ends = Json::array();
  for (int e = 0; e < num_ends_; ++e) ends.push(Json::boolean(s.ends >> e & 1));
  j.set("ends", ends);
  Json holes = Json::array();
  for (int h = 0; h < num_holes_; ++h) {
    Json hole = Json::object();
    hole.set("white", Json::boolean(s.white >> h & 1));
    hole.set("leaf", Json::boolean(s.leaf >> h & 1));
    hole.set("nuts", Json::integer(s.hole_nuts[h]));
    holes.push(hole);
  }
  j.set("holes", holes);
  Json leaves = Json::array(), nuts = Json::array();
  for (int p = 0; p < n; ++p) {
    leaves.push(Json::integer(s.leaves[p]));
    nuts.push(Json::integer(s.nuts[p]));
  }
  j.set("leaves", leaves);
  j.set("nuts", nuts);
  return j;
}

State Game::from_json(const Json& j) const {
  State s;
  std::memset(&s, 0, sizeof s);
  JsonObjectReader r(j, "purzelbaum state");
  if (r.get("game").as_string("game") != kName) fail("game: expected \"purzelbaum\"");
  const int n = json_int_in(r.get("players"), "players", 2, 4);
  if (n != params_.players)
    fail("players: the state has " + std::to_string(n) + " players, the game " + std::to_string(params_.players));
  s.num_players = static_cast<uint8_t>(n);
  s.season = static_cast<Season>(name_index(kSeasonNames, 3, r.get("season").as_string("season"), "season"));
  s.phase = static_cast<Phase>(name_index(kPhaseNames, 5, r.get("phase").as_string("phase"), "phase"));
  const int claimed_player = json_int_in(r.get("current_player"), "current_player", -4, n - 1);
  s.turn = static_cast<uint16_t>(json_int_in(r.get("turn"), "turn", 0, params_.turn_cap));
  s.shover = read_seat_or_null(r.get("shover"), "shover", n - 1);
  s.target = read_seat_or_null(r.get("target"), "target", num_holes_ - 1);
  s.end = read_seat_or_null(r.get("end"), "end", num_ends_ - 1);
  const auto& ends = r.get("ends").as_array("ends");
  if (static_cast<int>(ends.size()) != num_ends_) fail("ends: expected " + std::to_string(num_ends_) + " entries");
  for (int e = 0; e < num_ends_; ++e)
    if (ends[e].as_bool("ends")) s.ends = static_cast<uint16_t>(s.ends | (1u << e));
  const auto& holes = r.get("holes").as_array("holes");
  if (static_cast<int>(holes.size()) != num_holes_) fail("holes: expected " + std::to_string(num_holes_) + " entries");
  for (int h = 0; h < num_holes_; ++h) {
    JsonObjectReader hole(holes[h], "holes[" + std::to_string(h) + "]");
    if (hole.get("white").as_bool("white")) s.white |= 1u << h;
    if (hole.get("leaf").as_bool("leaf")) s.leaf |= 1u << h;
    s.hole_nuts[h] = static_cast<uint8_t>(json_int_in(hole.get("nuts"), "nuts", 0, num_ends_));
    hole.finish();
  }
  for (const char* key : {"leaves", "nuts"}) {
    const auto& list = r.get(key).as_array(key);
    if (static_cast<int>(list.size()) != n) fail(std::string(key) + ": expected one entry per seat");
    for (int p = 0; p < n; ++p)
      (key[0] == 'l' ? s.leaves : s.nuts)[p] = static_cast<uint8_t>(json_int_in(list[p], key, 0, num_ends_));
  }
  r.finish();
  // The seat to act is stored; in phase tumble it is the shover.
  if (s.phase == Phase::kTumble)
    s.current = s.shover == kNone ? 0 : s.shover;
  else if (s.phase == Phase::kTerminal)
    s.current = 0;
  else if (claimed_player >= 0)
    s.current = static_cast<uint8_t>(claimed_player);
  else
    fail("current_player: a decision phase needs a seat");
  validate(s);
  if (claimed_player != current_player(s)) fail("current_player does not match the phase");
  run(s);
  return s;
}

void Game::validate(const State& s) const {
  const int n = s.num_players;
  require_players(s);  // require() and this: core/game_defaults.h
  require(s.zero == 0, "padding byte is not zero");
  require(static_cast<int>(s.season) <= 2 && static_cast<int>(s.phase) <= 4, "bad season or phase");
  const Season se = s.season;
  const Phase ph = s.phase;
  require((se == Season::kAutumn && (ph == Phase::kShove || ph == Phase::kTumble || ph == Phase::kBury)) ||
              (se == Season::kWinter && ph == Phase::kDig) || (se == Season::kOver && ph == Phase::kTerminal),
          "phase does not belong to the season");
  require(s.current < n, "current seat out of range");
  require(ph != Phase::kTerminal || s.current == 0, "a finished game has nobody to move (current seat must be 0)");
  require(s.turn <= params_.turn_cap && (s.turn < params_.turn_cap || ph == Phase::kTerminal),
          "turn counter past the cap");
  for (int h = num_holes_; h < kMaxHoles; ++h) require(s.hole_nuts[h] == 0, "nuts in a hole that does not exist");
  require((s.white & ~all_holes_) == 0 && (s.leaf & ~all_holes_) == 0, "disks that do not exist");
  require((s.ends >> num_ends_) == 0, "branch ends that do not exist");
  for (int p = n; p < kMaxPlayers; ++p)
    require(s.leaves[p] == 0 && s.nuts[p] == 0, "a seat that does not play has nuts or leaves");
  const bool resolving = ph == Phase::kTumble || ph == Phase::kBury;
  require(resolving ? (s.shover < n && s.target < num_holes_ && s.end < num_ends_)
                    : (s.shover == kNone && s.target == kNone && s.end == kNone),
          "shover, target and end are set exactly while a shove is resolved");
  // Every nut and every leaf is somewhere, once.
  int nuts = popcount(s.ends) + (ph == Phase::kBury ? 1 : 0);
  for (int h = 0; h < num_holes_; ++h) nuts += s.hole_nuts[h];
  int leaves = popcount(s.ends) + popcount(s.leaf);
  for (int p = 0; p < n; ++p) {
    nuts += s.nuts[p];
    leaves += s.leaves[p];
  }
  require(nuts == num_ends_, "the nuts do not add up to one per branch end");
  require(leaves == num_ends_, "the leaves do not add up to one per branch end");
  require((s.leaf & ~s.white) == 0, "a leaf lies on a green disk");
  const int shoves_done = num_ends_ - popcount(s.ends);
  int collected = 0;
  for (int p = 0; p < n; ++p) collected += s.nuts[p];
  if (se == Season::kOver && s.turn == params_.turn_cap) {
    // Stopped by the turn cap, which a small turn_cap reaches in autumn: the disks as autumn or as
    // winter leaves them (as the reference accepts).
    bool winter_disks = s.ends == 0;
    for (int h = 0; h < num_holes_; ++h) winter_disks = winter_disks && ((s.white >> h & 1) || s.hole_nuts[h] == 0);
    require((popcount(s.white) == shoves_done && collected == 0) || winter_disks,
            "a game stopped by the turn cap has disks that fit neither autumn nor winter");
  } else if (se == Season::kAutumn) {
    require(popcount(s.white) == shoves_done, "in autumn each resolved shove closed exactly one disk");
    require(collected == 0, "nobody digs in autumn");
    if (ph == Phase::kTumble)
      require(!(s.white >> s.target & 1) && (s.ends >> s.end & 1) && s.current == s.shover,
              "tumble: a green target, a full end");
    if (ph == Phase::kBury)
      require((s.white >> s.target & 1) && (s.leaf >> s.target & 1) && !(s.ends >> s.end & 1) &&
                  s.current == (s.shover + 1) % n,
              "bury: the target closed with the leaf on it, the end empty, the left neighbour to choose");
    if (ph == Phase::kShove) require(s.ends != 0, "autumn with no nut left on the tree");
  } else {
    require(s.ends == 0, "winter with nuts on the tree");
    for (int h = 0; h < num_holes_; ++h)
      require((s.white >> h & 1) || s.hole_nuts[h] == 0, "nuts under a green disk in winter");
    if (se == Season::kWinter) require(s.white != 0, "winter with every disk green is over");
    if (se == Season::kOver) require(s.white == 0, "the game ends when every disk is green");
  }
}

State Game::deserialize(const std::string& bytes) const {
  State s = state_from_bytes<State>(bytes, kGameTag, kFormatVersion, params_.players);
  validate(s);
  run(s);
  return s;
}

std::string Game::to_string(const State& s) const { return board_string(s, true); }

Json Game::unaided_json(const State& s, int) const {
  Json j = to_json(s);
  Json holes = Json::array();
  for (Json hole : j.find("holes")->as_array("holes")) {
    hole.set("nuts", Json::string("hidden"));
    holes.push(hole);
  }
  j.set("holes", holes);
  return j;
}

std::string Game::unaided_string(const State& s, int) const { return board_string(s, false); }

std::string Game::board_string(const State& s, bool memory) const {
  std::ostringstream o;
  o << "Purzelbaum, " << int(s.num_players) << " players, " << kSeasonNames[static_cast<int>(s.season)] << ", turn "
    << s.turn;
  const int cp = current_player(s);
  o << (cp >= 0               ? ", seat " + std::to_string(cp) + " to act"
        : cp == kChancePlayer ? ", the nut tumbles"
                              : ", game over")
    << "\n  branch ends with a nut: ";
  for (int e = 0; e < num_ends_; ++e)
    if (s.ends >> e & 1) o << e << " ";
  o << (memory ? "\n  meadow (hole: W white / G green, L leaf, nuts):\n"
               : "\n  meadow (hole: W white / G green, L leaf):\n");
  for (int h = 0; h < num_holes_; ++h) {
    o << "   " << (h < 10 ? " " : "") << h << " (" << params_.holes[h].first << "," << params_.holes[h].second << ") "
      << ((s.white >> h & 1) ? 'W' : 'G') << ((s.leaf >> h & 1) ? " L" : "  ");
    if (memory) o << " " << int(s.hole_nuts[h]);
    o << (h % 4 == 3 ? "\n" : "");
  }
  if (num_holes_ % 4) o << "\n";
  if (s.phase == Phase::kTumble || s.phase == Phase::kBury)
    o << "  seat " << int(s.shover) << " shoved end " << int(s.end) << " at hole " << int(s.target) << "\n";
  for (int p = 0; p < s.num_players; ++p)
    o << "  seat " << p << ": " << int(s.leaves[p]) << " leaves, " << int(s.nuts[p]) << " nuts\n";
  return o.str();
}

}  // namespace nutcore::purzelbaum
