// pmukit record and pmukit top: the live stream (docs/stream-format.md) into a dump file, or onto
// the terminal.
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <deque>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "tools/cli/args.hpp"
#include "tools/cli/commands.hpp"
#include "tools/cli/output_file.hpp"
#include "tools/elf/elf_symbols.hpp"
#include "tools/report/metrics.hpp"
#include "tools/report/text_util.hpp"
#include "tools/stream/input.hpp"
#include "tools/stream/live_dump.hpp"
#include "tools/stream/stream_decoder.hpp"

namespace pmukit {
namespace {

using Clock = std::chrono::steady_clock;
namespace st = pmukit::stream;

double seconds_option(const Args& a, const std::string& name, double fallback) {
  if (!a.has(name)) return fallback;
  const std::string v = a.get(name);
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (v.empty() || end == nullptr || *end != '\0' || !(d >= 0) || d > 1e9)
    throw UsageError(name + " needs a number of seconds, not '" + v + "'");
  return d;
}

// How record may write its -o, by output_file's rules (a link: what it names).
st::LiveDump::Mode live_mode(const std::string& path) {
  struct stat s{};
  if (::stat(path.c_str(), &s) != 0) return st::LiveDump::Mode::replace;
  if (S_ISDIR(s.st_mode)) throw OutputError("-o '" + path + "' is a directory");
  if (!S_ISREG(s.st_mode)) return st::LiveDump::Mode::spool;
  if (s.st_nlink > 1) return st::LiveDump::Mode::in_place;
  if (::access(path.c_str(), W_OK) != 0) throw OutputError("cannot write '" + path + "': not writable");
  return st::LiveDump::Mode::replace;
}

// OUT.pmud -> OUT.2.pmud: the dump of the stream's second boot.
std::string boot_path(const std::string& path, unsigned boot) {
  if (boot <= 1) return path;
  const std::size_t slash = path.rfind('/');
  const std::size_t dot = path.rfind('.');
  const std::string n = "." + std::to_string(boot);
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) return path + n;
  return path.substr(0, dot) + n + path.substr(dot);
}

std::string totals_line(const st::StreamStats& s, std::size_t unread) {
  std::ostringstream o;
  o << "samples=" << s.samples << " samples_frames=" << s.samples_frames << " chunk_frames=" << s.chunk_frames
    << " counts_frames=" << s.counts_frames << " hellos=" << s.hellos << " frames=" << s.frames
    << " corrupt=" << s.corrupt << " malformed=" << s.malformed << " lost=" << s.lost << " late=" << s.late
    << " duplicates=" << s.duplicates << " before_hello=" << s.before_hello << " unknown=" << s.unknown
    << " boot_changes=" << s.boot_changes << " bytes=" << s.bytes << " frame_bytes=" << s.frame_bytes
    << " skipped_bytes=" << s.skipped_bytes << " unread_bytes=" << unread << " dropped=" << s.dropped;
  return o.str();
}

class Recorder : public st::Decoder::Handler {
 public:
  Recorder(std::string out, bool split, std::uint64_t limit) : out_(std::move(out)), split_(split), limit_(limit) {}
  bool full() const override { return reboot_ || (limit_ != 0 && kept_ >= limit_); }

  void hello(const st::Hello& h, bool first) override {
    if (!first) {
      if (!split_) {
        reboot_ = true;  // the recording ends with its boot
        return;
      }
      finish_boot();
      ++boot_;
    }
    reboot_ = false;
    const std::string path = boot_path(out_, boot_);
    dump_ = std::make_unique<st::LiveDump>(path, live_mode(path));
    dump_->begin(h.preamble);
    paths_.push_back(path);
  }
  void samples(const std::vector<st::StreamSample>& s, std::uint8_t flags, std::uint64_t) override {
    if (reboot_ || !dump_) return;
    dump_->add_samples(s, (flags & st::kSamplesHaveTask) != 0);
    kept_ += s.size();
  }
  void chunk(const std::string& key, const std::vector<std::uint8_t>& bytes, std::uint64_t order) override {
    if (reboot_ || !dump_) return;
    dump_->snapshot(key, bytes, order);
  }
  void counts(std::uint64_t, std::uint64_t, const std::vector<std::uint64_t>&, std::uint64_t) override {}

  void set_dropped(const st::StreamStats& s) {
    if (dump_ && !reboot_ && s.dropped_known) dump_->set_dropped(s.dropped);
  }
  void checkpoint() {
    if (dump_) dump_->checkpoint();
  }
  void finish_boot() {
    if (dump_) dump_->finish();
  }
  bool rebooted() const { return reboot_; }
  std::uint64_t kept() const { return kept_; }
  const std::vector<std::string>& paths() const { return paths_; }
  bool begun() const { return dump_ != nullptr; }
  bool has_source() const { return dump_ && dump_->has_sample_source(); }

 private:
  std::string out_;
  bool split_;
  unsigned boot_ = 1;
  bool reboot_ = false;
  std::unique_ptr<st::LiveDump> dump_;
  std::vector<std::string> paths_;
  std::uint64_t limit_ = 0;
  std::uint64_t kept_ = 0;
};

}  // namespace

int run_record(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {{"-o", true}, {"--duration", true}, {"--samples", true}, {"--baud", true},
                                   {"--follow", false}, {"--checkpoint", true}, {"--on-reboot", true}});
  if (a.positionals.size() != 1) throw UsageError("record needs one INPUT (a serial device, a pty, tcp:HOST:PORT, a file or -)");
  if (!a.has("-o") || a.get("-o").empty() || a.get("-o") == "-")
    throw UsageError("record needs -o FILE (the dump it writes as the stream arrives)");
  const std::string out = a.get("-o");
  const std::string input = a.positionals[0];
  const double duration = seconds_option(a, "--duration", 0);
  const double every = seconds_option(a, "--checkpoint", 1);
  const std::size_t max_samples = a.number("--samples", 0);
  const std::string reboot = a.get("--on-reboot", "stop");
  if (reboot != "stop" && reboot != "split") throw UsageError("--on-reboot is stop or split, not '" + reboot + "'");
  if (input.rfind("tcp:", 0) != 0 && input.rfind("tcp-listen:", 0) != 0)
    refuse_output_over_inputs(out, {input});
  // A directory, an unwritable file or folder: refused before the stream is opened.
  if (live_mode(out) == st::LiveDump::Mode::replace) {
    const std::size_t slash = out.rfind('/');
    const std::string folder = slash == std::string::npos ? "." : slash == 0 ? "/" : out.substr(0, slash);
    if (::access(folder.c_str(), W_OK) != 0)
      throw OutputError("cannot write '" + out + "': its folder is not writable (" + std::strerror(errno) + ")");
  }

  st::install_stop_signals();
  st::Input in(input, static_cast<unsigned>(a.number("--baud", 0)), a.has("--follow"));
  Recorder rec(out, reboot == "split", max_samples);
  st::Decoder dec(rec);
  const Clock::time_point start = Clock::now();
  Clock::time_point last_checkpoint = start;
  std::vector<std::uint8_t> buf(1 << 14);
  std::string why = "the end of the input";
  bool ended = false, failed = false;
  for (;;) {
    if (st::stop_requested()) {
      why = "a signal";
      break;
    }
    const Clock::time_point now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start).count();
    if (duration > 0 && elapsed >= duration) {
      why = "--duration";
      break;
    }
    int timeout = 200;
    if (duration > 0) timeout = std::min<int>(timeout, static_cast<int>((duration - elapsed) * 1000) + 1);
    const long n = in.read(buf.data(), buf.size(), timeout);
    try {
      if (n > 0) dec.feed(buf.data(), static_cast<std::size_t>(n));
      if (n == 0) {
        dec.finish();
        ended = true;
      }
    } catch (const st::StreamError& e) {
      // A HELLO of another stream version: what came before it is kept, then the error.
      why = std::string("an error: ") + e.what();
      failed = true;
      break;
    }
    rec.set_dropped(dec.stats());
    if (rec.rebooted()) {
      why = "a new boot id (the board restarted; --on-reboot split records each boot)";
      break;
    }
    if (max_samples != 0 && rec.kept() >= max_samples) {
      why = "--samples";
      break;
    }
    if (ended) break;
    if (std::chrono::duration<double>(Clock::now() - last_checkpoint).count() >= every) {
      rec.checkpoint();
      last_checkpoint = Clock::now();
    }
  }
  rec.finish_boot();

  const st::StreamStats& s = dec.stats();
  std::ostringstream o;
  o << "pmukit record: stopped by " << why << ".\n";
  if (!rec.begun()) {
    o << "pmukit record: no HELLO frame: nothing recorded (" << s.bytes << " bytes, " << s.frames
      << " good frames before any HELLO)\n";
  } else {
    for (const std::string& p : rec.paths()) o << "pmukit record: wrote " << printable(p) << '\n';
  }
  o << "  received: " << s.samples << " samples in " << s.samples_frames << " SAMPLES frames, "
    << s.chunk_frames << " snapshots (CHUNK), " << s.counts_frames << " COUNTS, " << s.hellos << " HELLO\n"
    << "  firmware: "
    << (s.dropped_known ? std::to_string(s.dropped) + " samples dropped by its ring (its own count" +
                              (rec.has_source() ? ", in the dump's SAMPLE_SOURCE)" : ")")
                        : std::string("its dropped count is unknown (no SAMPLES frame)"))
    << "\n"
    << "  link: " << s.lost << " frames lost (sequence numbers never received, whatever the cause), " << s.corrupt
    << " corrupt (syncs that began no good frame: damaged or cut frames, noise; " << s.malformed
    << " with a good CRC but a payload against the spec), " << s.late
    << " late (reordered, kept), " << s.duplicates << " duplicates (dropped)\n"
    << "  bytes: " << s.bytes << " read, " << s.frame_bytes << " in good frames, " << s.skipped_bytes
    << " skipped (console output, noise, broken frames)"
    << (dec.pending() ? ", " + std::to_string(dec.pending()) + " left unread (read, not decoded: the recording had stopped)" : std::string())
    << "\n"
    << "  skipped frames: " << s.before_hello << " before the first HELLO, " << s.unknown
    << " of an unknown type, " << s.boot_changes << " boot id changes\n"
    << "pmukit record: totals: " << totals_line(s, dec.pending()) << '\n';
  std::cerr << o.str();
  return rec.begun() && !failed ? 0 : 1;
}

namespace {

// The live view's state: samples per function per refresh interval, the COUNTS history.
class TopView : public st::Decoder::Handler {
 public:
  TopView(const SymbolTable* symbols, double window, bool since_start)
      : symbols_(symbols), window_(window), since_start_(since_start) {
    buckets_.emplace_back();
  }

  void hello(const st::Hello& h, bool first) override {
    info_ = h.info;
    boot_ = h.boot_id;
    if (!first) {
      buckets_.clear();
      buckets_.emplace_back();
      counts_.clear();
    }
  }
  void samples(const std::vector<st::StreamSample>& s, std::uint8_t, std::uint64_t) override {
    Bucket& b = buckets_.back();
    for (const st::StreamSample& x : s) ++b.counts[key(x.pc)];
    b.samples += s.size();
  }
  void chunk(const std::string&, const std::vector<std::uint8_t>&, std::uint64_t) override {}
  void counts(std::uint64_t time_hz, std::uint64_t time, const std::vector<std::uint64_t>& totals,
              std::uint64_t order) override {
    if (!counts_.empty() && order < counts_.back().order) return;  // a late frame: older values
    if (!info_ || totals.size() != info_->counters.size()) return;
    counts_.push_back({Clock::now(), order, time, totals, time_hz});
  }

  // A new interval starts: the oldest outside the window go.
  void tick() {
    buckets_.back().end = Clock::now();
    buckets_.emplace_back();
    if (since_start_) return;
    const Clock::time_point now = Clock::now();
    while (buckets_.size() > 1 &&
           std::chrono::duration<double>(now - buckets_.front().end.value_or(now)).count() > window_)
      buckets_.pop_front();
    while (counts_.size() > 2 && std::chrono::duration<double>(now - counts_[1].at).count() > window_)
      counts_.pop_front();
  }

  std::string render(const st::StreamStats& s, std::size_t top, std::size_t width, bool ended) const {
    std::map<std::string, std::uint64_t> per;
    std::uint64_t total = 0;
    for (const Bucket& b : buckets_) {
      for (const auto& [k, v] : b.counts) per[k] += v;
      total += b.samples;
    }
    std::vector<std::pair<std::string, std::uint64_t>> rows(per.begin(), per.end());
    std::sort(rows.begin(), rows.end(), [](const auto& x, const auto& y) {
      return x.second != y.second ? x.second > y.second : x.first < y.first;
    });
    const double span = std::max(1e-9, std::chrono::duration<double>(
        (ended ? buckets_.back().end.value_or(Clock::now()) : Clock::now()) - first_time()).count());
    std::ostringstream o;
    char line[512];
    o << "pmukit top";
    if (info_) o << " - " << printable(info_->target.id) << " (" << printable(info_->target.pmu) << ")";
    if (info_) {
      std::snprintf(line, sizeof line, ", boot 0x%08x", boot_);
      o << line;
    }
    o << (since_start_ ? ", since start" : ", last " + trim(window_) + " s") << (ended ? ", input ended" : "") << '\n';
    if (!info_) o << "waiting for a HELLO frame (" << s.bytes << " bytes, " << s.before_hello << " frames skipped)\n";
    // The rate over the host's time the shown samples took to arrive (a file read at once has none).
    char rate[64] = "";
    if (span >= 0.5) std::snprintf(rate, sizeof rate, " (%.0f/s)", static_cast<double>(total) / span);
    std::snprintf(line, sizeof line, "samples: %" PRIu64 " shown%s, %" PRIu64 " received; firmware dropped %s\n",
                  total, rate, s.samples, s.dropped_known ? std::to_string(s.dropped).c_str() : "?");
    o << line;
    std::snprintf(line, sizeof line,
                  "link: %" PRIu64 " frames lost, %" PRIu64 " corrupt, %" PRIu64 " late, %" PRIu64
                  " duplicates, %" PRIu64 " bytes skipped, %" PRIu64 " boot changes\n",
                  s.lost, s.corrupt, s.late, s.duplicates, s.skipped_bytes, s.boot_changes);
    o << line;
    counter_lines(o);
    o << '\n';
    std::snprintf(line, sizeof line, "%10s %7s  %s\n", "SAMPLES", "%", "FUNCTION");
    o << line;
    std::size_t shown = 0;
    for (const auto& [name, n] : rows) {
      if (top != 0 && shown == top) break;
      std::string nm = printable(name);
      if (width > 22 && nm.size() > width - 21) nm = nm.substr(0, width - 24) + "...";
      std::snprintf(line, sizeof line, "%10" PRIu64 " %6.2f%%  ", n, total ? 100.0 * static_cast<double>(n) / static_cast<double>(total) : 0.0);
      o << line << nm << '\n';
      ++shown;
    }
    if (shown < rows.size()) o << "(" << rows.size() - shown << " more functions)\n";
    return o.str();
  }

 private:
  struct Bucket {
    std::unordered_map<std::string, std::uint64_t> counts;
    std::uint64_t samples = 0;
    Clock::time_point begin = Clock::now();
    std::optional<Clock::time_point> end;
  };
  struct Counts {
    Clock::time_point at;
    std::uint64_t order, time;
    std::vector<std::uint64_t> totals;
    std::uint64_t time_hz;  // 0: the TARGET chunk's counter clock
  };

  static std::string trim(double d) {
    char b[32];
    std::snprintf(b, sizeof b, "%g", d);
    return b;
  }
  Clock::time_point first_time() const { return buckets_.front().begin; }

  std::string key(std::uint64_t pc) {
    if (symbols_ != nullptr)
      if (const auto f = symbols_->function_at(pc)) return symbols_->function(*f).name;
    char b[32];
    std::snprintf(b, sizeof b, "0x%" PRIx64, pc);
    return b;
  }

  static std::string si(double v) {
    char b[32];
    const char* u = "";
    if (v >= 1e9) v /= 1e9, u = "G";
    else if (v >= 1e6) v /= 1e6, u = "M";
    else if (v >= 1e3) v /= 1e3, u = "k";
    std::snprintf(b, sizeof b, "%.2f%s", v, u);
    return b;
  }

  void counter_lines(std::ostream& o) const {
    if (!info_ || info_->counters.empty()) return;
    if (counts_.size() < 2) {
      o << "counters: " << (counts_.empty() ? "no COUNTS frame yet" : "one COUNTS frame so far") << '\n';
      return;
    }
    const Counts& a = counts_.front();
    const Counts& b = counts_.back();
    const std::uint64_t ticks = b.time - a.time;
    const std::uint64_t hz = b.time_hz != 0 ? b.time_hz : info_->target.counter_clock_hz;
    const double secs = hz != 0 && ticks != 0 ? static_cast<double>(ticks) / static_cast<double>(hz) : 0.0;
    o << "counters (per second of the board's clock):";
    std::vector<EventValue> values;
    bool wrapped = false;
    for (std::size_t i = 0; i < info_->counters.size(); ++i) {
      // The spec's totals are 64-bit and never decrease; a total that went down was the
      // hardware counter's own value: taken as one wrap at the counter's width, and said.
      double d = 0;
      for (std::size_t k = 1; k < counts_.size(); ++k) {
        const std::uint64_t x = counts_[k - 1].totals[i], y = counts_[k].totals[i];
        const unsigned w = info_->counters[i].width_bits;
        if (y >= x) {
          d += static_cast<double>(y - x);
        } else if (w > 0 && w < 64) {
          d += static_cast<double>(y + (std::uint64_t{1} << w) - x);
          wrapped = true;
        }
      }
      o << "  " << printable(info_->counters[i].name) << ' ' << (secs > 0 ? si(d / secs) + "/s" : "?");
      values.push_back({info_->counters[i].event_code, 0, d, 0});
    }
    o << '\n';
    if (wrapped)
      o << "  (a COUNTS total went down: taken as the counter wrapping at its width; the stream's totals"
           " should be 64-bit)\n";
    std::string m;
    for (const MetricValue& v : evaluate_metrics(info_->target.pmu, values)) {
      if (!v.available || v.metric == nullptr) continue;
      char b[128];
      std::snprintf(b, sizeof b, "  %s %.3g %s", v.metric->name, v.value, v.metric->unit);
      m += b;
    }
    if (!m.empty()) o << "metrics:" << m << '\n';
  }

  const SymbolTable* symbols_;
  double window_;
  bool since_start_;
  std::optional<Dump> info_;
  std::uint32_t boot_ = 0;
  std::deque<Bucket> buckets_;
  std::deque<Counts> counts_;
};

// The terminal in cbreak mode while top runs (q quits), restored however it ends.
struct KeyboardMode {
  bool active = false;
  termios saved{};
  KeyboardMode() {
    if (!::isatty(STDIN_FILENO) || ::tcgetattr(STDIN_FILENO, &saved) != 0) return;
    termios t = saved;
    t.c_lflag &= static_cast<tcflag_t>(~(ICANON | ECHO));
    t.c_cc[VMIN] = 0;
    t.c_cc[VTIME] = 0;
    active = ::tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0;
  }
  ~KeyboardMode() {
    if (active) ::tcsetattr(STDIN_FILENO, TCSANOW, &saved);
  }
  bool quit() const {
    char c = 0;
    return active && ::read(STDIN_FILENO, &c, 1) == 1 && (c == 'q' || c == 'Q');
  }
};

}  // namespace

int run_top(const std::vector<std::string>& argv) {
  const Args a = parse_args(argv, {{"--elf", true}, {"--interval", true}, {"--window", true}, {"--since-start", false},
                                   {"--top", true}, {"--baud", true}, {"--follow", false}});
  if (a.positionals.size() != 1) throw UsageError("top needs one INPUT (a serial device, a pty, tcp:HOST:PORT, a file or -)");
  if (a.has("--window") && a.has("--since-start")) throw UsageError("--window and --since-start exclude each other");
  const double interval = std::max(0.05, seconds_option(a, "--interval", 1));
  const double window = seconds_option(a, "--window", 10);
  const std::size_t top = a.number("--top", 0);
  std::optional<SymbolTable> symbols;
  if (a.has("--elf")) {
    if (a.get("--elf").empty()) throw UsageError("--elf needs a file name");
    symbols = load_elf_symbols(a.get("--elf"));
  }
  st::install_stop_signals();
  st::Input in(a.positionals[0], static_cast<unsigned>(a.number("--baud", 0)), a.has("--follow"));
  const bool tty = ::isatty(STDOUT_FILENO) != 0;
  std::optional<KeyboardMode> keys;
  if (tty && a.positionals[0] != "-") keys.emplace();
  TopView view(symbols ? &*symbols : nullptr, window, a.has("--since-start"));
  st::Decoder dec(view);
  std::vector<std::uint8_t> buf(1 << 14);
  Clock::time_point next = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(interval));
  const auto show = [&](bool ended) {
    std::size_t rows = 0, cols = 0;
    winsize ws{};
    if (tty && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0) rows = ws.ws_row, cols = ws.ws_col;
    std::size_t n = top;
    if (n == 0) n = rows > 10 ? rows - 10 : (tty ? 10 : 20);
    const std::string screen = view.render(dec.stats(), n, cols, ended);
    if (tty) {
      // Home, the view with each line's rest erased, then the rest of the screen erased.
      std::string s = "\x1b[H";
      for (std::size_t at = 0; at < screen.size();) {
        const std::size_t nl = screen.find('\n', at);
        s += screen.substr(at, nl - at) + "\x1b[K\n";
        at = nl + 1;
      }
      std::cout << s << "\x1b[J" << std::flush;
    } else {
      std::cout << screen << '\n' << std::flush;
    }
  };
  if (tty) std::cout << "\x1b[2J" << std::flush;
  bool ended = false;
  while (!st::stop_requested() && !(keys && keys->quit())) {
    const int timeout = static_cast<int>(std::max<long long>(
        0, std::chrono::duration_cast<std::chrono::milliseconds>(next - Clock::now()).count()));
    const long n = in.read(buf.data(), buf.size(), std::min(timeout, 100));
    try {
      if (n > 0) dec.feed(buf.data(), static_cast<std::size_t>(n));
      if (n == 0) {
        dec.finish();
        ended = true;
        break;
      }
    } catch (const st::StreamError& e) {
      show(true);
      throw;
    }
    if (Clock::now() >= next) {
      view.tick();
      show(false);
      next += std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(interval));
      if (next < Clock::now()) next = Clock::now();
    }
  }
  view.tick();
  show(ended);
  std::cerr << "pmukit top: totals: " << totals_line(dec.stats(), dec.pending()) << '\n';
  return 0;
}

}  // namespace pmukit
