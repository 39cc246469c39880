/*
 * The box's behaviour, independent of Arduino: commands in, events and answers out, LED and
 * buzzer state over time. The sketch only moves bytes and pin levels (see flightdeck_box.ino).
 */
#ifndef FD_BOX_H
#define FD_BOX_H

#include <stdint.h>

#include "fd_buttons.h"
#include "fd_protocol.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FD_FW_VERSION "1.0.0"
#define FD_CAPS "BTN,LONG,LED,PULSE,BUZ"

typedef enum { FD_LED_OFF = 0, FD_LED_ON, FD_LED_BLINK, FD_LED_PULSE } fd_led_mode_t;
typedef enum { FD_ROLL_OFF = 0, FD_ROLL_GREEN, FD_ROLL_RED, FD_ROLL_GREEN_BLINK, FD_ROLL_RED_BLINK } fd_roll_t;

/* bits of fd_box_outputs() */
enum { FD_OUT_P1 = 0, FD_OUT_P2, FD_OUT_P3, FD_OUT_P4, FD_OUT_SPOT, FD_OUT_ROLL_GREEN, FD_OUT_ROLL_RED, FD_OUT_COUNT };

#define FD_BLINK_PERIOD_MS 1000
#define FD_PULSE_PERIOD_MS 2000
#define FD_PWM_PERIOD_MS 16

typedef struct {
  uint16_t hz; /* 0 = rest */
  uint16_t ms;
} fd_note_t;

typedef void (*fd_write_fn)(const char *data, uint8_t len, void *ctx);

typedef struct {
  fd_line_reader_t reader;
  fd_buttons_t buttons;
  uint8_t tx_seq;
  uint8_t led[5]; /* fd_led_mode_t for P1..P4, SPOT */
  uint8_t roll;   /* fd_roll_t */
  const fd_note_t *tune;
  uint8_t tune_len;
  uint8_t note;
  uint32_t note_start;
  fd_write_fn write;
  void *ctx;
} fd_box_t;

/* Resets everything and sends the boot HELLO. */
void fd_box_init(fd_box_t *box, fd_write_fn write, void *ctx, uint32_t now);
/* One received byte; complete lines are executed and answered (ACK/ERR) at once. */
void fd_box_rx(fd_box_t *box, uint8_t byte, uint32_t now);
/* Raw button levels (bit i = button i pressed, order of FD_BUTTON_NAMES); sends BTN events. */
void fd_box_buttons(fd_box_t *box, uint16_t pressed_mask, uint32_t now);
/* Pin levels the LEDs must have now (bit FD_OUT_x = lit). */
uint8_t fd_box_outputs(const fd_box_t *box, uint32_t now);
/* The buzzer frequency now, 0 for silence. */
uint16_t fd_box_tone(fd_box_t *box, uint32_t now);

extern const char *const FD_BUTTON_NAMES[FD_BUTTON_COUNT];

#ifdef __cplusplus
}
#endif

#endif
