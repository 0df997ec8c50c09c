#pragma once
// The conformance images' report (examples/<board>/*_silicon_check.cpp, docs/silicon.md): one line
// per rule the PMU's model encodes, checked on the part the image runs on, in a form a person pastes
// into a report and `pmukit conformance LOG` reads back:
//
//   @PMUCHECK <pmu> BEGIN part=<...>
//   @PMUCHECK <pmu> <rule> <PASS|FAIL|ANSWER|SKIP> observed=<...> expected=<...> ref="<manual section>"
//   @PMUCHECK <pmu> END <n> passed <n> failed <n> answers <n> skipped
//
// PASS/FAIL: the part follows (or breaks) a rule the manual states and the model encodes. ANSWER:
// an open question (a hal/<pmu>/README.md OPEN item) or a figure the manual leaves to the part (the
// interrupt's skid); `observed` says which reading the part follows, `expected` lists the readings.
// SKIP: the rule cannot be checked here (no such hardware, a precondition failed); `observed` says
// why. Values are single tokens; a value with a space is written in double quotes (never one inside).
#include <cstddef>
#include <cstdint>

#include "examples/common/console.hpp"

namespace examples {

// A short text built without printf: the observed and expected values of one row.
class Text {
 public:
  Text() = default;
  Text(const char* s) { put(s); }  // NOLINT: a literal is a Text
  Text& put(const char* s) {
    while (*s && n_ + 1 < sizeof buf_) buf_[n_++] = *s++;
    buf_[n_] = 0;
    return *this;
  }
  Text& dec(std::uint64_t v) {
    char d[21];
    std::size_t k = 0;
    do {
      d[k++] = static_cast<char>('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (k && n_ + 1 < sizeof buf_) buf_[n_++] = d[--k];
    buf_[n_] = 0;
    return *this;
  }
  // 0x and `digits` lower-case nibbles.
  Text& hex(std::uint64_t v, unsigned digits = 8) {
    static constexpr char kDigits[] = "0123456789abcdef";
    put("0x");
    for (unsigned i = digits; i-- > 0 && n_ + 1 < sizeof buf_;) buf_[n_++] = kDigits[(v >> (4 * i)) & 0xF];
    buf_[n_] = 0;
    return *this;
  }
  const char* c_str() const { return buf_; }
  bool has_space() const {
    for (std::size_t i = 0; i < n_; ++i)
      if (buf_[i] == ' ') return true;
    return false;
  }

 private:
  char buf_[112] = {};
  std::size_t n_ = 0;
};

class SiliconCheck {
 public:
  enum class Verdict { pass, fail, answer, skip };

  // Prints the BEGIN line: `pmu` is the hal/<pmu> name, `part` what the image found (a token).
  SiliconCheck(const Console& out, const char* pmu, const Text& part) : out_(out), pmu_(pmu) {
    out_.put("@PMUCHECK ");
    out_.put(pmu_);
    out_.put(" BEGIN part=");
    value(part);
    out_.put('\n');
  }

  void row(const char* rule, Verdict v, const Text& observed, const Text& expected, const char* ref) {
    static constexpr const char* kName[] = {"PASS", "FAIL", "ANSWER", "SKIP"};
    out_.put("@PMUCHECK ");
    out_.put(pmu_);
    out_.put(' ');
    out_.put(rule);
    out_.put(' ');
    out_.put(kName[static_cast<int>(v)]);
    out_.put(" observed=");
    value(observed);
    out_.put(" expected=");
    value(expected);
    out_.put(" ref=\"");
    out_.put(ref);
    out_.put("\"\n");
    ++count_[static_cast<int>(v)];
  }
  // PASS when ok, else FAIL.
  void rule(const char* rule, bool ok, const Text& observed, const Text& expected, const char* ref) {
    row(rule, ok ? Verdict::pass : Verdict::fail, observed, expected, ref);
  }
  void answer(const char* rule, const Text& observed, const Text& readings, const char* ref) {
    row(rule, Verdict::answer, observed, readings, ref);
  }
  void skip(const char* rule, const Text& why, const char* ref) { row(rule, Verdict::skip, why, "-", ref); }

  int failed() const { return count_[1]; }

  // Prints the END line; the image's exit status is then board-specific (0 when failed() == 0).
  void finish() {
    out_.put("@PMUCHECK ");
    out_.put(pmu_);
    out_.put(" END ");
    out_.dec(count_[0]);
    out_.put(" passed ");
    out_.dec(count_[1]);
    out_.put(" failed ");
    out_.dec(count_[2]);
    out_.put(" answers ");
    out_.dec(count_[3]);
    out_.put(" skipped\n");
  }

 private:
  void value(const Text& t) const {
    const bool quote = t.has_space() || t.c_str()[0] == 0;
    if (quote) out_.put('"');
    out_.put(t.c_str());
    if (quote) out_.put('"');
  }

  const Console& out_;
  const char* pmu_;
  int count_[4] = {};
};

}  // namespace examples
