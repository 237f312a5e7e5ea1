// The trained networks built into the engine: python/nutcore/data/networks/<game>-<players>p.nnet,
// each made by `nutcore train` (docs/learning.md), turned by CMake into a byte array of
// generated/networks.inc, so that every door (Python, the C ABI, the binary) has them without
// reading a file. Each is read and checked once, at its first use.
#include <map>
#include <mutex>
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

}  // namespace nutcore::engine
