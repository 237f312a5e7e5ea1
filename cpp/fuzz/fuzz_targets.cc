// libFuzzer targets for the loaders and the hot rules of every declared game, the engine
// protocol's line handler and the C ABI's JSON entry points (docs/reliability.md). Built by CMake
// with -DNUTCORE_FUZZ=ON (clang, -fsanitize=fuzzer,address,undefined) and run by .ci/fuzz.
//
// One binary; the target is chosen by NUTCORE_FUZZ_TARGET (list: print them): protocol_lines,
// capi_json (below), or GAME_KIND with GAME a declared game and KIND one of
//   bytes    game.deserialize(input)
//   json     game.from_json(Json::parse(input))
//   actions  from new_initial_state(), 2 input bytes per step choose among the legal actions or
//            chance outcomes (index modulo their number); once the input is used up, the game is
//            played to its end by a generator seeded from the input
// The first input byte picks the game: the player count (2 + byte % 3) and the turn cap (byte / 3
// % 4: the default, or 1, 9 or 25 turns, so that games stopped by the cap are fuzzed too); the
// rest is the input proper. Ritter alternates its two shouting rules with the byte's parity.
// Every state checked also has each seat's view checked: a state resampled from it is valid and
// gives that seat the same information key and text.
//
// Inputs may be rejected only by std::invalid_argument. Whatever loads, and every state reached
// by play, must be valid (validate), round-trip through bytes and JSON text to an equal state with
// identical encodings, offer >= 2 actions at a decision and probabilities summing to 1 at chance,
// and reach the end within kMaxSteps. A load may differ from the position fed only where that
// stood at a forced decision (< 2 legal actions) or a single-outcome chance node, which loading
// applies. Anything else aborts,
// and libFuzzer reports it with the input.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/json.h"
#include "engine/protocol.h"
#include "nutcore.h"
// Every game's declaration (generated/declarations.inc, from CMake's NUTCORE_GAMES).
#include "declarations.inc"

namespace {

using namespace nutcore;

constexpr long kMaxSteps = 100000;  // far more than any game lasts (turn caps 400 and 200)

[[noreturn]] void bug(const std::string& what) {
  std::fprintf(stderr, "\nnutcore fuzz: %s\n", what.c_str());
  std::fflush(stderr);
  std::abort();
}
#define FUZZ_CHECK(cond)                                                                              \
  do {                                                                                                \
    if (!(cond)) bug(std::string("check failed: ") + #cond + " at line " + std::to_string(__LINE__)); \
  } while (0)

struct Input {
  const uint8_t* data;
  size_t size;
  bool empty() const { return size == 0; }
  unsigned u16() {  // little-endian; a lone last byte counts as the low byte
    unsigned v = data[0];
    if (size >= 2) v |= unsigned(data[1]) << 8;
    const size_t used = size >= 2 ? 2 : 1;
    data += used;
    size -= used;
    return v;
  }
};

uint64_t hash_bytes(const uint8_t* data, size_t size) {  // FNV-1a
  uint64_t h = 1469598103934665603ULL;
  for (size_t i = 0; i < size; ++i) h = (h ^ data[i]) * 1099511628211ULL;
  return h;
}

// Everything a valid state at rest must satisfy (valid, as deserialize() checks), but the JSON
// round trip (check_state). Any exception here is a bug too.
template <class G>
void check_cheap(const G& game, const typename G::StateType& s) {
  try {
    const std::string bytes = game.serialize(s);  // deserialize() validates
    const auto from_bytes = game.deserialize(bytes);
    FUZZ_CHECK(from_bytes == s);
    FUZZ_CHECK(game.serialize(from_bytes) == bytes);
  } catch (const std::exception& e) {
    bug(std::string("a state at rest is invalid or does not round-trip through bytes: ") + e.what() + "\n" +
        game.to_string(s));
  }
  // Every seat's view: a resampled state is valid and gives the seat the same information set.
  Rng rng(hash_bytes(reinterpret_cast<const uint8_t*>(&s), sizeof s));
  std::vector<float> tensor(static_cast<size_t>(game.observation_tensor_size()));
  for (int p = 0; p < game.num_players(); ++p) {
    const auto sample = game.resample(s, p, rng);
    FUZZ_CHECK(game.information_key(sample, p) == game.information_key(s, p));
    FUZZ_CHECK(game.information_string(sample, p) == game.information_string(s, p));
    try {
      game.deserialize(game.serialize(sample));
    } catch (const std::exception& e) {
      bug(std::string("a resampled state is invalid: ") + e.what() + "\n" + game.to_string(sample));
    }
    game.observation_tensor(s, p, tensor.data());
  }
  const int player = game.current_player(s);
  typename G::Actions legal;
  typename G::Chances chances;
  game.legal_actions(s, legal);
  game.chance_outcomes(s, chances);
  if (game.is_terminal(s)) {
    FUZZ_CHECK(player == kTerminalPlayer && legal.empty() && chances.empty());
  } else if (game.is_chance(s)) {
    FUZZ_CHECK(player == kChancePlayer && legal.empty() && !chances.empty());
    double sum = 0;
    for (int i = 0; i < chances.size(); ++i) {
      FUZZ_CHECK(chances[i].action >= 0 && chances[i].action < G::kNumDistinctActions);
      FUZZ_CHECK(i == 0 || chances[i - 1].action < chances[i].action);
      FUZZ_CHECK(chances[i].probability > 0 && chances[i].probability <= 1);
      sum += chances[i].probability;
    }
    FUZZ_CHECK(std::abs(sum - 1) < 1e-9);
  } else {
    FUZZ_CHECK(player >= 0 && player < game.num_players() && chances.empty());
    FUZZ_CHECK(legal.size() >= 2);  // forced decisions are applied, never left standing
    for (int i = 0; i < legal.size(); ++i) {
      FUZZ_CHECK(legal[i] >= 0 && legal[i] < G::kNumDistinctActions);
      FUZZ_CHECK(i == 0 || legal[i - 1] < legal[i]);
    }
  }
}

// check_cheap, and the round trip through JSON text to an equal state and identical text.
template <class G>
void check_state(const G& game, const typename G::StateType& s) {
  check_cheap(game, s);
  try {
    const std::string text = game.to_json(s).dump();
    const auto from_json = game.from_json(Json::parse(text));
    FUZZ_CHECK(from_json == s);
    FUZZ_CHECK(game.to_json(from_json).dump() == text);
  } catch (const std::exception& e) {
    bug(std::string("a state at rest does not round-trip through JSON: ") + e.what() + "\n" + game.to_string(s));
  }
}

// One step chosen by `choice` (index modulo the number of options); chance by index, not by
// probability, so that rare outcomes are as easy to reach as common ones.
template <class G>
void step(const G& game, typename G::StateType& s, unsigned choice) {
  if (game.is_chance(s)) {
    typename G::Chances chances;
    game.chance_outcomes(s, chances);
    game.apply(s, chances[static_cast<int>(choice % chances.size())].action);
  } else {
    typename G::Actions legal;
    game.legal_actions(s, legal);
    game.apply(s, legal[static_cast<int>(choice % legal.size())]);
  }
}

// Plays to the end. Steps the input chooses are checked (check_cheap), fully (check_state) where
// the input runs out; after that, every 16th step and the end. Validation is the slow part (it
// is the cold path): checking every step of every run would cost 10x the executions, and over
// many runs of different lengths the checks still meet every kind of position.
template <class G>
void play_to_end(const G& game, typename G::StateType s, Input in, uint64_t seed) {
  Rng rng(seed);
  for (long steps = 0; !game.is_terminal(s); ++steps) {
    if (steps >= kMaxSteps) bug("the game did not end within kMaxSteps\n" + game.to_string(s));
    const bool driven = !in.empty();
    step(game, s, driven ? in.u16() : static_cast<unsigned>(rng.next() >> 40));
    if (driven && in.empty())
      check_state(game, s);
    else if (driven || steps % 16 == 0)
      check_cheap(game, s);
  }
  check_state(game, s);
}

// What a successful load of bytes must be: the position fed (`fed`), or, if that stood at a forced
// decision, what the forced move makes of it.
template <class G>
void check_load(const G& game, const typename G::StateType& fed, const typename G::StateType& loaded) {
  check_state(game, loaded);
  if (loaded == fed) return;
  FUZZ_CHECK(!game.is_terminal(fed));
  if (game.is_chance(fed)) {  // a chance node with a single outcome is resolved at once
    typename G::Chances chances;
    game.chance_outcomes(fed, chances);
    FUZZ_CHECK(chances.size() == 1);
    auto resolved = fed;
    game.apply(resolved, chances[0].action);
    FUZZ_CHECK(resolved == loaded);
    return;
  }
  typename G::Actions legal;
  game.legal_actions(fed, legal);
  FUZZ_CHECK(legal.size() < 2);
  if (legal.size() == 1) {
    auto forced = fed;
    game.apply(forced, legal[0]);
    FUZZ_CHECK(forced == loaded);
  }
}

template <class G>
void fuzz_bytes(const G& game, const uint8_t* data, size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  typename G::StateType loaded;
  try {
    loaded = game.deserialize(bytes);
  } catch (const std::invalid_argument&) {
    return;
  }
  // The position as fed: the bytes after the header, which deserialize validated.
  typename G::StateType fed;
  FUZZ_CHECK(size == 8 + sizeof fed);
  std::memcpy(&fed, data + 8, sizeof fed);
  check_load(game, fed, loaded);
  if (loaded == fed) FUZZ_CHECK(game.serialize(loaded) == bytes);
  play_to_end(game, loaded, Input{nullptr, 0}, hash_bytes(data, size));
}

template <class G>
void fuzz_json(const G& game, const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  typename G::StateType loaded;
  Json j;
  try {
    j = Json::parse(text);
  } catch (const std::invalid_argument&) {
    return;
  }
  try {  // the writer's output reads back as the same value
    const std::string dumped = j.dump();
    FUZZ_CHECK(Json::parse(dumped).dump() == dumped);
  } catch (const std::invalid_argument& e) {
    bug(std::string("Json::dump wrote what Json::parse rejects: ") + e.what());
  }
  try {
    loaded = game.from_json(j);
  } catch (const std::invalid_argument&) {
    return;
  }
  // The position as fed is not visible from outside from_json (it validates, then applies forced
  // moves); what loaded must be at rest and agree with the bytes path (check_state).
  check_state(game, loaded);
  play_to_end(game, loaded, Input{nullptr, 0}, hash_bytes(data, size));
}

template <class G>
void fuzz_actions(const G& game, const uint8_t* data, size_t size) {
  const auto s = game.new_initial_state();
  check_state(game, s);
  play_to_end(game, s, Input{data, size}, hash_bytes(data, size));
}

// ---------------------------------------------------------------------------------------------
// The protocol's line handler and the ABI's JSON entry points.

// protocol_lines: the input's lines (split at '\n') fed to one engine, a host of a game the first
// line need not have made; every line must get its replies, none an "internal" error. Searches are
// capped small, and stopped after 50 ms, so that an input runs in milliseconds.
void fuzz_protocol(const uint8_t* data, size_t size) {
  engine::Limits limits;
  limits.iterations = 300;
  limits.time_limit = 0.05;
  limits.threads = 2;
  limits.max_nodes = 20000;
  limits.depth = 3;
  limits.search_seconds = 0.05;
  std::mutex mutex;
  std::vector<std::string> replies;
  {
    engine::Engine e(
        [&](const std::string& line) {
          std::lock_guard<std::mutex> lock(mutex);
          replies.push_back(line);
        },
        limits);
    const std::string text(reinterpret_cast<const char*>(data), size);
    size_t start = 0;
    while (start <= text.size() && !e.closed()) {
      const size_t end = std::min(text.find('\n', start), text.size());
      e.handle(text.substr(start, end - start));
      start = end + 1;
    }
    e.close(true);
  }
  for (const std::string& line : replies) {
    Json reply;
    try {
      reply = Json::parse(line);
    } catch (const std::exception& ex) {
      bug(std::string("a reply is not JSON: ") + ex.what() + "\n" + line);
    }
    const Json* kind = reply.find("error");
    if (kind && kind->type() == Json::Type::kString && kind->as_string("error") == "internal")
      bug("an internal error: " + line);
  }
}

// capi_json: the input as the JSON of the ABI's entry points that read JSON (a game's parameters,
// a position, a search request, limits), for every game: an error status is fine, a crash is not.
void fuzz_capi(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);  // up to a NUL: a C string
  const char* json = text.c_str();
  nc_engine* engine = nullptr;
  if (nc_engine_new(json, &engine) == NC_OK) nc_engine_free(engine);
  for (int i = 0; i < nc_game_count(); ++i) {
    nc_game* game = nullptr;
    char* out = nullptr;
    if (nc_game_load(nc_game_name(i), json, &game) == NC_OK) nc_game_free(game);
    FUZZ_CHECK(nc_game_load(nc_game_name(i), "{\"players\": 2}", &game) == NC_OK);
    nc_state* state = nullptr;
    if (nc_state_from_json(game, json, &state) == NC_OK) {
      if (nc_state_to_json(state, &out) == NC_OK) nc_free(out);
      nc_state_free(state);
    }
    FUZZ_CHECK(nc_state_new(game, &state) == NC_OK);
    while (true) {  // to a decision
      int player = 0, action = 0;
      FUZZ_CHECK(nc_state_current_player(state, &player) == NC_OK);
      if (player != NC_CHANCE) break;
      FUZZ_CHECK(nc_state_sample_chance(state, 1, &action) == NC_OK);
      FUZZ_CHECK(nc_state_apply(state, action) == NC_OK);
    }
    // A request with a budget of its own is capped: the fuzzer must not wait for a long search.
    std::string capped = text;
    if (capped.find("iterations") == std::string::npos && capped.find("time_limit") == std::string::npos &&
        capped.find("depth") == std::string::npos && !capped.empty() && capped.front() == '{' && capped.back() == '}')
      capped = "{\"iterations\": 50" + std::string(capped.size() > 2 ? ", " : "") + capped.substr(1);
    if (capped.find("iterations\": 50") != std::string::npos &&
        nc_best_move(state, capped.c_str(), nullptr, &out) == NC_OK)
      nc_free(out);
    nc_state_free(state);
    nc_game_free(game);
  }
}

// ---------------------------------------------------------------------------------------------
// Targets: every declared game's (generated/games.inc, from CMake's NUTCORE_GAMES), and the two
// above. The first input byte picks a game's variant (player count, turn cap and what its
// declaration's fuzz_params makes of the variant); the rest is the input proper.

constexpr int kCaps[] = {0, 1, 9, 25};  // turn caps; 0: the game's default
constexpr int kNumVariants = 3 * 4;     // player counts x turn caps

struct Target {
  std::string name;
  std::function<void(const uint8_t*, size_t)> run;
};

template <class D>
void add_game_targets(std::vector<Target>& targets, const char* folder) {
  using G = typename D::Game;
  // Made when the target is chosen (a game may take a while to load).
  auto games = std::make_shared<std::vector<std::unique_ptr<G>>>();
  auto variant = [games](const uint8_t* data) -> const G& {
    if (games->empty())
      for (int v = 0; v < kNumVariants; ++v)
        games->push_back(std::make_unique<G>(D::fuzz_params(2 + v % 3, kCaps[v / 3], v)));
    return *(*games)[data[0] % kNumVariants];
  };
  const std::string name = folder;
  targets.push_back({name + "_bytes", [variant](const uint8_t* d, size_t n) {
                       if (n) fuzz_bytes(variant(d), d + 1, n - 1);
                     }});
  targets.push_back({name + "_json", [variant](const uint8_t* d, size_t n) {
                       if (n) fuzz_json(variant(d), d + 1, n - 1);
                     }});
  targets.push_back({name + "_actions", [variant](const uint8_t* d, size_t n) {
                       if (n) fuzz_actions(variant(d), d + 1, n - 1);
                     }});
}

std::vector<Target> all_targets() {
  std::vector<Target> targets;
#define NUTCORE_GAME(g) add_game_targets<declare::g>(targets, #g);
#include "games.inc"
#undef NUTCORE_GAME
  targets.push_back({"protocol_lines", fuzz_protocol});
  targets.push_back({"capi_json", fuzz_capi});
  return targets;
}

std::function<void(const uint8_t*, size_t)> g_target;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* name = std::getenv("NUTCORE_FUZZ_TARGET");
  std::string names;
  for (const Target& t : all_targets()) {
    names += " " + t.name;
    if (name && t.name == name) g_target = t.run;
  }
  if (name && std::strcmp(name, "list") == 0) {  // .ci/fuzz asks which targets there are
    std::printf("%s\n", names.c_str() + 1);
    std::exit(0);
  }
  if (!g_target) bug("set NUTCORE_FUZZ_TARGET to one of:" + names + " (or list)");
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  g_target(data, size);
  return 0;
}
