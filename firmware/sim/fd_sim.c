/*
 * simavr harness for the Flight Deck box firmware (used by test/firmware).
 *   fd_sim <firmware.elf>
 * Runs the ATmega328P at 16 MHz, paced to wall-clock time, with its UART on a pseudo-terminal
 * (simavr's uart_pty). Control channel: one command per line on stdin, one answer line on stdout.
 *   down <BUTTON> | up <BUTTON>   hold / release a button (P1..P4 MOVE ATTACK SEARCH TOL CONFIRM UNDO)
 *   press <BUTTON> <ms>           press and release after <ms> of simulated time
 *   pins                          "PINS t=<sim ms> P1=<level>,<edges> ... BUZ=<level>,<edges>"
 *   regs                          "REGS B=<PIN>,<DDR>,<PORT> C=... D=..." (hex, for debugging)
 *   quit
 * First line printed: "PTY <path of the box's serial port>". Errors: "ERR <text>".
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <time.h>
#include <unistd.h>

#include "avr_ioport.h"
#include "parts/uart_pty.h"
#include "sim_avr.h"
#include "sim_elf.h"
#include "sim_time.h"

typedef struct {
  const char *name;
  char port;
  uint8_t bit;
} pin_t;

/* the firmware's pin map (flightdeck_box.ino, hardware.md) on ATmega328P ports */
static const pin_t BUTTONS[] = {
    {"P1", 'D', 2},     {"P2", 'D', 3},     {"P3", 'D', 4},      {"P4", 'D', 5},  {"MOVE", 'D', 6},
    {"ATTACK", 'D', 7}, {"SEARCH", 'B', 0}, {"TOL", 'C', 0},     {"CONFIRM", 'C', 1}, {"UNDO", 'C', 2},
};
static const pin_t OUTPUTS[] = {
    {"P1", 'B', 1}, {"P2", 'B', 2}, {"P3", 'B', 3}, {"P4", 'B', 4},
    {"SPOT", 'B', 5}, {"ROLLG", 'C', 3}, {"ROLLR", 'C', 4}, {"BUZ", 'C', 5},
};
#define NBUTTONS (sizeof BUTTONS / sizeof BUTTONS[0])
#define NOUTPUTS (sizeof OUTPUTS / sizeof OUTPUTS[0])

static avr_t *avr;
static uart_pty_t uart_pty;
static avr_irq_t *button_irq[NBUTTONS];
static uint8_t out_level[NOUTPUTS];
static unsigned long out_edges[NOUTPUTS];

static void on_output(struct avr_irq_t *irq, uint32_t value, void *param) {
  (void)irq;
  size_t i = (size_t)param;
  uint8_t level = value ? 1 : 0;
  if (level != out_level[i]) {
    out_level[i] = level;
    out_edges[i]++;
  }
}

static int find_button(const char *name) {
  for (size_t i = 0; i < NBUTTONS; i++)
    if (strcmp(BUTTONS[i].name, name) == 0) return (int)i;
  return -1;
}

/*
 * Buttons pull their pin to GND: pressed = 0. The level is declared as the port's "external"
 * input too: simavr re-raises every input pin with its internal pull-up to 1 whenever the
 * firmware writes the PORT register (LED outputs share ports B and C with buttons).
 */
static uint8_t external_value[3] = {0xFF, 0xFF, 0xFF}; /* ports B, C, D */
static uint8_t external_mask[3];

static void set_button(int i, int pressed) {
  int p = BUTTONS[i].port - 'B';
  uint8_t bit = (uint8_t)(1u << BUTTONS[i].bit);
  external_mask[p] |= bit;
  if (pressed) external_value[p] &= (uint8_t)~bit;
  else external_value[p] |= bit;
  avr_ioport_external_t ext = {.name = (unsigned)BUTTONS[i].port, .mask = external_mask[p], .value = external_value[p]};
  avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL(BUTTONS[i].port), &ext);
  avr_raise_irq(button_irq[i], pressed ? 0 : 1);
}

static avr_cycle_count_t release_later(struct avr_t *a, avr_cycle_count_t when, void *param) {
  (void)a;
  (void)when;
  set_button((int)(size_t)param, 0);
  return 0;
}

static double sim_ms(void) { return (double)avr->cycle * 1000.0 / (double)avr->frequency; }

static void answer_pins(void) {
  printf("PINS t=%.0f", sim_ms());
  for (size_t i = 0; i < NOUTPUTS; i++) printf(" %s=%u,%lu", OUTPUTS[i].name, out_level[i], out_edges[i]);
  printf("\n");
}

/* returns 0 to quit */
static int command(char *line) {
  char verb[16] = "", name[16] = "";
  long ms = 0;
  int n = sscanf(line, "%15s %15s %ld", verb, name, &ms);
  if (n <= 0) return 1;
  if (strcmp(verb, "quit") == 0) return 0;
  if (strcmp(verb, "regs") == 0) { /* PINx DDRx PORTx of ports B, C, D */
    printf("REGS B=%02X,%02X,%02X C=%02X,%02X,%02X D=%02X,%02X,%02X\n", avr->data[0x23], avr->data[0x24], avr->data[0x25],
           avr->data[0x26], avr->data[0x27], avr->data[0x28], avr->data[0x29], avr->data[0x2A], avr->data[0x2B]);
    return 1;
  }
  if (strcmp(verb, "pins") == 0) {
    answer_pins();
    return 1;
  }
  int b = find_button(name);
  if (n < 2 || b < 0) {
    printf("ERR unknown button or command: %s", line);
    return 1;
  }
  if (strcmp(verb, "down") == 0 || strcmp(verb, "up") == 0) {
    set_button(b, verb[0] == 'd');
    printf("OK t=%.0f\n", sim_ms());
  } else if (strcmp(verb, "press") == 0 && n == 3 && ms > 0 && ms < 60000) {
    set_button(b, 1);
    avr_cycle_timer_register_usec(avr, (uint32_t)(ms * 1000), release_later, (void *)(size_t)b);
    printf("OK t=%.0f\n", sim_ms());
  } else {
    printf("ERR bad command: %s", line);
  }
  return 1;
}

static double wall_ms(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) * 1000.0 + (double)(t.tv_nsec - t0->tv_nsec) / 1e6;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s firmware.elf\n", argv[0]);
    return 2;
  }
  setvbuf(stdout, NULL, _IOLBF, 0);
  elf_firmware_t fw;
  memset(&fw, 0, sizeof fw);
  if (elf_read_firmware(argv[1], &fw) != 0) {
    fprintf(stderr, "cannot read %s\n", argv[1]);
    return 1;
  }
  avr = avr_make_mcu_by_name("atmega328p");
  if (!avr) return 1;
  avr_init(avr);
  avr->frequency = 16000000;
  avr->log = LOG_ERROR;
  avr_load_firmware(avr, &fw);
  avr->frequency = 16000000;

  for (size_t i = 0; i < NBUTTONS; i++) {
    button_irq[i] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(BUTTONS[i].port), BUTTONS[i].bit);
    set_button((int)i, 0);
  }
  for (size_t i = 0; i < NOUTPUTS; i++) {
    avr_irq_t *irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(OUTPUTS[i].port), OUTPUTS[i].bit);
    avr_irq_register_notify(irq, on_output, (void *)i);
  }

  uart_pty_init(avr, &uart_pty);
  uart_pty_connect(&uart_pty, '0');
  printf("PTY %s\n", uart_pty.port[0].slavename);

  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  char line[256];
  size_t used = 0;
  int running = 1;
  while (running) {
    /* run about 1 ms of simulated time, then pace against the wall clock and read stdin */
    avr_cycle_count_t until = avr->cycle + avr->frequency / 1000;
    while (avr->cycle < until) {
      int state = avr_run(avr);
      if (state == cpu_Done || state == cpu_Crashed) {
        printf("ERR cpu stopped (%d)\n", state);
        running = 0;
        break;
      }
    }
    double ahead = sim_ms() - wall_ms(&t0);
    if (ahead > 1.0) {
      struct timespec d = {0, (long)(ahead * 1e6)};
      nanosleep(&d, NULL);
    }
    fd_set fds;
    FD_ZERO(&fds);
    FD_SET(0, &fds);
    struct timeval tv = {0, 0};
    while (running && select(1, &fds, NULL, NULL, &tv) > 0) {
      ssize_t n = read(0, line + used, sizeof line - 1 - used);
      if (n <= 0) {
        running = 0; /* stdin closed: the test is gone */
        break;
      }
      used += (size_t)n;
      char *nl;
      while (running && (nl = memchr(line, '\n', used)) != NULL) {
        *nl = '\0';
        char cmd[256];
        size_t len = (size_t)(nl - line);
        memcpy(cmd, line, len);
        cmd[len] = '\n';
        cmd[len + 1] = '\0';
        running = command(cmd);
        memmove(line, nl + 1, used - len - 1);
        used -= len + 1;
      }
      if (used == sizeof line - 1) used = 0; /* an over-long command line is dropped */
      FD_ZERO(&fds);
      FD_SET(0, &fds);
    }
  }
  uart_pty_stop(&uart_pty);
  return 0;
}
