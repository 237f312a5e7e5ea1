// Bots: the spec grammar (bots.h) and how each kind of bot chooses its move.
#include "engine/bots.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

#include "core/deadline.h"

namespace nutcore::engine {

namespace {

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

std::string trim(const std::string& s) {
  size_t a = 0, b = s.size();
  while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
  while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
  return s.substr(a, b - a);
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// A setting's text as a value: an integer, a number, true or false, else the text itself.
Json parse_value(const std::string& text) {
  if (!text.empty()) {
    size_t i = text[0] == '-' || text[0] == '+' ? 1 : 0;
    if (i < text.size() &&
        std::all_of(text.begin() + static_cast<long>(i), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      try {
        return Json::parse(text[0] == '+' ? text.substr(1) : text);  // any size: range checks name it
      } catch (const std::invalid_argument&) {                       // leading zeros, which JSON does not write
        return Json::number(std::strtod(text.c_str(), nullptr));
      }
    }
    char* end = nullptr;
    const double d = std::strtod(text.c_str(), &end);
    if (end == text.c_str() + text.size() && std::isfinite(d) && !std::isspace(static_cast<unsigned char>(text[0])))
      return Json::number(d);
  }
  const std::string l = lower(text);
  if (l == "true" || l == "false") return Json::boolean(l == "true");
  return Json::string(text);
}

// A value as the spec's name shows it (Python's str of the value).
std::string written(const Json& v) {
  if (v.type() == Json::Type::kBool) return v.as_bool("") ? "True" : "False";
  if (v.type() == Json::Type::kString) return v.as_string("");
  return v.dump();
}

double unit_setting(const Json& v, const std::string& key) {
  const bool number = v.type() == Json::Type::kInt || v.type() == Json::Type::kDouble;
  const double x = number && (v.fits_int64() || v.type() == Json::Type::kDouble) ? v.as_number(key) : NAN;
  if (!(x >= 0 && x <= 1)) fail("bot setting " + key + " must be a number in [0, 1], got " + shown(v));
  return x;
}

std::string key_list(const Json& settings) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : settings.items("settings")) keys.push_back(k);
  std::sort(keys.begin(), keys.end());
  return name_list(keys);
}

void add_to_name(std::string& name, const std::string& key, const Json& value) {
  name += (name.find(':') == std::string::npos ? ":" : ",") + key + "=" + written(value);
}

}  // namespace

std::string BotSpec::kind_name() const {
  switch (kind) {
    case Kind::kRandom:
      return "random";
    case Kind::kGreedy:
      return "greedy";
    case Kind::kLevel:
      return "level";
    case Kind::kSearch:
      return algorithm ? algorithm_name(*algorithm) : "auto";
  }
  return "";
}

const std::vector<std::string>& generic_levels() {
  // Weakest first: beginners are noisy, forgetful greedy players; from level 5 the game's own
  // best_move ("auto") with a growing budget. A game's declaration may replace the table
  // (kLevels), so that its levels are about equally spaced in rating (docs/levels.md).
  static const std::vector<std::string> levels = {"greedy:noise=0.6,memory=0.3",
                                                  "greedy:noise=0.35,memory=0.5",
                                                  "greedy:noise=0.15,memory=0.7",
                                                  "greedy:memory=0.85",
                                                  "auto:iterations=30,memory=0.9",
                                                  "auto:iterations=100,memory=0.95",
                                                  "auto:iterations=300",
                                                  "auto:iterations=1000",
                                                  "auto:iterations=3000",
                                                  "auto:iterations=10000",
                                                  "auto:iterations=10000,evaluator=learned+playout"};
  return levels;
}

std::string level_spec(const std::string& game, int level, int players) {
  if (level < 1 || level > kNumLevels) fail("a level is 1.." + std::to_string(kNumLevels));
  std::string spec = generic_levels()[level - 1];
  for (const GameInfo& info : game_infos())
    if (info.name == game && !info.levels[level - 1].empty()) spec = info.levels[level - 1];
  if (players > 0 && level > 1) {
    const BotSpec parsed = parse_bot_spec(spec);  // kept: find() points into its settings
    const Json* evaluator = parsed.settings.find("evaluator");
    const bool learned = evaluator && evaluator->as_string("evaluator").rfind("learned", 0) == 0;
    if (learned && !shipped_network(game, players)) return level_spec(game, level - 1, players);
  }
  return spec;
}

std::string default_bot(const std::string& game) {
  game_info(game);                     // an unknown game is an error here too
  return parse_bot_spec("auto").name;  // as go without a bot: the game's own search, best_move's budget
}

std::vector<std::string> example_bots(const std::string& game) {
  const GameInfo& info = game_info(game);
  // Per algorithm, in kAlgorithmNames' order: a spec at a moderate budget; the tree searches also
  // a larger budget and a time limit.
  static const std::array<std::vector<const char*>, kNumAlgorithms> examples = {{
      {"mcts:iterations=1000", "mcts:iterations=5000", "mcts:time_limit=2"},
      {"ismcts:iterations=1000", "ismcts:iterations=5000", "ismcts:time_limit=2"},
      {"pimc:iterations=1000,determinizations=10"},
      {"expectimax:depth=2"},
      {"solver"},
  }};
  std::vector<std::string> out = {default_bot(game), "greedy", "random"};
  for (int i = 0; i < kNumAlgorithms; ++i)
    if (info.algorithms.has(static_cast<Algorithm>(i)))
      for (const char* spec : examples[static_cast<size_t>(i)]) out.push_back(parse_bot_spec(spec).name);
  return out;
}

std::vector<OfferedLevel> level_bots(const std::string& game) {
  game_info(game);
  std::vector<OfferedLevel> out;
  for (int level = 1; level <= kNumLevels; ++level)
    out.push_back({"level:" + std::to_string(level), level_spec(game, level)});
  return out;
}

BotSpec parse_bot_spec(const std::string& spec) {
  BotSpec b;
  const size_t colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  const std::string rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
  if (name == "level") {
    const bool digits = !rest.empty() && rest.size() <= 2 &&
                        std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; });
    const int level = digits ? std::atoi(rest.c_str()) : 0;
    if (level < 1 || level > kNumLevels)
      fail("bot spec " + quoted(spec) + ": a level is level:N with N in 1.." + std::to_string(kNumLevels));
    b.kind = BotSpec::Kind::kLevel;
    b.level = level;
    b.name = "level:" + std::to_string(level);
    return b;
  }
  Json settings = Json::object();
  if (colon != std::string::npos) {
    size_t start = 0;
    for (;;) {
      const size_t comma = rest.find(',', start);
      const std::string item = rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (trim(item).empty()) fail("bot spec " + quoted(spec) + ": an empty setting (a stray comma or colon?)");
      const size_t eq = item.find('=');
      const std::string key = trim(item.substr(0, eq));
      if (eq == std::string::npos || key.empty())
        fail("bot spec " + quoted(spec) + ": expected key=value, got " + quoted(item));
      if (settings.find(key)) fail("bot spec " + quoted(spec) + ": " + key + " is given twice");
      settings.set(key, parse_value(trim(item.substr(eq + 1))));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  return make_bot_spec(name, settings);
}

BotSpec make_bot_spec(const std::string& name, const Json& settings) {
  BotSpec b;
  if (name == "level") fail("a level bot is made from its spec, level:N");
  // memory, noise and reuse are the bot's; the rest goes to its search.
  Json search = Json::object();
  const Json* memory = nullptr;
  const Json* noise = nullptr;
  const Json* reuse = nullptr;
  for (const auto& [key, value] : settings.items("settings")) {
    if (key == "memory")
      memory = &value;
    else if (key == "noise")
      noise = &value;
    else if (key == "reuse")
      reuse = &value;
    else
      search.set(key, value);
  }
  if (name == "random") {
    b.kind = BotSpec::Kind::kRandom;
    for (const auto& [key, value] : settings.items("settings")) {
      if (key != "seed") fail("the random bot takes no settings but seed, got " + key_list(settings));
      b.seed = seed_in(value, "random bot: seed");
    }
    b.name = "random";
    return b;
  }
  if (memory) b.memory = unit_setting(*memory, "memory");
  if (noise) b.noise = unit_setting(*noise, "noise");
  if (name == "greedy") {
    if (!search.items("settings").empty() || reuse)
      fail("the greedy bot takes only memory and noise, got " + key_list(settings));
    b.kind = BotSpec::Kind::kGreedy;
  } else {
    b.kind = BotSpec::Kind::kSearch;
    if (name != "auto") {
      bool known = false;
      for (int i = 0; i < kNumAlgorithms; ++i) known |= name == kAlgorithmNames[i];
      if (!known) {
        std::vector<std::string> names(kAlgorithmNames.begin(), kAlgorithmNames.end());
        std::sort(names.begin(), names.end());
        std::string list = "random, greedy, level:N, auto";
        for (const auto& n : names) list += ", " + n;
        fail("unknown bot " + quoted(name) + "; choose from " + list);
      }
      b.algorithm = parse_algorithm(name, "bot");
    }
    const bool sampling = !b.algorithm || *b.algorithm == Algorithm::kMcts || *b.algorithm == Algorithm::kIsmcts ||
                          *b.algorithm == Algorithm::kPimc;
    // As best_move: the default budget only where none is given (a time limit alone has no cap).
    if (sampling && !search.find("iterations") && !search.find("time_limit"))
      search.set("iterations", Json::integer(kDefaultIterations));
    // The bot's generator seeds every search: a spec names no seed and no algorithm of its own.
    for (const char* own : {"seed", "algorithm"})
      if (search.find(own))
        fail("best_move: algorithm " + quoted(name == "auto" ? "mcts" : name) + " has no option(s) " +
             name_list({own}) + "; a bot's searches are seeded by the bot");
    Json request = search;
    request.set("algorithm", Json::string(name));
    parse_search_request(request);  // bad settings fail here, not at the first move
    b.settings = search;
    if (reuse) {
      const bool tree_search = !b.algorithm || *b.algorithm == Algorithm::kMcts || *b.algorithm == Algorithm::kIsmcts;
      if (reuse->type() != Json::Type::kBool || (reuse->as_bool("reuse") && !tree_search))
        fail("reuse is true or false, for auto, mcts and ismcts only: got " + shown(*reuse) + " for " + name);
      b.reuse = reuse->as_bool("reuse");
    }
  }
  // The name: the spec, written canonically (the search's settings, then reuse, memory, noise).
  b.name = name;
  if (b.kind == BotSpec::Kind::kSearch)
    for (const auto& [key, value] : b.settings.items("settings")) add_to_name(b.name, key, value);
  if (b.reuse) add_to_name(b.name, "reuse", Json::boolean(true));
  if (b.memory != 1) add_to_name(b.name, "memory", *memory);
  if (b.noise != 0) add_to_name(b.name, "noise", *noise);
  return b;
}

Bot::Bot(BotSpec spec) : spec_(std::move(spec)), name_(spec_.name) {
  if (spec_.kind == BotSpec::Kind::kSearch) {
    Json request = spec_.settings;
    request.set("algorithm", Json::string(spec_.kind_name()));
    request_ = parse_search_request(request);
  }
  reset(spec_.seed.value_or(0));
}

void Bot::reset(uint64_t seed) {
  seed_ = seed;
  rng_.reseed(seed);
  tree_.clear();
  for (auto& [game, bot] : levels_) bot->reset(seed);
}

Bot& Bot::for_game(const AnyState& state) {
  if (spec_.kind != BotSpec::Kind::kLevel) return *this;
  const std::string& game = state.game().info().name;
  const int players = state.game().num_players();
  const std::string key = game + "/" + std::to_string(players);  // a level may differ by player count
  auto found = levels_.find(key);
  if (found == levels_.end()) {
    auto bot = std::make_unique<Bot>(parse_bot_spec(level_spec(game, spec_.level, players)));
    bot->set_name(name_);
    bot->reset(seed_);
    found = levels_.emplace(key, std::move(bot)).first;
  }
  return *found->second;
}

void Bot::check_for(const AnyState& state) {
  Bot& bot = for_game(state);
  const GameInfo& info = state.game().info();
  if (bot.spec_.kind == BotSpec::Kind::kSearch && bot.spec_.algorithm && !info.algorithms.has(*bot.spec_.algorithm)) {
    std::string offered = "auto";
    for (int i = 0; i < kNumAlgorithms; ++i)
      if (info.algorithms.has(static_cast<Algorithm>(i))) offered += std::string(", ") + kAlgorithmNames[i];
    fail("bot " + name_ + " is not available for " + info.name + " (its algorithms: " + offered + ")");
  }
}

std::optional<SearchRequest> Bot::plain_search() const {
  if (spec_.kind != BotSpec::Kind::kSearch || spec_.memory != 1 || spec_.noise != 0 || spec_.reuse) return std::nullopt;
  if (spec_.algorithm == Algorithm::kSolver) return std::nullopt;  // greedy where the solver does not apply
  return request_;
}

Action Bot::step(const AnyState& state, const StopFlag* stop, SearchProgress* progress) {
  if (state.is_terminal() || state.is_chance_node())
    fail("bot " + name_ + ": the state is terminal or a chance node; there is no move to choose");
  Bot& bot = for_game(state);
  check_for(state);
  const std::vector<Action> legal = state.legal_actions();
  if (bot.spec_.kind == BotSpec::Kind::kRandom) return legal[bot.rng_.below(static_cast<uint32_t>(legal.size()))];
  if (bot.spec_.noise > 0 && bot.rng_.uniform() < bot.spec_.noise)
    return legal[bot.rng_.below(static_cast<uint32_t>(legal.size()))];
  if (legal.size() == 1) return legal[0];
  if (bot.spec_.memory < 1) {
    const auto remembered = state.forget(state.current_player(), bot.spec_.memory, bot.rng_.next());
    return bot.choose(*remembered, stop, progress);
  }
  return bot.choose(state, stop, progress);
}

Action Bot::choose(const AnyState& state, const StopFlag* stop, SearchProgress* progress) {
  if (spec_.kind == BotSpec::Kind::kGreedy) return state.greedy_action();
  if (spec_.algorithm == Algorithm::kSolver) {
    // Where the game's solver applies it decides; the greedy policy does the rest, and plays too
    // where the solver cannot finish within the bot's time limit (a stop still ends the move).
    if (!state.solver_applies()) return state.greedy_action();
    const DeadlineStop deadline(stop, request_.time_limit);
    try {
      return state.solve(deadline.flag()).action;
    } catch (const Stopped&) {
      if (deadline.caller_stopped() || request_.time_limit <= 0) throw;
      return state.greedy_action();
    }
  }
  SearchRequest request = request_;
  request.seed = rng_.next();
  return best_move(state, request, stop, progress, spec_.reuse ? tree_.for_state(state) : nullptr).action;
}

}  // namespace nutcore::engine
