/**
 * `npm start`: the Flight Deck table service. Reads the configuration (env + FLIGHTDECK_CONFIG),
 * restores every table from the database, starts cameras, vision and button boxes (simulated when
 * none are configured), and serves the dashboard and the API on http://HOST:PORT.
 */
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadServiceConfig } from './config/service-config.ts';
import { buildApp } from './http/app.ts';
import { portProblem } from './http/port-check.ts';
import { databaseFileIn } from './store/database.ts';
import { DiceSampleStore } from './store/dice-sample-store.ts';
import { tableGames } from './table/games.ts';
import { startHardware } from './table/table-hardware.ts';
import { TableService } from './table/table-service.ts';
import { DiceModels } from './vision/dice-models.ts';
import { createDiceReader } from './vision/index.ts';

function lanAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && a.family === 'IPv4' && !a.internal)
    .map((a) => a!.address);
}

function portWords(code: 'EADDRINUSE' | 'EACCES', port: number): string {
  return code === 'EADDRINUSE'
    ? `port ${port} is in use (another Flight Deck running? stop it, or start this one with PORT=<another port>)`
    : `port ${port} may not be opened by this user (use a port above 1023: PORT=3000)`;
}

async function main(): Promise<void> {
  let config;
  try {
    config = loadServiceConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  // a second copy started by mistake stops before it restores the journal, starts a demo station's timers or opens devices
  const early = config.port === 0 ? null : await portProblem(config.port, config.host);
  if (early === 'EADDRINUSE' || early === 'EACCES') {
    console.error(portWords(early, config.port));
    process.exit(2);
  }
  const dbFile = databaseFileIn(config.dataDir);
  const samples = new DiceSampleStore(join(config.dataDir, 'dice-samples'));
  let models: DiceModels | null = null;
  const { app, service } = await buildApp({
    logger: { level: config.logLevel },
    service: (log) => new TableService({ config, dbFile, games: tableGames, log }),
    models: (log) =>
      (models = new DiceModels({ dataDir: config.dataDir, configuredDir: config.modelDir, photosDir: samples.dir, openReader: (modelDir) => createDiceReader({ modelDir }), log })),
    hardware: async (svc, log) => startHardware(svc, { reader: () => models!.open(), log }),
    allowedOrigins: config.allowedOrigins,
    samples,
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EADDRINUSE' && code !== 'EACCES') throw err;
    // the devices opened already are let go before the exit (another Flight Deck may be using the port, and may want the box)
    app.log.error(portWords(code, config.port));
    setTimeout(() => process.exit(2), 10_000).unref();
    await app.close().catch(() => undefined);
    process.exit(2);
  }
  const { port } = app.server.address() as { port: number };
  app.log.info({ dataDir: config.dataDir, configFile: config.configFile }, `Flight Deck on http://localhost:${port}`);
  if (config.host === '0.0.0.0' || config.host === '::') {
    for (const ip of lanAddresses()) app.log.info(`phones on this network: http://${ip}:${port}`);
  }
  for (const table of service.tables.values()) {
    app.log.info({ table: table.id }, `table "${table.name}" (${table.id}): PIN ${table.pin}${config.pin ? ' (TABLE_PIN)' : ''}`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
