/*
 * Flight Deck button/LED box for an ATmega328P board (Arduino Uno or Nano).
 * Protocol: firmware/PROTOCOL.md. Wiring: hardware.md (the pin map below is the reference).
 * All behaviour lives in src/ (plain C, tested on the host); this file only moves bytes and pins.
 */
#include <Arduino.h>

#include "src/fd_box.h"

static const unsigned long BAUD = 57600;

/* Buttons, in protocol order: P1 P2 P3 P4 MOVE ATTACK SEARCH TOL CONFIRM UNDO.
   Each button connects its pin to GND (internal pull-up: LOW = pressed). */
static const uint8_t BUTTON_PINS[FD_BUTTON_COUNT] = {2, 3, 4, 5, 6, 7, 8, A0, A1, A2};
/* LEDs (through a resistor to GND, HIGH = lit), in FD_OUT_x order:
   plane 1..4, "Yorktown spotted", roll green, roll red. D13 also drives the board's own LED. */
static const uint8_t LED_PINS[FD_OUT_COUNT] = {9, 10, 11, 12, 13, A3, A4};
static const uint8_t BUZZER_PIN = A5; /* passive piezo buzzer to GND */

static fd_box_t box;
static uint16_t playing_hz = 0;

static void write_serial(const char *data, uint8_t len, void *ctx) {
  (void)ctx;
  Serial.write((const uint8_t *)data, len);
}

void setup() {
  for (uint8_t i = 0; i < FD_BUTTON_COUNT; i++) pinMode(BUTTON_PINS[i], INPUT_PULLUP);
  for (uint8_t i = 0; i < FD_OUT_COUNT; i++) {
    pinMode(LED_PINS[i], OUTPUT);
    digitalWrite(LED_PINS[i], LOW);
  }
  pinMode(BUZZER_PIN, OUTPUT);
  Serial.begin(BAUD);
  fd_box_init(&box, write_serial, 0, millis());
}

void loop() {
  uint32_t now = millis();
  while (Serial.available() > 0) fd_box_rx(&box, (uint8_t)Serial.read(), now);

  uint16_t pressed = 0;
  for (uint8_t i = 0; i < FD_BUTTON_COUNT; i++) {
    if (digitalRead(BUTTON_PINS[i]) == LOW) pressed |= (uint16_t)(1u << i);
  }
  fd_box_buttons(&box, pressed, now);

  uint8_t out = fd_box_outputs(&box, now);
  for (uint8_t i = 0; i < FD_OUT_COUNT; i++) digitalWrite(LED_PINS[i], (out >> i) & 1 ? HIGH : LOW);

  uint16_t hz = fd_box_tone(&box, now);
  if (hz != playing_hz) {
    playing_hz = hz;
    if (hz) tone(BUZZER_PIN, hz);
    else noTone(BUZZER_PIN);
  }
}
