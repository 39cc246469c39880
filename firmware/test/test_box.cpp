// Host unit tests of the box logic (protocol, debounce, LEDs, buzzer). Built with g++ and
// sanitizers by `make host-test`; exits non-zero on the first failure.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "fd_box.h"

static int checks = 0;
#define CHECK(cond)                                                        \
  do {                                                                     \
    checks++;                                                              \
    if (!(cond)) {                                                         \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::exit(1);                                                        \
    }                                                                      \
  } while (0)

static std::string line_of(uint8_t seq, const char *verb, std::vector<const char *> args) {
  char out[FD_MAX_LINE];
  uint8_t n = fd_format_line(out, sizeof out, seq, verb, (uint8_t)args.size(), args.data());
  return std::string(out, n);
}

static fd_status_t parse(std::string s, fd_message_t *m) {
  if (!s.empty() && s.back() == '\n') s.pop_back();
  std::vector<char> buf(s.begin(), s.end());
  buf.push_back('\0');
  static std::vector<char> keep;
  keep = buf;  // keep the parsed fields alive for the caller
  return fd_parse_line(keep.data(), (uint16_t)s.size(), m);
}

static void test_crc_and_format() {
  CHECK(fd_crc8((const uint8_t *)"123456789", 9) == 0xF4);  // CRC-8/SMBUS check value
  std::string l = line_of(0x2A, "LED", {"P1", "BLINK"});
  CHECK(l.substr(0, 15) == "2A LED P1 BLINK");
  CHECK(l.size() == 20 && l.back() == '\n');
  fd_message_t m;
  CHECK(parse(l, &m) == FD_OK);
  CHECK(m.seq == 0x2A && std::strcmp(m.verb, "LED") == 0 && m.argc == 2);
  CHECK(std::strcmp(m.argv[0], "P1") == 0 && std::strcmp(m.argv[1], "BLINK") == 0);
  // CR LF endings are accepted
  std::string crlf = l.substr(0, l.size() - 1) + "\r";
  CHECK(parse(crlf, &m) == FD_OK);
  // too long to format
  std::string big(60, 'A');
  char out[FD_MAX_LINE];
  const char *argv[1] = {big.c_str()};
  CHECK(fd_format_line(out, sizeof out, 1, "X", 1, argv) == 0);
}

static void test_parse_errors() {
  fd_message_t m;
  std::string good = line_of(7, "PING", {});
  std::string body = good.substr(0, good.size() - 1);
  std::string flipped = body;
  flipped[4] = 'J';  // PING -> PJNG
  CHECK(parse(flipped, &m) == FD_ERR_CRC);
  CHECK(parse(body.substr(0, body.size() - 2), &m) == FD_ERR_FRAME);  // truncated checksum
  CHECK(parse("07 PING", &m) == FD_ERR_FRAME);
  CHECK(parse("", &m) == FD_ERR_FRAME);
  std::string ctl = body;
  ctl[3] = '\x01';
  CHECK(parse(ctl, &m) == FD_ERR_CHAR);
  CHECK(parse(std::string(70, 'A'), &m) == FD_ERR_LEN);
  // a lower-case checksum is not accepted
  std::string lower = body;
  for (auto &c : lower) if (c >= 'A' && c <= 'F' && &c >= &lower[lower.size() - 2]) c = (char)(c + 32);
  if (lower != body) CHECK(parse(lower, &m) == FD_ERR_FRAME);
  // well-framed lines with a bad body
  auto framed = [](const std::string &payload) {
    char crc[3];
    std::snprintf(crc, sizeof crc, "%02X", fd_crc8((const uint8_t *)payload.data(), (uint16_t)payload.size()));
    return payload + " *" + crc;
  };
  CHECK(parse(framed("7 PING"), &m) == FD_ERR_SEQ);
  CHECK(parse(framed("G7 PING"), &m) == FD_ERR_SEQ);
  CHECK(parse(framed("07 ping"), &m) == FD_ERR_SYNTAX);
  CHECK(parse(framed("07 PING  X"), &m) == FD_ERR_SYNTAX);
  CHECK(parse(framed("07 VERYLONGVERB"), &m) == FD_ERR_SYNTAX);
  CHECK(parse(framed("07 A 1 2 3 4 5 6 7"), &m) == FD_ERR_SYNTAX);
  CHECK(parse(framed("07 A b\"c"), &m) == FD_ERR_SYNTAX);
  CHECK(parse(framed("07 A 1 2 3 4 5 6"), &m) == FD_OK && m.argc == 6);
}

static void test_reader() {
  fd_line_reader_t r;
  fd_reader_init(&r);
  fd_status_t st;
  uint8_t len;
  int done = 0;
  for (int i = 0; i < 200; i++) done += fd_reader_push(&r, 'A', &st, &len);
  CHECK(done == 0);
  CHECK(fd_reader_push(&r, '\n', &st, &len) == 1 && st == FD_ERR_LEN);
  // the next line is read normally
  const char *s = "hello";
  for (const char *p = s; *p; p++) CHECK(fd_reader_push(&r, (uint8_t)*p, &st, &len) == 0);
  CHECK(fd_reader_push(&r, '\n', &st, &len) == 1 && st == FD_OK && len == 5 && std::strcmp(r.buf, "hello") == 0);
  fd_reader_push(&r, 0xFF, &st, &len);
  CHECK(fd_reader_push(&r, '\n', &st, &len) == 1 && st == FD_ERR_CHAR);
  // 63 characters is the longest accepted line
  for (int i = 0; i < FD_MAX_LINE - 1; i++) fd_reader_push(&r, 'B', &st, &len);
  CHECK(fd_reader_push(&r, '\n', &st, &len) == 1 && st == FD_OK && len == FD_MAX_LINE - 1);
  for (int i = 0; i < FD_MAX_LINE; i++) fd_reader_push(&r, 'B', &st, &len);
  CHECK(fd_reader_push(&r, '\n', &st, &len) == 1 && st == FD_ERR_LEN);
}

struct Events {
  std::vector<std::pair<int, fd_press_t>> list;
};
static void collect(uint8_t b, fd_press_t p, void *ctx) { static_cast<Events *>(ctx)->list.push_back({b, p}); }

static void test_buttons() {
  fd_buttons_t s;
  Events ev;
  uint32_t t = 1000;
  fd_buttons_init(&s, t);
  // contact bounce shorter than the debounce time gives nothing
  for (int i = 0; i < 10; i++) {
    fd_buttons_update(&s, (i & 1) ? 0 : 1, t, collect, &ev);
    t += 3;
  }
  fd_buttons_update(&s, 0, t, collect, &ev);
  for (int i = 0; i < 100; i++) fd_buttons_update(&s, 0, ++t, collect, &ev);
  CHECK(ev.list.empty());
  // a 150 ms press of button 3 is one short press, reported on release
  for (int i = 0; i < 150; i++) fd_buttons_update(&s, 1 << 3, ++t, collect, &ev);
  CHECK(ev.list.empty());
  for (int i = 0; i < 50; i++) fd_buttons_update(&s, 0, ++t, collect, &ev);
  CHECK(ev.list.size() == 1 && ev.list[0].first == 3 && ev.list[0].second == FD_PRESS_SHORT);
  ev.list.clear();
  // a 2 s hold of button 9 is one long press, reported while held; the release adds nothing
  for (int i = 0; i < 2000; i++) {
    fd_buttons_update(&s, 1 << 9, ++t, collect, &ev);
    if (i == FD_DEBOUNCE_MS + FD_LONG_MS + 5) CHECK(ev.list.size() == 1);
  }
  for (int i = 0; i < 50; i++) fd_buttons_update(&s, 0, ++t, collect, &ev);
  CHECK(ev.list.size() == 1 && ev.list[0].first == 9 && ev.list[0].second == FD_PRESS_LONG);
  ev.list.clear();
  // the millisecond clock wraps without harm
  fd_buttons_init(&s, 0xFFFFFF00u);
  t = 0xFFFFFF00u;
  for (int i = 0; i < 100; i++) fd_buttons_update(&s, 1, t += 1, collect, &ev);
  for (int i = 0; i < 300; i++) fd_buttons_update(&s, 0, t += 1, collect, &ev);
  CHECK(ev.list.size() == 1 && ev.list[0].second == FD_PRESS_SHORT);
}

struct Wire {
  std::string out;
};
static void wire_write(const char *d, uint8_t n, void *ctx) { static_cast<Wire *>(ctx)->out.append(d, n); }

static std::vector<std::string> lines_of(Wire &w) {
  std::vector<std::string> v;
  size_t start = 0, nl;
  while ((nl = w.out.find('\n', start)) != std::string::npos) {
    v.push_back(w.out.substr(start, nl - start));
    start = nl + 1;
  }
  w.out.erase(0, start);
  return v;
}

static std::string body(const std::string &line) {  // "SS VERB ARGS" without seq and checksum
  fd_message_t m;
  CHECK(parse(line, &m) == FD_OK);
  std::string s = m.verb;
  for (int i = 0; i < m.argc; i++) s += std::string(" ") + m.argv[i];
  return s;
}

static void send(fd_box_t *box, const std::string &bytes, uint32_t now) {
  for (char c : bytes) fd_box_rx(box, (uint8_t)c, now);
}

static void test_box() {
  Wire w;
  fd_box_t box;
  fd_box_init(&box, wire_write, &w, 0);
  auto l = lines_of(w);
  CHECK(l.size() == 1 && body(l[0]) == "HELLO FDBOX 1 " FD_FW_VERSION " " FD_CAPS);
  CHECK(l[0].size() + 1 <= FD_MAX_LINE);

  send(&box, line_of(0x10, "HELLO", {"1"}), 5);
  l = lines_of(w);
  CHECK(l.size() == 2 && body(l[0]).rfind("HELLO FDBOX", 0) == 0 && body(l[1]) == "ACK 10");

  send(&box, line_of(0x11, "LED", {"P2", "ON"}), 10);
  send(&box, line_of(0x12, "LED", {"SPOT", "BLINK"}), 10);
  send(&box, line_of(0x13, "LED", {"ROLL", "R"}), 10);
  l = lines_of(w);
  CHECK(l.size() == 3 && body(l[0]) == "ACK 11" && body(l[2]) == "ACK 13");
  uint8_t o = fd_box_outputs(&box, 100);
  CHECK(o == ((1 << FD_OUT_P2) | (1 << FD_OUT_SPOT) | (1 << FD_OUT_ROLL_RED)));
  o = fd_box_outputs(&box, 600);  // blink is off in the second half of its period
  CHECK(o == ((1 << FD_OUT_P2) | (1 << FD_OUT_ROLL_RED)));
  send(&box, line_of(0x14, "LED", {"ROLL", "GBLINK"}), 10);
  send(&box, line_of(0x15, "LED", {"P4", "PULSE"}), 10);
  lines_of(w);
  int lit = 0;
  for (uint32_t t = 0; t < FD_PULSE_PERIOD_MS; t++) lit += (fd_box_outputs(&box, t) >> FD_OUT_P4) & 1;
  CHECK(lit > FD_PULSE_PERIOD_MS / 3 && lit < FD_PULSE_PERIOD_MS * 2 / 3);  // about half on average
  CHECK((fd_box_outputs(&box, 1) >> FD_OUT_P4 & 1) == 0);                   // dark at the bottom of the pulse
  CHECK(fd_box_outputs(&box, 100) & (1 << FD_OUT_ROLL_GREEN));
  CHECK(!(fd_box_outputs(&box, 700) & (1 << FD_OUT_ROLL_GREEN)));

  // errors: unknown verb, bad argument, corrupted line, garbage, over-long line
  send(&box, line_of(0x20, "FROB", {}), 10);
  send(&box, line_of(0x21, "LED", {"P5", "ON"}), 10);
  send(&box, line_of(0x22, "LED", {"P1"}), 10);
  std::string bad = line_of(0x23, "LED", {"P1", "ON"});
  bad[7] = '2';
  send(&box, bad, 10);
  send(&box, "\x01\x02\xff garbage\n", 10);
  send(&box, std::string(300, 'Z') + "\n", 10);
  l = lines_of(w);
  CHECK(l.size() == 6);
  CHECK(body(l[0]) == "ERR 20 VERB FROB");
  CHECK(body(l[1]) == "ERR 21 ARG LED");
  CHECK(body(l[2]) == "ERR 22 ARG LED");
  CHECK(body(l[3]) == "ERR -- CRC");
  CHECK(body(l[4]) == "ERR -- CHAR");
  CHECK(body(l[5]) == "ERR -- LEN");
  CHECK((fd_box_outputs(&box, 100) & 1) == 0);  // the corrupted LED P1 ON did nothing

  // blank lines are ignored, a truncated line then a good one: the good one is still executed
  send(&box, "\n\r\n", 10);
  CHECK(lines_of(w).empty());
  std::string ping = line_of(0x30, "PING", {});
  send(&box, ping.substr(0, 6), 10);
  send(&box, "\n", 10);
  send(&box, ping, 10);
  l = lines_of(w);
  CHECK(l.size() == 2 && body(l[0]) == "ERR -- FRAME" && body(l[1]) == "ACK 30");

  // buzzer tunes play note by note, then stop
  send(&box, line_of(0x31, "BUZ", {"OK"}), 1000);
  send(&box, line_of(0x32, "BUZ", {"HONK"}), 1000);
  l = lines_of(w);
  CHECK(body(l[0]) == "ACK 31" && body(l[1]) == "ERR 32 ARG BUZ");
  CHECK(fd_box_tone(&box, 1000) == 880);
  CHECK(fd_box_tone(&box, 1150) == 1320);
  CHECK(fd_box_tone(&box, 1400) == 0);
  send(&box, line_of(0x33, "BUZ", {"ALARM"}), 2000);
  CHECK(fd_box_tone(&box, 2000) == 1000);
  send(&box, line_of(0x34, "BUZ", {"STOP"}), 2010);
  CHECK(fd_box_tone(&box, 2010) == 0);
  lines_of(w);

  // button events carry the protocol names; sequence numbers count up
  fd_box_buttons(&box, 1 << 8, 3000);
  fd_box_buttons(&box, 1 << 8, 3030);
  fd_box_buttons(&box, 0, 3100);
  fd_box_buttons(&box, 0, 3130);
  fd_box_buttons(&box, 1 << 0, 4000);
  fd_box_buttons(&box, 1 << 0, 4030);
  fd_box_buttons(&box, 1 << 0, 4030 + FD_LONG_MS);
  l = lines_of(w);
  CHECK(l.size() == 2 && body(l[0]) == "BTN CONFIRM S" && body(l[1]) == "BTN P1 L");
  fd_message_t m1, m2;
  std::string a = l[0], b = l[1];
  CHECK(parse(a, &m1) == FD_OK);
  uint8_t s1 = m1.seq;
  CHECK(parse(b, &m2) == FD_OK);
  CHECK((uint8_t)(s1 + 1) == m2.seq);
}

static void test_fuzz() {
  // random and mutated input never crashes the box and every line gets exactly one answer
  std::mt19937 rng(1942);
  Wire w;
  fd_box_t box;
  fd_box_init(&box, wire_write, &w, 0);
  lines_of(w);
  const std::vector<std::string> seeds = {line_of(1, "LED", {"P1", "ON"}), line_of(2, "BUZ", {"TICK"}),
                                          line_of(3, "PING", {}), line_of(4, "HELLO", {"1"})};
  for (int round = 0; round < 20000; round++) {
    std::string s = seeds[rng() % seeds.size()];
    s.pop_back();
    int edits = rng() % 4;
    for (int e = 0; e < edits && !s.empty(); e++) {
      size_t at = rng() % s.size();
      switch (rng() % 3) {
        case 0: s[at] = (char)(rng() % 256); break;
        case 1: s.erase(at, 1); break;
        default: s.insert(at, 1, (char)(rng() % 256)); break;
      }
    }
    if (rng() % 50 == 0) s += std::string(rng() % 200, 'x');
    std::string clean;
    for (char c : s) if (c != '\n') clean += c;
    std::string without_cr = clean;
    while (!without_cr.empty() && without_cr.back() == '\r') without_cr.pop_back();
    bool blank = clean.empty() || clean == "\r";
    send(&box, clean + "\n", (uint32_t)round);
    auto l = lines_of(w);
    for (auto &x : l) CHECK(x.size() + 1 <= FD_MAX_LINE);
    if (blank) {
      CHECK(l.empty());
    } else {
      // HELLO adds its HELLO line before the ACK
      CHECK(l.size() == 1 || (l.size() == 2 && body(l[0]).rfind("HELLO", 0) == 0));
      std::string last = body(l.back());
      CHECK(last.rfind("ACK ", 0) == 0 || last.rfind("ERR ", 0) == 0);
    }
  }
}

int main() {
  test_crc_and_format();
  test_parse_errors();
  test_reader();
  test_buttons();
  test_box();
  test_fuzz();
  std::printf("host tests passed: %d checks\n", checks);
  return 0;
}
