// A small JSON value with a strict parser and a compact writer, for the cold path only
// (state_from_json / to_json). Objects keep insertion order so output is canonical.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace nutcore {

class Json {
 public:
  enum class Type { kNull, kBool, kInt, kDouble, kString, kArray, kObject };

  Json() = default;
  static Json null() { return Json(); }
  static Json boolean(bool b);
  static Json integer(int64_t i);
  static Json number(double d);
  static Json string(std::string s);
  static Json array();
  static Json object();

  // Throws std::invalid_argument on malformed text.
  static Json parse(const std::string& text);
  std::string dump() const;

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }

  // Typed access: each throws std::invalid_argument naming `what` when the type differs.
  bool as_bool(const std::string& what) const;
  int64_t as_int(const std::string& what) const;
  double as_number(const std::string& what) const;  // an integer or a number
  const std::string& as_string(const std::string& what) const;
  const std::vector<Json>& as_array(const std::string& what) const;

  // Arrays.
  Json& push(Json value);
  // Objects.
  Json& set(const std::string& key, Json value);
  const Json* find(const std::string& key) const;
  const std::vector<std::pair<std::string, Json>>& items(const std::string& what) const;

 private:
  Type type_ = Type::kNull;
  bool bool_ = false;
  int64_t int_ = 0;
  double double_ = 0.0;
  std::string string_;
  std::vector<Json> array_;
  std::vector<std::pair<std::string, Json>> object_;
  void dump_to(std::string& out) const;
};

// Reads an object with exactly the expected keys: get() throws for a missing key, and
// finish() throws for any key that was never asked for.
class JsonObjectReader {
 public:
  JsonObjectReader(const Json& object, std::string what);
  const Json& get(const std::string& key);
  const Json* find(const std::string& key);  // an optional key: nullptr when absent
  void finish() const;

 private:
  const Json& object_;
  std::string what_;
  std::vector<std::string> seen_;
};

// Strict readers for loaders; each throws std::invalid_argument naming `what`.
int json_int_in(const Json& v, const std::string& what, int lo, int hi);  // an integer in [lo, hi]
int name_index(const char* const* names, int count, const std::string& name, const std::string& what);

}  // namespace nutcore
