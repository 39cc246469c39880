import { describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadServiceConfig, loadTablesFile, parseTablesFile } from '../../server/config/service-config.ts';

const problemsOf = (fn: () => unknown): string[] => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error('no ConfigError');
};

describe('service configuration', () => {
  it('defaults: one table "default" with the synthetic camera and the box found plugged in (else the virtual one), port 3000, all interfaces, ./data', () => {
    const c = loadServiceConfig({});
    expect(c).toMatchObject({ port: 3000, host: '0.0.0.0', pin: null, configFile: null });
    expect(c.dataDir).toBe(join(process.cwd(), 'data'));
    expect(c.tables).toHaveLength(1);
    expect(c.tables[0]).toMatchObject({ id: 'default', game: 'yorktown1942', serial: { kind: 'auto' }, camera: { source: 'synthetic' }, kiosk: null });
  });

  it('lists the problems of the environment and of the tables file together; refuses a bad LOG_LEVEL, HOST or game', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flightdeck-config-'));
    try {
      const file = join(dir, 'tables.json');
      writeFileSync(file, JSON.stringify({ tables: [{ id: 'a', game: 'chess' }] }));
      const problems = problemsOf(() => loadServiceConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', HOST: 'not a host!', FLIGHTDECK_CONFIG: file }));
      expect(problems).toEqual([
        'PORT: "eighty" is not a port number (0-65535)',
        'HOST: "not a host!" is not an address like 0.0.0.0 (every interface), 127.0.0.1 (this machine only) or a host name',
        'LOG_LEVEL: "loud" is not one of fatal, error, warn, info, debug, trace, silent',
        `${file}: tables[0].game: expected the id of a game this service has (yorktown1942) (got "chess")`,
      ]);
      expect(() => loadServiceConfig({ PORT: 'eighty', FLIGHTDECK_CONFIG: file })).toThrow(/^Invalid configuration from the environment and /);
      // the file alone wrong: its own problems, named by field
      expect(problemsOf(() => loadServiceConfig({ FLIGHTDECK_CONFIG: file }))).toEqual([expect.stringMatching(/^tables\[0\]\.game: /)]);
      expect(loadServiceConfig({ LOG_LEVEL: 'debug', HOST: 'deck.local' })).toMatchObject({ logLevel: 'debug', host: 'deck.local' });
      expect(loadServiceConfig({ HOST: '::1' }).host).toBe('::1');
      expect(loadServiceConfig({}).logLevel).toBe('info');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads PORT, HOST, FLIGHTDECK_DATA and TABLE_PIN, and refuses bad ones', () => {
    expect(loadServiceConfig({ PORT: '8080', HOST: '127.0.0.1', FLIGHTDECK_DATA: '/tmp/x', TABLE_PIN: '4321' })).toMatchObject({ port: 8080, host: '127.0.0.1', dataDir: '/tmp/x', pin: '4321' });
    expect(problemsOf(() => loadServiceConfig({ PORT: 'eighty' }))[0]).toMatch(/^PORT/);
    expect(problemsOf(() => loadServiceConfig({ TABLE_PIN: '12' }))[0]).toMatch(/^TABLE_PIN/);
  });

  it('FLIGHTDECK_ALLOWED_ORIGINS: a comma-separated list of http(s) origins, normalised; anything else is refused', () => {
    expect(loadServiceConfig({}).allowedOrigins).toEqual([]);
    expect(loadServiceConfig({ FLIGHTDECK_ALLOWED_ORIGINS: ' https://Deck.Example:443 , http://192.168.1.20:3000/ ' }).allowedOrigins).toEqual([
      'https://deck.example',
      'http://192.168.1.20:3000',
    ]);
    for (const bad of ['deck.example', 'ftp://deck.example', 'https://deck.example/path', 'https://user@deck.example', '*', 'null', 'https://deck.example?x=1']) {
      expect(problemsOf(() => loadServiceConfig({ FLIGHTDECK_ALLOWED_ORIGINS: bad }))[0], bad).toMatch(/^FLIGHTDECK_ALLOWED_ORIGINS/);
    }
  });

  it('FLIGHTDECK_MODEL: a dice model folder to read with instead of the shipped one; a folder without a model is refused', () => {
    expect(loadServiceConfig({}).modelDir).toBeNull();
    const models = join(import.meta.dirname, '..', '..', 'models');
    expect(loadServiceConfig({ FLIGHTDECK_MODEL: models }).modelDir).toBe(models);
    const empty = mkdtempSync(join(tmpdir(), 'no-model-'));
    try {
      expect(problemsOf(() => loadServiceConfig({ FLIGHTDECK_MODEL: empty }))[0]).toMatch(/^FLIGHTDECK_MODEL: .* holds no dice model/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('the example file is valid', () => {
    const tables = loadTablesFile(join(process.cwd(), 'config/tables.example.json'));
    expect(tables.map((t) => t.id)).toEqual(['table1', 'demo', 'manual']);
    expect(tables[0].serial).toEqual({ kind: 'usb', vendorId: '2341', productId: '0043' });
    expect(tables[0].camera.source).toBe('ffmpeg');
    expect(tables[1].kiosk).toEqual({ attractAfterMinutes: 3, resetAfterGameSeconds: 60, idleResetMinutes: 10 });
    expect(tables[2]).toMatchObject({ serial: { kind: 'none' }, camera: { source: 'none' } });
  });

  it('"auto" in a tables file: the box found plugged in, else the one on the dashboard', () => {
    expect(parseTablesFile({ tables: [{ id: 'a', serial: 'auto' }] })[0]!.serial).toEqual({ kind: 'auto' });
  });

  it('the demo-station example is valid', () => {
    const [demo] = loadTablesFile(join(process.cwd(), 'config/demo-station.example.json'));
    expect(demo).toMatchObject({ id: 'demo', serial: { kind: 'virtual' }, camera: { source: 'fswebcam', device: '/dev/video0' }, kiosk: { attractAfterMinutes: 3 } });
  });

  it('reports every problem with the path of the field', () => {
    const problems = problemsOf(() =>
      parseTablesFile({
        tables: [
          { id: 'A B', serial: 5 },
          { id: 'ok', camera: { source: 'laser' }, kiosk: { attractAfterMinutes: -1 }, extra: 1 },
          { id: 'ok', tableDisplays: ['not-an-ip'] },
        ],
      }),
    );
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^tables\[0\]\.id:/),
        expect.stringMatching(/^tables\[0\]\.serial:/),
        expect.stringMatching(/^tables\[1\]\.camera\.source:/),
        expect.stringMatching(/^tables\[1\]\.kiosk\.attractAfterMinutes:/),
        expect.stringMatching(/^tables\[1\]\.extra: unknown field/),
        expect.stringMatching(/^tables\[2\]\.id: "ok" is used by an earlier table/),
        expect.stringMatching(/^tables\[2\]\.tableDisplays:/),
      ]),
    );
    expect(problemsOf(() => parseTablesFile({ tables: [] }))).toEqual(['tables: expected a non-empty array of tables']);
  });

  it('a file that is missing or not JSON gives a clear error', () => {
    const dir = mkdtempSync(join(tmpdir(), 'flightdeck-config-'));
    try {
      expect(problemsOf(() => loadTablesFile(join(dir, 'nope.json')))[0]).toMatch(/cannot read the file/);
      writeFileSync(join(dir, 'bad.json'), '{"tables": [');
      expect(problemsOf(() => loadTablesFile(join(dir, 'bad.json')))[0]).toMatch(/not valid JSON/);
      expect(() => loadServiceConfig({ FLIGHTDECK_CONFIG: join(dir, 'bad.json') })).toThrow(ConfigError);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
