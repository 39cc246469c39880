#include "fd_buttons.h"

void fd_buttons_init(fd_buttons_t *s, uint32_t now) {
  for (uint8_t i = 0; i < FD_BUTTON_COUNT; i++) {
    s->b[i].raw = 0;
    s->b[i].stable = 0;
    s->b[i].reported = 0;
    s->b[i].raw_since = now;
    s->b[i].down_at = now;
  }
}

void fd_buttons_update(fd_buttons_t *s, uint16_t pressed_mask, uint32_t now,
                       void (*emit)(uint8_t button, fd_press_t press, void *ctx), void *ctx) {
  for (uint8_t i = 0; i < FD_BUTTON_COUNT; i++) {
    fd_button_t *b = &s->b[i];
    uint8_t raw = (pressed_mask >> i) & 1;
    if (raw != b->raw) {
      b->raw = raw;
      b->raw_since = now;
    }
    if (b->stable != b->raw && (uint32_t)(now - b->raw_since) >= FD_DEBOUNCE_MS) {
      b->stable = b->raw;
      if (b->stable) {
        b->down_at = now;
        b->reported = 0;
      } else if (!b->reported) {
        emit(i, FD_PRESS_SHORT, ctx);
      }
    }
    if (b->stable && !b->reported && (uint32_t)(now - b->down_at) >= FD_LONG_MS) {
      b->reported = 1;
      emit(i, FD_PRESS_LONG, ctx);
    }
  }
}
