#pragma once
// NetBurst event strings and register values: the one encoder the firmware-side allocator and the
// host tool (`pmukit encode`) share. Freestanding: no heap, no exceptions; constexpr throughout, so
// a constant event string is checked at compile time (checked()).
//
// Syntax (libpfm4's, as its check_events takes it):
//   [netburst::]EVENT[:MASK...][:TAGn...][:u][:k][:u=0|1][:k=0|1][:e][:cmpl][:thr=N]
// EVENT and MASK are the SDM's names, case-insensitive. No MASK: the event's default mask
// (events.hpp). Neither u nor k: both. :e sets EDGE, :cmpl COMPLEMENT, :thr=N (0..15) THRESHOLD;
// each of them also sets COMPARE, without which the CCCR ignores them. TAG0-TAG3, on the execution
// tagging events only (kExecTagging), set that bit of the ESCR's tag value and tag enable. A string
// with TAGn but no mask gets the event's default mask (libpfm4 counts TAGn as a mask and leaves the
// event mask 0 then). Values, for every event:
//   ESCR = event select << 25 | mask << 9 | tag value << 5 | TAG_ENABLE (any TAGn)
//          | T0_OS|T1_OS (k) | T0_USR|T1_USR (u)
//   CCCR = ENABLE | ESCR select << 13 | ACTIVE_THREAD = 11b | COMPARE/COMPLEMENT/EDGE/THRESHOLD
// Both threads' OS/USR bits are set (count on either logical processor); on a part without
// Hyper-Threading the driver clears the T1 bits, which are reserved there.
#include <cstddef>
#include <cstdint>

#include "hal/netburst/events.hpp"
#include "hal/netburst/regs.hpp"

namespace pmu::netburst {

enum class EncodeError : std::uint8_t {
  none,
  syntax,          // empty string, empty field, "thr" without a number
  unknown_event,
  unknown_mask,    // not a mask name (nor a modifier) of this event
  bad_value,       // thr above 15, u/k/e/cmpl value other than 0 or 1
  no_default_mask, // no mask given and the event has no default
};
constexpr const char* encode_error_text(EncodeError e) {
  switch (e) {
    case EncodeError::none: return "ok";
    case EncodeError::syntax: return "malformed event string";
    case EncodeError::unknown_event: return "unknown event";
    case EncodeError::unknown_mask: return "unknown event mask or modifier";
    case EncodeError::bad_value: return "value out of range (thr is 0..15; u, k, e, cmpl are 0 or 1)";
    case EncodeError::no_default_mask: return "the event has no default mask: name one";
  }
  return "?";
}

// What an event string asks for, before any register is chosen.
struct Request {
  std::size_t event = kNumEvents;  // row of kEvents
  std::uint16_t mask = 0;          // ESCR event mask (16 bits)
  bool os = true, usr = true;
  bool edge = false, complement = false;
  std::uint8_t threshold = 0;
  std::uint8_t tag = 0;            // execution tagging: tag value bits (TAG0-TAG3); 0 = no tagging
  EncodeError error = EncodeError::none;
  std::size_t error_at = 0;   // offset of the offending field in the string
  std::size_t error_len = 0;
};

namespace detail {
constexpr char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
constexpr bool same(const char* a, std::size_t n, const char* b) {
  std::size_t i = 0;
  for (; i < n; ++i)
    if (b[i] == '\0' || lower(a[i]) != lower(b[i])) return false;
  return b[i] == '\0';
}
constexpr bool starts(const char* s, const char* prefix) {
  for (std::size_t i = 0; prefix[i]; ++i)
    if (lower(s[i]) != lower(prefix[i])) return false;
  return true;
}
// "name" or "name=digits": the name's length and the value (-1 without '=', -2 if malformed).
constexpr long value_of(const char* f, std::size_t n, std::size_t& name_len) {
  name_len = n;
  for (std::size_t i = 0; i < n; ++i) {
    if (f[i] != '=') continue;
    name_len = i;
    if (i + 1 == n) return -2;
    long v = 0;
    for (std::size_t j = i + 1; j < n; ++j) {
      if (f[j] < '0' || f[j] > '9' || v > 1000) return -2;
      v = v * 10 + (f[j] - '0');
    }
    return v;
  }
  return -1;
}
}  // namespace detail

constexpr std::size_t event_index(const char* name, std::size_t n) {
  for (std::size_t i = 0; i < kNumEvents; ++i)
    if (detail::same(name, n, kEvents[i].name)) return i;
  return kNumEvents;
}
constexpr int mask_bit(const NbEvent& e, const char* name, std::size_t n) {
  for (std::size_t i = 0; i < e.num_masks; ++i)
    if (detail::same(name, n, e.masks[i].name)) return e.masks[i].bit;
  return -1;
}
// The bits of the event's named masks: any other mask bit is unknown to this event.
constexpr std::uint16_t known_mask_bits(const NbEvent& e) {
  std::uint16_t m = 0;
  for (std::size_t i = 0; i < e.num_masks; ++i) m = static_cast<std::uint16_t>(m | (1u << e.masks[i].bit));
  return m;
}

constexpr Request parse(const char* s) {
  Request r{};
  auto fail = [&](EncodeError e, std::size_t at, std::size_t len) {
    r.error = e;
    r.error_at = at;
    r.error_len = len;
    return r;
  };
  std::size_t pos = 0;
  if (detail::starts(s, "netburst::")) pos = 10;
  else if (detail::starts(s, "netburst_p::")) pos = 12;
  bool plm_given = false, any_mask = false;
  bool os = false, usr = false;
  for (bool first = true;; first = false) {
    std::size_t end = pos;
    while (s[end] != '\0' && s[end] != ':') ++end;
    const char* f = s + pos;
    const std::size_t n = end - pos;
    if (n == 0) return fail(EncodeError::syntax, pos, 0);
    if (first) {
      r.event = event_index(f, n);
      if (r.event == kNumEvents) return fail(EncodeError::unknown_event, pos, n);
    } else {
      std::size_t name_len = 0;
      const long v = detail::value_of(f, n, name_len);
      const int bit = v == -1 ? mask_bit(kEvents[r.event], f, n) : -1;
      if (bit >= 0) {
        r.mask = static_cast<std::uint16_t>(r.mask | (1u << bit));
        any_mask = true;
      } else if (v == -1 && n == 4 && (kEvents[r.event].flags & kExecTagging) && detail::same(f, 3, "tag") &&
                 f[3] >= '0' && f[3] <= '3') {
        r.tag = static_cast<std::uint8_t>(r.tag | (1u << (f[3] - '0')));
      } else if (v == -2) {
        return fail(EncodeError::syntax, pos, n);
      } else if (detail::same(f, name_len, "thr")) {
        if (v < 0) return fail(EncodeError::syntax, pos, n);
        if (v > 15) return fail(EncodeError::bad_value, pos, n);
        r.threshold = static_cast<std::uint8_t>(v);
      } else if (detail::same(f, name_len, "u") || detail::same(f, name_len, "k") ||
                 detail::same(f, name_len, "e") || detail::same(f, name_len, "cmpl")) {
        if (v > 1) return fail(EncodeError::bad_value, pos, n);
        const bool on = v != 0;  // no value: 1
        const char c = detail::lower(f[0]);
        if (name_len == 4) r.complement = on;
        else if (c == 'e') r.edge = on;
        else {
          plm_given = true;
          (c == 'u' ? usr : os) = on;
        }
      } else {
        return fail(EncodeError::unknown_mask, pos, n);
      }
    }
    if (s[end] == '\0') break;
    pos = end + 1;
  }
  if (plm_given) {
    r.os = os;
    r.usr = usr;
  }
  if (!any_mask) {
    const NbEvent& e = kEvents[r.event];
    if (e.default_mask >= 16) return fail(EncodeError::no_default_mask, 0, pos);
    r.mask = static_cast<std::uint16_t>(1u << e.default_mask);
  }
  return r;
}

// The ESCR value of a request (the ESCR itself is chosen by the allocator).
constexpr u64 escr_value(const Request& r) {
  const NbEvent& e = kEvents[r.event];
  u64 v = (u64{e.event_select} << escr::EVENT_SELECT_SHIFT) | (u64{r.mask} << escr::EVENT_MASK_SHIFT);
  if (r.os) v |= escr::T0_OS | escr::T1_OS;
  if (r.usr) v |= escr::T0_USR | escr::T1_USR;
  if (r.tag) v |= escr::TAG_ENABLE | (u64{r.tag} << escr::TAG_VALUE_SHIFT);
  return v;
}
// The CCCR value of a request, enabled (the driver keeps ENABLE clear until start()).
constexpr u64 cccr_value(const Request& r) {
  const NbEvent& e = kEvents[r.event];
  u64 v = cccr::ENABLE | (u64{e.escr_select} << cccr::ESCR_SELECT_SHIFT) | cccr::ACTIVE_THREAD_ANY;
  if (r.edge) v |= cccr::COMPARE | cccr::EDGE;
  if (r.complement) v |= cccr::COMPARE | cccr::COMPLEMENT;
  if (r.threshold) v |= cccr::COMPARE | (u64{r.threshold} << cccr::THRESHOLD_SHIFT);
  return v;
}

// --- compile-time checking -----------------------------------------------------------------
// Not constexpr on purpose: reaching one while evaluating checked() makes the compiler reject the
// string, naming the rule in the error.
inline void netburst_event_string_is_malformed() {}
inline void netburst_event_name_is_unknown() {}
inline void netburst_event_mask_is_unknown_for_this_event() {}
inline void netburst_threshold_above_15_or_flag_not_0_or_1() {}
inline void netburst_event_has_no_default_mask() {}

// A constant event string, checked at compile time:
//   constexpr auto cycles = pmu::netburst::checked("global_power_events:RUNNING");
consteval Request checked(const char* s) {
  const Request r = parse(s);
  switch (r.error) {
    case EncodeError::none: break;
    case EncodeError::syntax: netburst_event_string_is_malformed(); break;
    case EncodeError::unknown_event: netburst_event_name_is_unknown(); break;
    case EncodeError::unknown_mask: netburst_event_mask_is_unknown_for_this_event(); break;
    case EncodeError::bad_value: netburst_threshold_above_15_or_flag_not_0_or_1(); break;
    case EncodeError::no_default_mask: netburst_event_has_no_default_mask(); break;
  }
  return r;
}

}  // namespace pmu::netburst
