/** The table's name in the header: the service's default one in the page's language, an owner's as given. */
import { afterEach, describe, expect, it } from 'vitest';
import { loadServiceConfig, parseTablesFile } from '../../server/config/service-config.ts';
import { tableName } from '../../web/src/format.ts';
import { setLang } from '../../web/src/i18n.ts';

describe('the table name shown', () => {
  afterEach(() => setLang('en', null));

  it('is the service\'s default one in the page\'s language', () => {
    const [table] = loadServiceConfig({}).tables;
    expect(table).toMatchObject({ name: 'Table 1', defaultName: true });
    setLang('es', null);
    expect(tableName({ name: table!.name, defaultName: table!.defaultName })).toBe('Mesa 1');
    setLang('en', null);
    expect(tableName({ name: table!.name, defaultName: true })).toBe('Table 1');
  });

  it('is the owner\'s as given, even when it reads like the default', () => {
    expect(parseTablesFile({ tables: [{ id: 'default', name: 'Table 1' }] })[0]!.defaultName).toBeUndefined();
    setLang('es', null);
    expect(tableName({ name: 'Table 1' })).toBe('Table 1');
    expect(tableName({ name: 'Mesa del fondo' })).toBe('Mesa del fondo');
    // the service marks only its own name: one of another form is left alone
    expect(tableName({ name: 'default', defaultName: true })).toBe('default');
  });
});
