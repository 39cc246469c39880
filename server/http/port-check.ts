/** Whether the service's port can be opened, tried before anything else starts (a second copy must not touch the journal, camera or box). */
import { createServer } from 'node:net';

/** The error code opening `port` on `host` gives now ('EADDRINUSE', 'EACCES', ...), or null when it opens. */
export function portProblem(port: number, host: string): Promise<string | null> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'unknown'));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve(null)));
  });
}
