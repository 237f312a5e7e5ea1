// A small JSON value with a strict parser (RFC 8259) and a compact writer, for the cold path only
// (state_from_json / to_json, the engine protocol). Objects keep insertion order so output is
// canonical.
//
// Integers of any size parse: those of int64 are as_int's, those up to 2^64 - 1 also as_uint64's,
// and larger ones keep their text (range checks name them; they never wrap). Strings are UTF-8;
// a \u escape of a lone surrogate is kept as its 3-byte (WTF-8) form and written back as the same
// escape, so any string JSON can carry goes through unchanged.
#pragma once

#include <climits>
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
  static Json unsigned_integer(uint64_t u);
  static Json number(double d);
  static Json string(std::string s);
  static Json array();
  static Json object();
  static Json beyond(const std::string& text);  // an integer beyond uint64, by its text

  // Throws std::invalid_argument on malformed text. With `duplicates`, a key repeated in an object
  // is noted there (as "key" for the top-level object, "path.key" below it: the keys of the
  // objects on the way) and the last value kept; without, it is an error.
  static Json parse(const std::string& text, std::vector<std::string>* duplicates = nullptr);
  std::string dump() const;

  Type type() const { return type_; }
  bool is_null() const { return type_ == Type::kNull; }

  // Typed access: each throws std::invalid_argument naming `what` when the type differs.
  bool as_bool(const std::string& what) const;
  int64_t as_int(const std::string& what) const;  // also throws for an integer beyond int64
  // Integers: whether the value is one, whether it fits int64 / uint64, and its decimal text.
  bool is_integer() const { return type_ == Type::kInt; }
  bool fits_int64() const { return type_ == Type::kInt && range_ == Range::kInt64; }
  bool fits_uint64() const;
  uint64_t as_uint64() const;  // for fits_uint64() values
  std::string integer_text() const;
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
  enum class Range : uint8_t { kInt64, kUint64, kBeyond };
  Type type_ = Type::kNull;
  Range range_ = Range::kInt64;  // of an integer; kBeyond keeps its text in string_
  bool bool_ = false;
  int64_t int_ = 0;
  uint64_t uint_ = 0;
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

// Whether `text` is well-formed UTF-8 (no overlong forms, no surrogates, nothing past U+10FFFF);
// if not, where the first bad byte is.
bool valid_utf8(const std::string& text, size_t* bad_offset = nullptr);
// `text` as valid UTF-8 whatever it holds: each byte outside a well-formed sequence (and, with
// `controls`, each control character) as \xNN. Messages stay one line of valid UTF-8 that strict
// decoders (Rust's CStr::to_str, .NET's) and every door can carry.
std::string utf8_escaped(const std::string& text, bool controls = false);

// Strict readers for loaders; each throws std::invalid_argument naming `what`.
int json_int_in(const Json& v, const std::string& what, int lo, int hi);  // an integer in [lo, hi]
int name_index(const char* const* names, int count, const std::string& name, const std::string& what);

}  // namespace nutcore
