/**
 * What keeps a browser from being turned against the service: the safety headers sent with every
 * answer, the Origin check for socket.io handshakes (cross-site WebSocket), and the check that a
 * static file really lies inside the dashboard folder (symbolic links are not followed out of it).
 */
import { realpathSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join, sep } from 'node:path';

/** host[:port] as a browser sends it in Host: letters, digits, dots, dashes, an IPv6 literal in brackets */
const HOST_PATTERN = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/**
 * Content-Security-Policy for the dashboard: its own scripts, styles, images (camera frames, data:
 * and blob: images it builds) and connections only; WebSockets only to the host the page came from.
 */
export function contentSecurityPolicy(host: string | undefined): string {
  const sockets = host !== undefined && HOST_PATTERN.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    `connect-src 'self'${sockets}`,
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(host: string | undefined): Record<string, string> {
  return {
    'content-security-policy': contentSecurityPolicy(host),
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
  };
}

/** "http://Host:3000/" -> "http://host:3000"; null for anything that is not an http(s) origin */
export function normaliseOrigin(origin: string): string | null {
  try {
    const url = new URL(origin);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

/**
 * May a socket.io handshake with this Origin go ahead? No Origin header (Node clients, the serial box
 * bridge, curl): yes, a browser always sends one. A page served by this host: yes. One of the
 * configured `allowedOrigins` (e.g. a reverse proxy's public address): yes. Anything else: no.
 */
export function originAllowed(origin: string | undefined, host: string | undefined, allowedOrigins: readonly string[]): boolean {
  if (origin === undefined) return true;
  const normalised = normaliseOrigin(origin);
  if (normalised === null) return false;
  if (host !== undefined && new URL(normalised).host === hostWithDefaultPort(host, normalised)) return true;
  return allowedOrigins.some((allowed) => normaliseOrigin(allowed) === normalised);
}

/** URL.host drops the scheme's default port; Host: may carry it ("example.org:80") */
function hostWithDefaultPort(host: string, origin: string): string {
  const lower = host.toLowerCase();
  const defaultPort = origin.startsWith('https:') ? ':443' : ':80';
  return lower.endsWith(defaultPort) ? lower.slice(0, -defaultPort.length) : lower;
}

/** socket.io `allowRequest`: refuses a handshake from a foreign Origin (see originAllowed). */
export function originCheck(allowedOrigins: readonly string[]) {
  return (req: IncomingMessage, answer: (err: string | null | undefined, success: boolean) => void): void => {
    const origin = req.headers.origin;
    if (originAllowed(origin, req.headers.host, allowedOrigins)) answer(null, true);
    else answer('origin not allowed', false);
  };
}

/**
 * @fastify/static `allowedPath`: the file a request names must resolve (symbolic links followed)
 * inside the web root. A missing file is let through: the static handler answers 404 for it.
 */
export function insideWebRoot(webRoot: string): (pathName: string) => boolean {
  const realRoot = realpathSync(webRoot);
  return (pathName) => {
    let real: string;
    try {
      real = realpathSync(join(realRoot, pathName));
    } catch (err) {
      return (err as NodeJS.ErrnoException).code === 'ENOENT';
    }
    return real === realRoot || real.startsWith(realRoot + sep);
  };
}
