/*
 * Debounced buttons with short/long press detection. Plain C (host-testable).
 * A press is reported as LONG as soon as it has been held FD_LONG_MS, or as SHORT when it is
 * released before that; one event per press.
 */
#ifndef FD_BUTTONS_H
#define FD_BUTTONS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FD_BUTTON_COUNT 10
#define FD_DEBOUNCE_MS 20
#define FD_LONG_MS 700

typedef enum { FD_PRESS_NONE = 0, FD_PRESS_SHORT, FD_PRESS_LONG } fd_press_t;

typedef struct {
  uint8_t raw;        /* last raw level (1 = pressed) */
  uint8_t stable;     /* debounced level */
  uint8_t reported;   /* the long press of this hold has been reported */
  uint32_t raw_since; /* when raw last changed */
  uint32_t down_at;   /* when the debounced press began */
} fd_button_t;

typedef struct {
  fd_button_t b[FD_BUTTON_COUNT];
} fd_buttons_t;

void fd_buttons_init(fd_buttons_t *s, uint32_t now);
/*
 * Updates every button from the raw pressed mask (bit i = button i pressed) and calls emit for
 * each event. Call it often (every loop pass); `now` is a wrapping millisecond clock.
 */
void fd_buttons_update(fd_buttons_t *s, uint16_t pressed_mask, uint32_t now,
                       void (*emit)(uint8_t button, fd_press_t press, void *ctx), void *ctx);

#ifdef __cplusplus
}
#endif

#endif
