#pragma once
// A small streaming JSON writer: pretty-printed with two-space indents, keys in call order,
// strings escaped per RFC 8259.
#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace pmukit {

class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& os) : os_(os) {}

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  JsonWriter& key(std::string_view k);
  JsonWriter& value(std::string_view s);
  JsonWriter& value(const char* s) { return value(std::string_view(s)); }
  JsonWriter& value(std::uint64_t v);
  JsonWriter& value(unsigned v) { return value(std::uint64_t{v}); }
  JsonWriter& number(std::string_view digits);  // a number already formatted, e.g. "43.75"
  JsonWriter& value(bool v);
  JsonWriter& null();
  // Shorthands for "key": value.
  template <typename T>
  JsonWriter& field(std::string_view k, const T& v) {
    key(k);
    return value(v);
  }
  void finish() { os_ << '\n'; }

  static std::string escape(std::string_view s);

 private:
  JsonWriter& open(char c);
  JsonWriter& close(char c);
  void before_value();
  void newline();

  std::ostream& os_;
  std::vector<bool> has_items_;  // per open container
  bool after_key_ = false;
};

}  // namespace pmukit
