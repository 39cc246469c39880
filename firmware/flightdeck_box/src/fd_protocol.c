#include "fd_protocol.h"

#include <string.h>

uint8_t fd_crc8_update(uint8_t crc, uint8_t byte) {
  crc ^= byte;
  for (uint8_t i = 0; i < 8; i++) {
    crc = (crc & 0x80) ? (uint8_t)((crc << 1) ^ 0x07) : (uint8_t)(crc << 1);
  }
  return crc;
}

uint8_t fd_crc8(const uint8_t *data, uint16_t len) {
  uint8_t crc = 0;
  for (uint16_t i = 0; i < len; i++) crc = fd_crc8_update(crc, data[i]);
  return crc;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static const char HEX[] = "0123456789ABCDEF";

static uint8_t is_arg_char(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '=' || c == ',' || c == '/' || c == '+' || c == '-' || c == ':';
}

fd_status_t fd_parse_line(char *line, uint16_t len, fd_message_t *msg) {
  if (len > 0 && line[len - 1] == '\r') len--;
  if (len + 1 > FD_MAX_LINE) return FD_ERR_LEN;
  for (uint16_t i = 0; i < len; i++) {
    if ((uint8_t)line[i] < 0x20 || (uint8_t)line[i] > 0x7E) return FD_ERR_CHAR;
  }
  /* shortest line: "SS V *CC" */
  if (len < 8 || line[len - 4] != ' ' || line[len - 3] != '*') return FD_ERR_FRAME;
  int hi = hex_value(line[len - 2]);
  int lo = hex_value(line[len - 1]);
  if (hi < 0 || lo < 0) return FD_ERR_FRAME;
  uint16_t payload = len - 4;
  if (fd_crc8((const uint8_t *)line, payload) != (uint8_t)(hi * 16 + lo)) return FD_ERR_CRC;

  int s1 = hex_value(line[0]);
  int s0 = hex_value(line[1]);
  if (s1 < 0 || s0 < 0 || line[2] != ' ') return FD_ERR_SEQ;
  msg->seq = (uint8_t)(s1 * 16 + s0);
  line[payload] = '\0';

  uint16_t i = 3;
  uint16_t start = i;
  while (i < payload && line[i] >= 'A' && line[i] <= 'Z') i++;
  if (i == start || i - start > FD_MAX_VERB || (i < payload && line[i] != ' ')) return FD_ERR_SYNTAX;
  msg->verb = line + start;
  msg->argc = 0;
  while (i < payload) {
    line[i++] = '\0'; /* the space before this argument */
    start = i;
    while (i < payload && is_arg_char(line[i])) i++;
    if (i == start || i - start > FD_MAX_ARG || (i < payload && line[i] != ' ')) return FD_ERR_SYNTAX;
    if (msg->argc == FD_MAX_ARGS) return FD_ERR_SYNTAX;
    msg->argv[msg->argc++] = line + start;
  }
  return FD_OK;
}

static uint8_t append(char *out, uint8_t cap, uint8_t pos, const char *s) {
  size_t n = strlen(s);
  if (pos + n > cap) return 0xFF;
  memcpy(out + pos, s, n);
  return (uint8_t)(pos + n);
}

uint8_t fd_format_line(char *out, uint8_t cap, uint8_t seq, const char *verb, uint8_t argc, const char *const *argv) {
  if (cap > FD_MAX_LINE) cap = FD_MAX_LINE;
  if (cap < 9) return 0;
  out[0] = HEX[seq >> 4];
  out[1] = HEX[seq & 15];
  out[2] = ' ';
  uint8_t pos = append(out, cap, 3, verb);
  for (uint8_t a = 0; a < argc && pos != 0xFF; a++) {
    pos = append(out, cap, pos, " ");
    if (pos != 0xFF) pos = append(out, cap, pos, argv[a]);
  }
  /* " *CC\n" */
  if (pos == 0xFF || pos + 5 > cap) return 0;
  uint8_t crc = fd_crc8((const uint8_t *)out, pos);
  out[pos++] = ' ';
  out[pos++] = '*';
  out[pos++] = HEX[crc >> 4];
  out[pos++] = HEX[crc & 15];
  out[pos++] = '\n';
  return pos;
}

const char *fd_status_code(fd_status_t status) {
  switch (status) {
    case FD_OK: return "OK";
    case FD_ERR_LEN: return "LEN";
    case FD_ERR_CHAR: return "CHAR";
    case FD_ERR_FRAME: return "FRAME";
    case FD_ERR_CRC: return "CRC";
    case FD_ERR_SEQ: return "SEQ";
    case FD_ERR_SYNTAX: return "SYNTAX";
  }
  return "SYNTAX";
}

void fd_reader_init(fd_line_reader_t *r) {
  r->len = 0;
  r->overflow = 0;
  r->bad_char = 0;
}

uint8_t fd_reader_push(fd_line_reader_t *r, uint8_t byte, fd_status_t *status, uint8_t *len) {
  if (byte == '\n') {
    fd_status_t st = FD_OK;
    if (r->overflow) st = FD_ERR_LEN;
    else if (r->bad_char) st = FD_ERR_CHAR;
    *len = r->len;
    r->buf[r->len < FD_MAX_LINE ? r->len : FD_MAX_LINE - 1] = '\0';
    *status = st;
    fd_reader_init(r);
    return 1;
  }
  if (r->overflow) return 0;
  /* room for the NUL that replaces the LF */
  if (r->len >= FD_MAX_LINE - 1) {
    r->overflow = 1;
    return 0;
  }
  if ((byte < 0x20 || byte > 0x7E) && byte != '\r') r->bad_char = 1;
  r->buf[r->len++] = (char)byte;
  return 0;
}
