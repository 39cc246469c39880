/*
 * Flight Deck box line protocol: framing, CRC-8 and field splitting (see firmware/PROTOCOL.md).
 * Plain C, no Arduino: compiled for the ATmega328P and for the host tests.
 */
#ifndef FD_PROTOCOL_H
#define FD_PROTOCOL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define FD_PROTO_VERSION 1
/* the longest line, terminating LF included */
#define FD_MAX_LINE 64
#define FD_MAX_ARGS 6
#define FD_MAX_VERB 8
#define FD_MAX_ARG 24

typedef enum {
  FD_OK = 0,
  FD_ERR_LEN,     /* longer than FD_MAX_LINE */
  FD_ERR_CHAR,    /* a byte outside printable ASCII */
  FD_ERR_FRAME,   /* no " *HH" trailer, or a truncated line */
  FD_ERR_CRC,     /* checksum mismatch */
  FD_ERR_SEQ,     /* sequence field is not two hex digits */
  FD_ERR_SYNTAX,  /* bad verb or argument shape, too many arguments */
} fd_status_t;

typedef struct {
  uint8_t seq;
  const char *verb;
  uint8_t argc;
  const char *argv[FD_MAX_ARGS];
} fd_message_t;

/* CRC-8/SMBUS: polynomial 0x07, init 0x00, no reflection, no final xor. */
uint8_t fd_crc8(const uint8_t *data, uint16_t len);
uint8_t fd_crc8_update(uint8_t crc, uint8_t byte);

/*
 * Parses one line in place (without its LF; a trailing CR is tolerated). `line` is modified:
 * the separators become NULs and `msg` points into it. Returns FD_OK or the first problem found.
 */
fd_status_t fd_parse_line(char *line, uint16_t len, fd_message_t *msg);

/*
 * Writes "SS VERB ARG... *CC\n" into out (capacity cap) and returns its length, or 0 when it
 * does not fit in cap or in FD_MAX_LINE. argv may be NULL when argc is 0.
 */
uint8_t fd_format_line(char *out, uint8_t cap, uint8_t seq, const char *verb, uint8_t argc, const char *const *argv);

/* Short upper-case code of a status, as sent in ERR lines ("CRC", "LEN", ...). */
const char *fd_status_code(fd_status_t status);

/*
 * Line assembly from a byte stream: bytes are accumulated until LF; an over-long line is
 * dropped up to its LF and reported once as FD_ERR_LEN; a byte outside printable ASCII marks the
 * line FD_ERR_CHAR.
 */
typedef struct {
  char buf[FD_MAX_LINE];
  uint8_t len;
  uint8_t overflow;
  uint8_t bad_char;
} fd_line_reader_t;

void fd_reader_init(fd_line_reader_t *r);
/*
 * Feeds one byte. Returns 1 when a line is complete: *status is FD_OK (line in r->buf, NUL
 * terminated, length in *len, without LF) or the reason it was dropped. Returns 0 otherwise.
 */
uint8_t fd_reader_push(fd_line_reader_t *r, uint8_t byte, fd_status_t *status, uint8_t *len);

#ifdef __cplusplus
}
#endif

#endif
