/** JSON schemas of the HTTP routes (params, querystrings, bodies). Commands have their own, per game. */
export const TABLE_ID_PATTERN = '^[a-z0-9][a-z0-9_-]{0,31}$';

export const tableParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id'],
  properties: { id: { type: 'string', pattern: TABLE_ID_PATTERN } },
} as const;

export const noQuery = { type: 'object', additionalProperties: false, properties: {} } as const;

export const frameQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { t: { type: 'string', maxLength: 32 } },
} as const;

/** A range's days are read in words by stats-range.ts (which day is wrong, and why). */
const rangeDay = { type: 'string', maxLength: 32 } as const;

export const statsQuery = {
  type: 'object',
  additionalProperties: false,
  properties: { day: { type: 'string', pattern: '^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$' }, from: rangeDay, to: rangeDay },
} as const;

export const gamesCsvQuery = {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to'],
  properties: { from: rangeDay, to: rangeDay },
} as const;

/** The envelope every command shares; the command's own schema is checked next. */
export const commandBody = {
  type: 'object',
  required: ['type'],
  properties: { type: { type: 'string', minLength: 1, maxLength: 40 } },
} as const;

export const settingsBody = {
  type: 'object',
  additionalProperties: false,
  required: ['ruleOverrides'],
  properties: {
    ruleOverrides: {
      type: 'object',
      maxProperties: 100,
      propertyNames: { pattern: '^[A-Za-z0-9_.\\[\\]-]{1,120}$' },
    },
  },
} as const;

/** A camera calibration: each area is checked in words by the camera module (parseArea). */
export const calibrationBody = {
  type: 'object',
  additionalProperties: false,
  required: ['tray'],
  properties: {
    tray: { type: ['object', 'null'] },
    keptZone: { type: ['object', 'null'] },
  },
} as const;

export const throwBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    dice: { type: 'integer', minimum: 1, maximum: 12 },
    faces: { type: 'array', minItems: 1, maxItems: 12, items: { type: 'integer', minimum: 1, maximum: 6 } },
    leaning: { type: 'integer', minimum: 0, maximum: 3 },
    keep: { type: 'array', maxItems: 11, items: { type: 'integer', minimum: 1, maximum: 6 } },
  },
} as const;

export const keepBody = {
  type: 'object',
  additionalProperties: false,
  required: ['faces'],
  properties: {
    faces: { type: 'array', maxItems: 11, items: { type: 'integer', minimum: 1, maximum: 6 } },
  },
} as const;

export const heldParams = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'hold'],
  properties: { id: { type: 'string', pattern: TABLE_ID_PATTERN }, hold: { type: 'string', pattern: '^[0-9]{1,16}$' } },
} as const;

/** A labelled photo of the players' dice (checked against the photo's size by server/vision/dice-sample.ts). */
export const sampleBody = {
  type: 'object',
  additionalProperties: false,
  required: ['hold', 'dice'],
  properties: {
    hold: { type: 'string', pattern: '^[0-9]{1,16}$' },
    dice: {
      type: 'array',
      maxItems: 40,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['x', 'y', 'w', 'h', 'face'],
        properties: {
          x: { type: 'number' },
          y: { type: 'number' },
          w: { type: 'number' },
          h: { type: 'number' },
          face: { anyOf: [{ type: 'integer', minimum: 1, maximum: 6 }, { const: 'cocked' }] },
        },
      },
    },
  },
} as const;

export const BOX_BUTTONS = ['plane1', 'plane2', 'plane3', 'plane4', 'move', 'attack', 'search', 'takeoffLanding', 'confirm', 'undo'] as const;

export const pressBody = {
  type: 'object',
  additionalProperties: false,
  required: ['button'],
  properties: {
    button: { enum: BOX_BUTTONS },
    press: { enum: ['short', 'long'] },
  },
} as const;

export const emptyBody = { type: 'object', additionalProperties: false, properties: {} } as const;

/** /phone/:seat — a player's seat, 1 to 4 */
export const seatParams = {
  type: 'object',
  additionalProperties: false,
  required: ['seat'],
  properties: { seat: { type: 'string', pattern: '^[1-4]$' } },
} as const;

/** The dashboard's own query parameters a short /phone address passes on. */
export const phoneQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    table: { type: 'string', pattern: TABLE_ID_PATTERN },
    lang: { type: 'string', pattern: '^[a-z]{2}$' },
    pin: { type: 'string', pattern: '^[0-9]{4,8}$' },
  },
} as const;

/** Which dice model the cameras read with: the taught one, or the base one it was taught from. */
export const diceModelBody = {
  type: 'object',
  additionalProperties: false,
  required: ['use'],
  properties: { use: { type: 'string', enum: ['taught', 'base'] } },
} as const;
