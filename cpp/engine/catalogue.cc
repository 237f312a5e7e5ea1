// The catalogue of games (catalogue.h) and the one reader of the JSON files that game parameters
// may name.
#include "engine/catalogue.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "engine/any.h"
#include "engine/bots.h"

namespace nutcore::engine {

namespace {

// A path as a message shows it: quoted, on one line of valid UTF-8.
std::string shown_path(const std::string& path) { return "'" + utf8_escaped(path, true) + "'"; }

bool is_data(const Json* v) { return v && (v->type() == Json::Type::kArray || v->type() == Json::Type::kObject); }

Json strings(const std::vector<std::string>& items) {
  Json out = Json::array();
  for (const std::string& s : items) out.push(Json::string(s));
  return out;
}

}  // namespace

Json read_json_file(const std::string& path, const std::string& what) {
  const std::string shown = shown_path(path);
  // The system would read the path only up to its first NUL: a different file from the one named.
  if (path.find('\0') != std::string::npos)
    throw std::invalid_argument(what + ": " + shown + " is not a path (it holds a NUL byte)");
  // O_NONBLOCK: opening a FIFO must not wait for a writer (it is refused below).
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw std::invalid_argument(what + ": cannot read " + shown + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw std::invalid_argument(what + ": " + shown + " is not a regular file");
  std::string data;
  char buf[65536];
  while (data.size() <= kMaxJsonFileBytes) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) throw std::invalid_argument(what + ": cannot read " + shown + ": " + std::strerror(errno));
    if (n == 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  if (data.size() > kMaxJsonFileBytes)
    throw std::invalid_argument(what + ": " + shown + " is larger than " + std::to_string(kMaxJsonFileBytes) +
                                " bytes");
  if (!valid_utf8(data)) throw std::invalid_argument(what + ": " + shown + " is not UTF-8 text");
  try {
    return Json::parse(data);
  } catch (const std::invalid_argument& e) {
    std::string why = e.what();
    if (why == "JSON: nested too deeply")
      throw std::invalid_argument(what + ": " + shown + ": the JSON is nested too deeply");
    throw std::invalid_argument(what + ": " + shown + " is not valid JSON: " + why);
  }
}

const Json& catalogue_entry(const std::string& game) {
  for (const Json& g : game_catalogue().as_array("catalogue"))
    if (g.find("name")->as_string("name") == game) return g;
  throw std::invalid_argument("unknown game '" + game + "'");
}

const Json* default_params(const std::string& game, int players) {
  for (const Json& d : catalogue_entry(game).find("default_params")->as_array("default_params"))
    if (d.find("players")->as_int("players") == players) return &d;
  return nullptr;
}

void read_file_params(const std::string& game, Json& params) {
  const Json* players = params.find("players");
  const int n = players && players->fits_int64() ? static_cast<int>(players->as_int("players")) : 2;
  const Json* defaults = default_params(game, n);
  if (!defaults) return;  // a bad player count: the loader says so
  Json out = Json::object();
  for (const auto& [key, value] : params.items("params")) {
    if (value.type() == Json::Type::kString && is_data(defaults->find(key)))
      out.set(key, read_json_file(value.as_string(key), game + ": " + key));
    else
      out.set(key, value);
  }
  params = out;
}

const Json& game_catalogue() {
  // Built once: some games compute tables when loaded.
  static const Json catalogue = [] {
    Json games = Json::array();
    for (const GameInfo& info : game_infos()) {
      Json g = Json::object();
      g.set("name", Json::string(info.name));
      g.set("title", Json::string(info.title));
      Json players = Json::object();
      players.set("min", Json::integer(info.min_players));
      players.set("max", Json::integer(info.max_players));
      g.set("players", players);
      g.set("hidden_information", Json::boolean(info.hidden_information));
      g.set("memory_aids", Json::boolean(info.memory_aids));
      Json algorithms = Json::array();
      algorithms.push(Json::string("auto"));
      for (int i = 0; i < kNumAlgorithms; ++i)
        if (info.algorithms.has(static_cast<Algorithm>(i))) algorithms.push(Json::string(kAlgorithmNames[i]));
      g.set("algorithms", algorithms);
      Json defaults = Json::array();
      for (int n = info.min_players; n <= info.max_players; ++n) {
        Json params = Json::object();
        params.set("players", Json::integer(n));
        defaults.push(load_game(info.name, params)->params_json());
      }
      g.set("default_params", defaults);
      // What a front end may offer (bots.h), so that none re-derives the engine's choices.
      g.set("default_bot", Json::string(default_bot(info.name)));
      g.set("bots", strings(example_bots(info.name)));
      Json levels = Json::array();
      for (const OfferedLevel& level : level_bots(info.name)) {
        Json l = Json::object();
        l.set("bot", Json::string(level.bot));
        l.set("plays", Json::string(level.plays));
        levels.push(l);
      }
      g.set("levels", levels);
      games.push(g);
    }
    return games;
  }();
  return catalogue;
}

}  // namespace nutcore::engine
