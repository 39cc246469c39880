#include "fd_box.h"

#include <string.h>

const char *const FD_BUTTON_NAMES[FD_BUTTON_COUNT] = {"P1", "P2", "P3", "P4", "MOVE",
                                                      "ATTACK", "SEARCH", "TOL", "CONFIRM", "UNDO"};

static const char *const LED_TARGETS[5] = {"P1", "P2", "P3", "P4", "SPOT"};
static const char *const LED_MODES[4] = {"OFF", "ON", "BLINK", "PULSE"};
static const char *const ROLL_MODES[5] = {"OFF", "G", "R", "GBLINK", "RBLINK"};

static const fd_note_t TUNE_TICK[] = {{2000, 30}};
static const fd_note_t TUNE_OK[] = {{880, 120}, {1320, 180}};
static const fd_note_t TUNE_FAIL[] = {{330, 250}, {0, 50}, {220, 400}};
static const fd_note_t TUNE_ALARM[] = {{1000, 150}, {800, 150}, {1000, 150}, {800, 150}, {1000, 150}, {800, 150}};
static const fd_note_t TUNE_LAST[] = {{1500, 80}, {0, 80}, {1500, 80}, {0, 80}, {1500, 200}};

typedef struct {
  const char *name;
  const fd_note_t *notes;
  uint8_t len;
} tune_t;

static const tune_t TUNES[] = {
    {"TICK", TUNE_TICK, sizeof TUNE_TICK / sizeof TUNE_TICK[0]},
    {"OK", TUNE_OK, sizeof TUNE_OK / sizeof TUNE_OK[0]},
    {"FAIL", TUNE_FAIL, sizeof TUNE_FAIL / sizeof TUNE_FAIL[0]},
    {"ALARM", TUNE_ALARM, sizeof TUNE_ALARM / sizeof TUNE_ALARM[0]},
    {"LAST", TUNE_LAST, sizeof TUNE_LAST / sizeof TUNE_LAST[0]},
};

static void send(fd_box_t *box, const char *verb, uint8_t argc, const char *const *argv) {
  char line[FD_MAX_LINE];
  uint8_t n = fd_format_line(line, sizeof line, box->tx_seq, verb, argc, argv);
  if (n == 0) return; /* cannot happen with the fixed vocabulary; never send a broken line */
  box->tx_seq++;
  box->write(line, n, box->ctx);
}

static void seq_text(char out[3], uint8_t seq) {
  static const char hex[] = "0123456789ABCDEF";
  out[0] = hex[seq >> 4];
  out[1] = hex[seq & 15];
  out[2] = '\0';
}

static void send_error(fd_box_t *box, const char *seq, const char *code, const char *detail) {
  const char *argv[3] = {seq, code, detail};
  send(box, "ERR", detail ? 3 : 2, argv);
}

static void send_hello(fd_box_t *box) {
  static const char proto[] = {'0' + FD_PROTO_VERSION, '\0'};
  const char *argv[4] = {"FDBOX", proto, FD_FW_VERSION, FD_CAPS};
  send(box, "HELLO", 4, argv);
}

static int find(const char *const *names, uint8_t count, const char *name) {
  for (uint8_t i = 0; i < count; i++) {
    if (strcmp(names[i], name) == 0) return i;
  }
  return -1;
}

void fd_box_init(fd_box_t *box, fd_write_fn write, void *ctx, uint32_t now) {
  memset(box, 0, sizeof *box);
  box->write = write;
  box->ctx = ctx;
  fd_reader_init(&box->reader);
  fd_buttons_init(&box->buttons, now);
  send_hello(box);
}

/* Returns NULL when handled, or the error code to answer. */
static const char *execute(fd_box_t *box, const fd_message_t *m, uint32_t now) {
  if (strcmp(m->verb, "PING") == 0) {
    return m->argc == 0 ? 0 : "ARG";
  }
  if (strcmp(m->verb, "HELLO") == 0) {
    if (m->argc > 1) return "ARG";
    send_hello(box);
    return 0;
  }
  if (strcmp(m->verb, "LED") == 0) {
    if (m->argc != 2) return "ARG";
    if (strcmp(m->argv[0], "ROLL") == 0) {
      int mode = find(ROLL_MODES, 5, m->argv[1]);
      if (mode < 0) return "ARG";
      box->roll = (uint8_t)mode;
      return 0;
    }
    int target = find(LED_TARGETS, 5, m->argv[0]);
    int mode = find(LED_MODES, 4, m->argv[1]);
    if (target < 0 || mode < 0) return "ARG";
    box->led[target] = (uint8_t)mode;
    return 0;
  }
  if (strcmp(m->verb, "BUZ") == 0) {
    if (m->argc != 1) return "ARG";
    for (uint8_t i = 0; i < sizeof TUNES / sizeof TUNES[0]; i++) {
      if (strcmp(TUNES[i].name, m->argv[0]) == 0) {
        box->tune = TUNES[i].notes;
        box->tune_len = TUNES[i].len;
        box->note = 0;
        box->note_start = now;
        return 0;
      }
    }
    if (strcmp(m->argv[0], "STOP") == 0) {
      box->tune = 0;
      return 0;
    }
    return "ARG";
  }
  return "VERB";
}

void fd_box_rx(fd_box_t *box, uint8_t byte, uint32_t now) {
  fd_status_t status;
  uint8_t len;
  if (!fd_reader_push(&box->reader, byte, &status, &len)) return;
  if (status == FD_OK && len > 0 && box->reader.buf[len - 1] == '\r') len--;
  if (status == FD_OK && len == 0) return; /* blank lines are ignored */
  fd_message_t msg;
  if (status == FD_OK) status = fd_parse_line(box->reader.buf, len, &msg);
  if (status != FD_OK) {
    send_error(box, "--", fd_status_code(status), 0);
    return;
  }
  char seq[3];
  seq_text(seq, msg.seq);
  const char *error = execute(box, &msg, now);
  if (error) {
    send_error(box, seq, error, msg.verb);
  } else {
    const char *argv[1] = {seq};
    send(box, "ACK", 1, argv);
  }
}

static void emit_button(uint8_t button, fd_press_t press, void *ctx) {
  fd_box_t *box = (fd_box_t *)ctx;
  const char *argv[2] = {FD_BUTTON_NAMES[button], press == FD_PRESS_LONG ? "L" : "S"};
  send(box, "BTN", 2, argv);
}

void fd_box_buttons(fd_box_t *box, uint16_t pressed_mask, uint32_t now) {
  fd_buttons_update(&box->buttons, pressed_mask, now, emit_button, box);
}

static uint8_t lit(uint8_t mode, uint32_t now) {
  switch (mode) {
    case FD_LED_ON: return 1;
    case FD_LED_BLINK: return (now % FD_BLINK_PERIOD_MS) < FD_BLINK_PERIOD_MS / 2;
    case FD_LED_PULSE: {
      /* software PWM: duty follows a triangle over FD_PULSE_PERIOD_MS */
      uint32_t phase = now % FD_PULSE_PERIOD_MS;
      uint32_t half = FD_PULSE_PERIOD_MS / 2;
      uint32_t level = (phase < half ? phase : FD_PULSE_PERIOD_MS - phase) * FD_PWM_PERIOD_MS / half;
      return (now % FD_PWM_PERIOD_MS) < level;
    }
    default: return 0;
  }
}

uint8_t fd_box_outputs(const fd_box_t *box, uint32_t now) {
  uint8_t out = 0;
  for (uint8_t i = 0; i < 5; i++) {
    if (lit(box->led[i], now)) out |= (uint8_t)(1u << i);
  }
  uint8_t roll_on = box->roll == FD_ROLL_GREEN || box->roll == FD_ROLL_RED ||
                    ((box->roll == FD_ROLL_GREEN_BLINK || box->roll == FD_ROLL_RED_BLINK) && lit(FD_LED_BLINK, now));
  if (roll_on) {
    uint8_t green = box->roll == FD_ROLL_GREEN || box->roll == FD_ROLL_GREEN_BLINK;
    out |= (uint8_t)(1u << (green ? FD_OUT_ROLL_GREEN : FD_OUT_ROLL_RED));
  }
  return out;
}

uint16_t fd_box_tone(fd_box_t *box, uint32_t now) {
  while (box->tune) {
    const fd_note_t *n = &box->tune[box->note];
    if ((uint32_t)(now - box->note_start) < n->ms) return n->hz;
    box->note_start += n->ms;
    if (++box->note >= box->tune_len) box->tune = 0;
  }
  return 0;
}
