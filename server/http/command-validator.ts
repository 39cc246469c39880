/**
 * Validates commands against their JSON schemas (one per command type), the same way for
 * HTTP and socket.io. No type coercion: "5" is not 5.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { CommandRejection, GameCommand } from '../games/game-module.ts';

export type Validation = { ok: true; command: GameCommand } | { ok: false; error: CommandRejection };

function describe(errors: ErrorObject[] | null | undefined): string {
  if (!errors || errors.length === 0) return 'does not match its schema';
  return errors
    .slice(0, 5)
    .map((e) => {
      const where = e.instancePath === '' ? 'command' : e.instancePath.slice(1).replace(/\//g, '.');
      if (e.keyword === 'additionalProperties') return `${where}: unknown field "${String((e.params as { additionalProperty?: string }).additionalProperty)}"`;
      if (e.keyword === 'enum') return `${where} must be one of ${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)}`;
      return `${where} ${e.message ?? 'is invalid'}`;
    })
    .join('; ');
}

export class CommandValidator {
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly schemas: Record<string, Record<string, unknown>>) {
    const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
    for (const [type, schema] of Object.entries(schemas)) {
      const { $schema: _ignored, ...rest } = schema;
      this.validators.set(type, ajv.compile(rest));
    }
  }

  get types(): string[] {
    return [...this.validators.keys()];
  }

  validate(input: unknown): Validation {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      return { ok: false, error: { code: 'badCommand', message: 'A command is a JSON object with a "type".' } };
    }
    const type = (input as { type?: unknown }).type;
    if (typeof type !== 'string') return { ok: false, error: { code: 'badCommand', message: 'The command has no "type" string.' } };
    const validate = this.validators.get(type);
    if (!validate) return { ok: false, error: { code: 'unknownCommand', message: `Unknown command "${type.slice(0, 40)}".` } };
    if (!validate(input)) return { ok: false, error: { code: 'badCommand', message: `${type}: ${describe(validate.errors)}` } };
    return { ok: true, command: input as GameCommand };
  }
}
