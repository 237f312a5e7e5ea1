// The trained networks built into the engine: python/nutcore/data/networks/<game>-<players>p.nnet,
// each made by `nutcore train` (docs/learning.md), turned by CMake into a byte array of
// generated/networks.inc, so that every door (Python, the C ABI, the binary) has them without
// reading a file. Each is read and checked once, at its first use.
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/any.h"
#include "search/network.h"

namespace nutcore::engine {

namespace {

// NUTCORE_NETWORK(name, symbol, bytes...): one file's name ("nutz-2p") and its bytes.
#define NUTCORE_NETWORK(name, symbol, ...) const unsigned char symbol[] = {__VA_ARGS__};
#include "networks.inc"
#undef NUTCORE_NETWORK

struct Entry {
  const char* name;
  const unsigned char* bytes;
  size_t size;
};
const std::vector<Entry>& entries() {
#define NUTCORE_NETWORK(name, symbol, ...) {name, symbol, sizeof(symbol)},
  static const std::vector<Entry> list = {
#include "networks.inc"
  };
#undef NUTCORE_NETWORK
  return list;
}

}  // namespace

std::vector<std::string> shipped_networks() {
  std::vector<std::string> names;
  for (const Entry& e : entries()) names.push_back(e.name);
  return names;
}

std::shared_ptr<const Network> shipped_network(const std::string& game, int players) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const Network>> loaded;
  const std::string name = game + "-" + std::to_string(players) + "p";
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = loaded.find(name); it != loaded.end()) return it->second;
  for (const Entry& e : entries()) {
    if (name != e.name) continue;
    auto net = std::make_shared<const Network>(
        Network::from_bytes(std::string(reinterpret_cast<const char*>(e.bytes), e.size)));
    if (net->game() != game || net->players() != players)
      throw std::logic_error("the built-in network " + name + " is for " + net->game() + " at " +
                             std::to_string(net->players()) + " players");
    return loaded[name] = net;
  }
  return nullptr;
}

std::shared_ptr<Network> load_network(const std::string& bytes) {
  auto net = std::make_shared<Network>(Network::from_bytes(bytes));
  const GameInfo* info = nullptr;
  std::string known;
  for (const GameInfo& g : game_infos()) {
    if (g.name == net->game()) info = &g;
    known += (known.empty() ? "'" : ", '") + g.name + "'";
  }
  if (!info)
    throw std::invalid_argument("network: its header names the game '" + net->game() + "', not one of [" + known + "]");
  if (net->players() < info->min_players || net->players() > info->max_players)
    throw std::invalid_argument("network: its header says " + std::to_string(net->players()) + " players; " +
                                info->name + " is played by " + std::to_string(info->min_players) + " to " +
                                std::to_string(info->max_players));
  return net;
}

}  // namespace nutcore::engine
