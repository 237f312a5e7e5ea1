#include "core/json.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace nutcore {

Json Json::boolean(bool b) {
  Json j;
  j.type_ = Type::kBool;
  j.bool_ = b;
  return j;
}
Json Json::integer(int64_t i) {
  Json j;
  j.type_ = Type::kInt;
  j.int_ = i;
  return j;
}
Json Json::unsigned_integer(uint64_t u) {
  if (u <= static_cast<uint64_t>(INT64_MAX)) return integer(static_cast<int64_t>(u));
  Json j;
  j.type_ = Type::kInt;
  j.range_ = Range::kUint64;
  j.uint_ = u;
  return j;
}
Json Json::number(double d) {
  Json j;
  j.type_ = Type::kDouble;
  j.double_ = d;
  return j;
}
Json Json::string(std::string s) {
  Json j;
  j.type_ = Type::kString;
  j.string_ = std::move(s);
  return j;
}
Json Json::array() {
  Json j;
  j.type_ = Type::kArray;
  return j;
}
Json Json::object() {
  Json j;
  j.type_ = Type::kObject;
  return j;
}

namespace {

[[noreturn]] void fail(const std::string& message) { throw std::invalid_argument(message); }

void append_utf8(std::string& out, unsigned code) {
  if (code < 0x80) {
    out += static_cast<char>(code);
  } else if (code < 0x800) {
    out += static_cast<char>(0xC0 | (code >> 6));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else if (code < 0x10000) {  // a lone surrogate too: its WTF-8 form, written back as \u
    out += static_cast<char>(0xE0 | (code >> 12));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (code >> 18));
    out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (code & 0x3F));
  }
}

class Parser {
 public:
  Parser(const std::string& text, std::vector<std::string>* duplicates) : text_(text), duplicates_(duplicates) {}

  Json parse_document() {
    Json value = parse_value(0, "");
    skip_space();
    if (pos_ != text_.size()) fail("JSON: trailing characters at offset " + std::to_string(pos_));
    return value;
  }

 private:
  static constexpr int kMaxDepth = 64;
  const std::string& text_;
  std::vector<std::string>* duplicates_;
  size_t pos_ = 0;

  void skip_space() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t'))
      ++pos_;
  }
  bool consume(const char* word) {
    size_t n = std::char_traits<char>::length(word);
    if (text_.compare(pos_, n, word) != 0) return false;
    pos_ += n;
    return true;
  }
  char peek() {
    skip_space();
    if (pos_ >= text_.size()) fail("JSON: unexpected end of text");
    return text_[pos_];
  }

  Json parse_value(int depth, const std::string& path) {
    if (depth > kMaxDepth) fail("JSON: nested too deeply");
    char c = peek();
    if (c == '{') return parse_object(depth, path);
    if (c == '[') return parse_array(depth, path);
    if (c == '"') return Json::string(parse_string());
    if (consume("true")) return Json::boolean(true);
    if (consume("false")) return Json::boolean(false);
    if (consume("null")) return Json::null();
    return parse_number();
  }

  Json parse_object(int depth, const std::string& path) {
    Json obj = Json::object();
    ++pos_;
    if (peek() == '}') {
      ++pos_;
      return obj;
    }
    for (;;) {
      if (peek() != '"') fail("JSON: expected a key at offset " + std::to_string(pos_));
      std::string key = parse_string();
      const std::string key_path = path.empty() ? key : path + "." + key;
      if (obj.find(key)) {
        if (!duplicates_) fail("JSON: duplicate key \"" + key + "\"");
        duplicates_->push_back(key_path);
      }
      if (peek() != ':') fail("JSON: expected ':' at offset " + std::to_string(pos_));
      ++pos_;
      obj.set(key, parse_value(depth + 1, key_path));
      char c = peek();
      ++pos_;
      if (c == '}') return obj;
      if (c != ',') fail("JSON: expected ',' or '}' at offset " + std::to_string(pos_ - 1));
    }
  }

  Json parse_array(int depth, const std::string& path) {
    Json arr = Json::array();
    ++pos_;
    if (peek() == ']') {
      ++pos_;
      return arr;
    }
    for (;;) {
      arr.push(parse_value(depth + 1, path + "[]"));
      char c = peek();
      ++pos_;
      if (c == ']') return arr;
      if (c != ',') fail("JSON: expected ',' or ']' at offset " + std::to_string(pos_ - 1));
    }
  }

  unsigned hex4() {
    if (pos_ + 4 > text_.size()) fail("JSON: bad \\u escape");
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text_[pos_++];
      code <<= 4;
      if (h >= '0' && h <= '9')
        code |= h - '0';
      else if (h >= 'a' && h <= 'f')
        code |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F')
        code |= h - 'A' + 10;
      else
        fail("JSON: bad \\u escape");
    }
    return code;
  }

  std::string parse_string() {
    ++pos_;  // opening quote
    std::string out;
    while (pos_ < text_.size()) {
      char c = text_[pos_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("JSON: control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) break;
      char e = text_[pos_++];
      switch (e) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          unsigned code = hex4();
          // A high surrogate followed by an escaped low one is one code point; any other
          // surrogate stands alone (JSON allows it) and is kept as such.
          if (code >= 0xD800 && code <= 0xDBFF && pos_ + 6 <= text_.size() && text_[pos_] == '\\' &&
              text_[pos_ + 1] == 'u') {
            const size_t back = pos_;
            pos_ += 2;
            const unsigned low = hex4();
            if (low >= 0xDC00 && low <= 0xDFFF)
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
            else
              pos_ = back;
          }
          append_utf8(out, code);
          break;
        }
        default:
          fail("JSON: bad escape");
      }
    }
    fail("JSON: unterminated string");
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  // RFC 8259: -? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?
  Json parse_number() {
    const size_t start = pos_;
    const auto bad = [&] { fail("JSON: unexpected character at offset " + std::to_string(start)); };
    if (pos_ < text_.size() && text_[pos_] == '-') ++pos_;
    if (pos_ >= text_.size() || !digit(text_[pos_])) bad();
    if (text_[pos_] == '0')
      ++pos_;
    else
      while (pos_ < text_.size() && digit(text_[pos_])) ++pos_;
    bool is_integer = true;
    if (pos_ < text_.size() && text_[pos_] == '.') {
      is_integer = false;
      ++pos_;
      if (pos_ >= text_.size() || !digit(text_[pos_])) bad();
      while (pos_ < text_.size() && digit(text_[pos_])) ++pos_;
    }
    if (pos_ < text_.size() && (text_[pos_] == 'e' || text_[pos_] == 'E')) {
      is_integer = false;
      ++pos_;
      if (pos_ < text_.size() && (text_[pos_] == '+' || text_[pos_] == '-')) ++pos_;
      if (pos_ >= text_.size() || !digit(text_[pos_])) bad();
      while (pos_ < text_.size() && digit(text_[pos_])) ++pos_;
    }
    std::string token = text_.substr(start, pos_ - start);
    // As Python's int() refuses: a longer integer is a denial of service, never data.
    if (is_integer && token.size() > 4300) fail("JSON: an integer of more than 4300 digits");
    if (is_integer) return integer_from_text(token);
    char* end = nullptr;
    double d = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size() || !std::isfinite(d)) fail("JSON: number out of range: " + token);
    return Json::number(d);
  }

  static Json integer_from_text(const std::string& token) {
    const bool negative = token[0] == '-';
    const std::string digits = negative ? token.substr(1) : token;
    // Up to 2^64 - 1 (20 digits) in a uint64; more digits, or more than that, keep their text.
    if (digits.size() <= 20) {
      uint64_t magnitude = 0;
      bool overflow = false;
      for (char c : digits) {
        const uint64_t d = static_cast<uint64_t>(c - '0');
        if (magnitude > (UINT64_MAX - d) / 10) overflow = true;
        magnitude = magnitude * 10 + d;
      }
      if (!overflow) {
        if (!negative) return Json::unsigned_integer(magnitude);
        if (magnitude <= static_cast<uint64_t>(INT64_MAX) + 1)
          return Json::integer(magnitude == static_cast<uint64_t>(INT64_MAX) + 1 ? INT64_MIN
                                                                                 : -static_cast<int64_t>(magnitude));
      }
    }
    return Json::beyond(token);
  }
};

const char* type_name(Json::Type t) {
  switch (t) {
    case Json::Type::kNull:
      return "null";
    case Json::Type::kBool:
      return "a boolean";
    case Json::Type::kInt:
      return "an integer";
    case Json::Type::kDouble:
      return "a number";
    case Json::Type::kString:
      return "a string";
    case Json::Type::kArray:
      return "a list";
    case Json::Type::kObject:
      return "an object";
  }
  return "?";
}

[[noreturn]] void wrong_type(const std::string& what, const char* wanted, Json::Type got) {
  fail(what + ": expected " + wanted + ", got " + type_name(got));
}

}  // namespace

Json Json::parse(const std::string& text, std::vector<std::string>* duplicates) {
  return Parser(text, duplicates).parse_document();
}

Json Json::beyond(const std::string& text) {
  Json j;
  j.type_ = Type::kInt;
  j.range_ = Range::kBeyond;
  j.string_ = text;
  return j;
}

bool Json::fits_uint64() const {
  return type_ == Type::kInt && (range_ == Range::kUint64 || (range_ == Range::kInt64 && int_ >= 0));
}
uint64_t Json::as_uint64() const { return range_ == Range::kUint64 ? uint_ : static_cast<uint64_t>(int_); }
std::string Json::integer_text() const {
  if (range_ == Range::kBeyond) return string_;
  return range_ == Range::kUint64 ? std::to_string(uint_) : std::to_string(int_);
}

bool Json::as_bool(const std::string& what) const {
  if (type_ != Type::kBool) wrong_type(what, "a boolean", type_);
  return bool_;
}
int64_t Json::as_int(const std::string& what) const {
  if (type_ != Type::kInt) wrong_type(what, "an integer", type_);
  if (range_ != Range::kInt64) fail(what + ": integer out of range: " + integer_text());
  return int_;
}
double Json::as_number(const std::string& what) const {
  if (type_ == Type::kInt) {
    if (range_ == Range::kUint64) return static_cast<double>(uint_);
    if (range_ == Range::kBeyond) fail(what + ": number out of range: " + string_);
    return static_cast<double>(int_);
  }
  if (type_ != Type::kDouble) wrong_type(what, "a number", type_);
  return double_;
}
const std::string& Json::as_string(const std::string& what) const {
  if (type_ != Type::kString) wrong_type(what, "a string", type_);
  return string_;
}
const std::vector<Json>& Json::as_array(const std::string& what) const {
  if (type_ != Type::kArray) wrong_type(what, "a list", type_);
  return array_;
}
const std::vector<std::pair<std::string, Json>>& Json::items(const std::string& what) const {
  if (type_ != Type::kObject) wrong_type(what, "an object", type_);
  return object_;
}

Json& Json::push(Json value) {
  array_.push_back(std::move(value));
  return array_.back();
}
Json& Json::set(const std::string& key, Json value) {
  for (auto& kv : object_)
    if (kv.first == key) return kv.second = std::move(value);
  object_.emplace_back(key, std::move(value));
  return object_.back().second;
}
const Json* Json::find(const std::string& key) const {
  for (const auto& kv : object_)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

std::string Json::dump() const {
  std::string out;
  dump_to(out);
  return out;
}

void Json::dump_to(std::string& out) const {
  switch (type_) {
    case Type::kNull:
      out += "null";
      break;
    case Type::kBool:
      out += bool_ ? "true" : "false";
      break;
    case Type::kInt:
      out += integer_text();
      break;
    case Type::kDouble: {
      // The shortest text that reads back as the same double, always with a '.' or an exponent so
      // that it stays a float on the Python side (as json.dumps writes it).
      char buf[40];
      for (int precision = 15; precision <= 17; ++precision) {
        std::snprintf(buf, sizeof buf, "%.*g", precision, double_);
        if (std::strtod(buf, nullptr) == double_) break;
      }
      out += buf;
      if (!std::strpbrk(buf, ".eEn")) out += ".0";
      break;
    }
    case Type::kString:
      out += '"';
      for (size_t i = 0; i < string_.size(); ++i) {
        const char c = string_[i];
        const auto u = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
          out += '\\';
          out += c;
        } else if (c == '\n')
          out += "\\n";
        else if (u < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(c));
          out += buf;
        } else if (u == 0xED && i + 2 < string_.size() && (static_cast<unsigned char>(string_[i + 1]) & 0xE0) == 0xA0) {
          // A lone surrogate (WTF-8), which UTF-8 cannot carry: its escape, as it came.
          const unsigned code = 0xD000 | ((static_cast<unsigned char>(string_[i + 1]) & 0x3F) << 6) |
                                (static_cast<unsigned char>(string_[i + 2]) & 0x3F);
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", code);
          out += buf;
          i += 2;
        } else
          out += c;
      }
      out += '"';
      break;
    case Type::kArray:
      out += '[';
      for (size_t i = 0; i < array_.size(); ++i) {
        if (i) out += ',';
        array_[i].dump_to(out);
      }
      out += ']';
      break;
    case Type::kObject:
      out += '{';
      for (size_t i = 0; i < object_.size(); ++i) {
        if (i) out += ',';
        Json::string(object_[i].first).dump_to(out);
        out += ':';
        object_[i].second.dump_to(out);
      }
      out += '}';
      break;
  }
}

JsonObjectReader::JsonObjectReader(const Json& object, std::string what) : object_(object), what_(std::move(what)) {
  object_.items(what_);  // type check
}

const Json& JsonObjectReader::get(const std::string& key) {
  const Json* value = object_.find(key);
  if (!value) fail(what_ + ": missing key \"" + key + "\"");
  seen_.push_back(key);
  return *value;
}

const Json* JsonObjectReader::find(const std::string& key) {
  seen_.push_back(key);
  return object_.find(key);
}

void JsonObjectReader::finish() const {
  for (const auto& kv : object_.items(what_))
    if (std::find(seen_.begin(), seen_.end(), kv.first) == seen_.end())
      fail(what_ + ": unknown key \"" + kv.first + "\"");
}

namespace {

// The length of the well-formed UTF-8 sequence at p[i] (no overlong forms, no surrogates, nothing
// past U+10FFFF; Unicode's table 3-7), or 0 if there is none.
size_t utf8_sequence(const unsigned char* p, size_t n, size_t i) {
  const unsigned c = p[i];
  size_t len = 0;
  unsigned lo = 0x80, hi = 0xBF;  // the range of the second byte
  if (c < 0x80)
    return 1;
  else if (c >= 0xC2 && c <= 0xDF)
    len = 2;
  else if (c == 0xE0) {
    len = 3;
    lo = 0xA0;
  } else if (c == 0xED) {
    len = 3;
    hi = 0x9F;
  }  // no surrogates
  else if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF)
    len = 3;
  else if (c == 0xF0) {
    len = 4;
    lo = 0x90;
  } else if (c >= 0xF1 && c <= 0xF3)
    len = 4;
  else if (c == 0xF4) {
    len = 4;
    hi = 0x8F;
  }
  if (len == 0 || i + len > n) return 0;
  for (size_t k = 1; k < len; ++k) {
    const unsigned b = p[i + k];
    if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return 0;
  }
  return len;
}

}  // namespace

bool valid_utf8(const std::string& text, size_t* bad_offset) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  for (size_t i = 0; i < text.size();) {
    const size_t len = utf8_sequence(p, text.size(), i);
    if (len == 0) {
      if (bad_offset) *bad_offset = i;
      return false;
    }
    i += len;
  }
  return true;
}

std::string utf8_escaped(const std::string& text, bool controls) {
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  std::string out;
  for (size_t i = 0; i < text.size();) {
    const size_t len = utf8_sequence(p, text.size(), i);
    if (len > 0 && !(controls && len == 1 && (p[i] < 0x20 || p[i] == 0x7f))) {
      out.append(text, i, len);
      i += len;
    } else {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", p[i]);
      out += hex;
      ++i;
    }
  }
  return out;
}

int json_int_in(const Json& v, const std::string& what, int lo, int hi) {
  if (v.is_integer() && !v.fits_int64())
    fail(what + " = " + v.integer_text() + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  const int64_t x = v.as_int(what);
  if (x < lo || x > hi)
    fail(what + " = " + std::to_string(x) + " is outside " + std::to_string(lo) + ".." + std::to_string(hi));
  return static_cast<int>(x);
}

int name_index(const char* const* names, int count, const std::string& name, const std::string& what) {
  for (int i = 0; i < count; ++i)
    if (name == names[i]) return i;
  fail(what + ": unknown name \"" + name + "\"");
}

}  // namespace nutcore
