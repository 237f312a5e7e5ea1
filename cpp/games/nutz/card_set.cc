// Nutz!'s card set: reading one from JSON (python/nutcore/data/nutz_cards.json's form, checked
// entry by entry), the built-in default, and writing one back.
#include <stdexcept>
#include <string>

#include "games/nutz/nutz.h"

namespace nutcore::nutz {

namespace {

// The default card set: the package's data file, built in by CMake (generated/data/).
const char kDefaultCards[] =
#include "data/nutz_cards.json.inc"
    ;

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

const char* const kTargetNames[] = {"self", "others", "everyone"};

bool good_kind_name(const std::string& name) {
  if (name.empty() || name.size() > 16) return false;
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace

int int_in(const Json& v, const std::string& what, int lo, int hi) {
  if (v.type() != Json::Type::kInt) fail(what + " must be an integer");
  const int64_t x = v.as_int(what);
  if (x < lo || x > hi)
    fail(what + " must be " + std::to_string(lo) + ".." + std::to_string(hi) + ", not " + std::to_string(x));
  return static_cast<int>(x);
}

CardSet CardSet::from_json(const Json& j) {
  const std::string top = "nutz: cards";
  if (j.type() != Json::Type::kObject) fail(top + ": a card set is an object");
  CardSet set;
  JsonObjectReader r(j, top);
  if (const Json* name = r.find("name")) {
    if (name->type() != Json::Type::kString) fail(top + ": name must be a string");
    set.name = name->as_string("name");
    if (set.name.size() > 80) fail(top + ": name has more than 80 characters");
  }
  const Json& kinds = r.get("kinds");
  r.finish();
  if (kinds.type() != Json::Type::kArray) fail(top + ": kinds must be a list");
  const auto& list = kinds.as_array("kinds");
  if (list.empty() || list.size() > kMaxKinds) fail(top + ": kinds must list 1..10 kinds");
  // The predators' `of` names are resolved once every kind is known.
  std::vector<std::vector<std::string>> of_names(list.size());
  int total = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    std::string where = top + ": kinds[" + std::to_string(i) + "]";
    if (list[i].type() != Json::Type::kObject) fail(where + " must be an object");
    JsonObjectReader k(list[i], where);
    Kind kind;
    const Json& name = k.get("name");
    if (name.type() != Json::Type::kString || !good_kind_name(name.as_string("name")))
      fail(where + ": name must be 1..16 characters from a-z, 0-9 and _");
    kind.name = name.as_string("name");
    where += " (" + kind.name + ")";
    for (size_t m = 0; m < i; ++m)
      if (set.kinds[m].name == kind.name) fail(where + ": two kinds are called \"" + kind.name + "\"");
    const Json* score = k.find("score");
    const Json* predator = k.find("predator");
    if ((score != nullptr) == (predator != nullptr)) fail(where + ": give exactly one of score and predator");
    if (score) {
      const std::string w = where + ": score";
      if (score->type() != Json::Type::kObject) fail(w + " must be an object");
      JsonObjectReader sr(*score, w);
      if (const Json* each = sr.find("each")) {
        kind.score = Kind::Score::kEach;
        kind.each = int_in(*each, w + ": each", 0, 20);
      } else if (const Json* table = sr.find("set")) {
        kind.score = Kind::Score::kSet;
        if (table->type() != Json::Type::kArray) fail(w + ": set must be a list");
        const auto& entries = table->as_array("set");
        if (entries.empty() || entries.size() > 10) fail(w + ": set must have 1..10 entries");
        for (size_t e = 0; e < entries.size(); ++e)
          kind.table.push_back(int_in(entries[e], w + ": set[" + std::to_string(e) + "]", 0, 100));
        if (const Json* beyond = sr.find("beyond")) kind.beyond = int_in(*beyond, w + ": beyond", 0, 50);
      } else if (const Json* group = sr.find("groups")) {
        kind.score = Kind::Score::kGroups;
        kind.group = int_in(*group, w + ": groups", 1, 10);
        const Json* points = sr.find("points");
        if (!points) fail(w + ": groups needs points");
        kind.group_points = int_in(*points, w + ": points", 0, 100);
      } else {
        fail(w + ": must be {\"each\": P}, {\"set\": [...], \"beyond\": B} or {\"groups\": G, \"points\": P}");
      }
      sr.finish();
    } else {
      const std::string w = where + ": predator";
      kind.food = false;
      if (predator->type() != Json::Type::kObject) fail(w + " must be an object");
      JsonObjectReader pr(*predator, w);
      const Json& discard = pr.get("discard");
      if (discard.type() != Json::Type::kString ||
          (discard.as_string("") != "highest" && discard.as_string("") != "all"))
        fail(w + ": discard must be \"highest\" or \"all\"");
      kind.discard_all = discard.as_string("") == "all";
      if (!kind.discard_all) {
        const Json* count = pr.find("count");
        if (!count) fail(w + ": discard \"highest\" needs a count");
        kind.count = int_in(*count, w + ": count", 1, 10);
      }
      const Json& of = pr.get("of");
      if (of.type() != Json::Type::kArray || of.as_array("").empty() || of.as_array("").size() > kMaxKinds)
        fail(w + ": of must list 1..10 food kinds");
      for (const Json& x : of.as_array("")) {
        if (x.type() != Json::Type::kString) fail(w + ": of must list kind names");
        of_names[i].push_back(x.as_string(""));
      }
      const Json& target = pr.get("target");
      if (target.type() != Json::Type::kString) fail(w + ": target must be \"self\", \"others\" or \"everyone\"");
      bool found = false;
      for (int t = 0; t < 3; ++t)
        if (target.as_string("") == kTargetNames[t]) {
          kind.target = static_cast<Kind::Target>(t);
          found = true;
        }
      if (!found) fail(w + ": target must be \"self\", \"others\" or \"everyone\"");
      pr.finish();
    }
    const Json& cards = k.get("cards");
    if (cards.type() != Json::Type::kArray || cards.as_array("").empty() || cards.as_array("").size() > 4)
      fail(where + ": cards must list 1..4 groups");
    const auto& groups = cards.as_array("");
    for (size_t g = 0; g < groups.size(); ++g) {
      const std::string w = where + ": cards[" + std::to_string(g) + "]";
      if (groups[g].type() != Json::Type::kObject) fail(w + " must be an object");
      JsonObjectReader gr(groups[g], w);
      Kind::Group group;
      group.count = int_in(gr.get("count"), w + ": count", 1, 60);
      if (const Json* moons = gr.find("moons")) group.moons = int_in(*moons, w + ": moons", 0, 3);
      if (const Json* mark = gr.find("three_plus")) {
        if (mark->type() != Json::Type::kBool) fail(w + ": three_plus must be true or false");
        group.three_plus = mark->as_bool("");
      }
      gr.finish();
      total += group.count;
      kind.groups.push_back(group);
    }
    k.finish();
    set.kinds.push_back(kind);
  }
  for (size_t i = 0; i < list.size(); ++i) {
    Kind& kind = set.kinds[i];
    const std::string where = top + ": kinds[" + std::to_string(i) + "] (" + kind.name + "): predator";
    for (const std::string& name : of_names[i]) {
      int found = -1;
      for (size_t m = 0; m < set.kinds.size(); ++m)
        if (set.kinds[m].name == name) found = static_cast<int>(m);
      if (found < 0 || !set.kinds[found].food) fail(where + ": 'of' names '" + name + "' which is not a food kind");
      if (std::find(kind.of.begin(), kind.of.end(), found) != kind.of.end())
        fail(where + ": 'of' names '" + name + "' twice");
      if (!kind.discard_all && set.kinds[found].score != Kind::Score::kEach)
        fail(where + ": discard \"highest\" needs kinds scored \"each\", and '" + name + "' is not");
      kind.of.push_back(found);
    }
  }
  if (total > 240) fail(top + ": at most 240 cards, not " + std::to_string(total));
  return set;
}

CardSet CardSet::default_set() { return from_json(Json::parse(kDefaultCards)); }

Json CardSet::to_json() const {
  Json j = Json::object();
  j.set("name", Json::string(name));
  Json kinds_json = Json::array();
  for (const Kind& k : kinds) {
    Json kj = Json::object();
    kj.set("name", Json::string(k.name));
    if (k.food) {
      Json score = Json::object();
      if (k.score == Kind::Score::kEach) {
        score.set("each", Json::integer(k.each));
      } else if (k.score == Kind::Score::kSet) {
        Json table = Json::array();
        for (int x : k.table) table.push(Json::integer(x));
        score.set("set", table);
        score.set("beyond", Json::integer(k.beyond));
      } else {
        score.set("groups", Json::integer(k.group));
        score.set("points", Json::integer(k.group_points));
      }
      kj.set("score", score);
    } else {
      Json pred = Json::object();
      pred.set("discard", Json::string(k.discard_all ? "all" : "highest"));
      if (!k.discard_all) pred.set("count", Json::integer(k.count));
      Json of = Json::array();
      for (int x : k.of) of.push(Json::string(kinds[x].name));
      pred.set("of", of);
      pred.set("target", Json::string(kTargetNames[static_cast<int>(k.target)]));
      kj.set("predator", pred);
    }
    Json groups = Json::array();
    for (const Kind::Group& g : k.groups) {
      Json gj = Json::object();
      gj.set("count", Json::integer(g.count));
      gj.set("moons", Json::integer(g.moons));
      gj.set("three_plus", Json::boolean(g.three_plus));
      groups.push(gj);
    }
    kj.set("cards", groups);
    kinds_json.push(kj);
  }
  j.set("kinds", kinds_json);
  return j;
}

}  // namespace nutcore::nutz
