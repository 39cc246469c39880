/**
 * Fields a client may leave out of a command, with the value they take (e.g. newGame's player
 * count). One declaration gives both the filling-in done before validation and the schema published
 * at GET /api/commands, so what is published is exactly what is accepted: a defaulted field is not
 * `required` there, and carries its JSON-schema `default`.
 */
export type CommandDefaults = Record<string, Record<string, unknown>>;

/** The command with its missing defaulted fields filled in; anything that is not a known command object as it is. */
export function fillDefaults(command: unknown, defaults: CommandDefaults): unknown {
  if (typeof command !== 'object' || command === null || Array.isArray(command)) return command;
  const type = (command as { type?: unknown }).type;
  if (typeof type !== 'string' || !Object.hasOwn(defaults, type)) return command;
  const missing = Object.entries(defaults[type]).filter(([field]) => !Object.hasOwn(command, field));
  return missing.length === 0 ? command : { ...command, ...Object.fromEntries(missing) };
}

/** The schemas as clients may send the commands: defaulted fields optional, with their `default`. */
export function publishDefaults(schemas: Record<string, Record<string, unknown>>, defaults: CommandDefaults): Record<string, Record<string, unknown>> {
  const published: Record<string, Record<string, unknown>> = { ...schemas };
  for (const [type, fields] of Object.entries(defaults)) {
    const schema = schemas[type];
    if (!schema) throw new Error(`defaults for "${type}", which has no schema`);
    const properties = { ...(schema.properties as Record<string, Record<string, unknown>> | undefined) };
    for (const [field, value] of Object.entries(fields)) {
      if (!properties[field]) throw new Error(`default for ${type}.${field}, which its schema does not have`);
      properties[field] = { ...properties[field], default: value };
    }
    const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((f) => !Object.hasOwn(fields, f)) : undefined;
    published[type] = { ...schema, properties, ...(required ? { required } : {}) };
  }
  return published;
}
