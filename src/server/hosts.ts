// DNS rebinding: a web page on a name its owner points at 127.0.0.1 reaches a loopback service with
// the page's own name in Host and Origin, and a browser lets that page read the answers. Served are
// only requests whose Host is a loopback name or address, or one of the configured public hosts, and
// whose Origin, when a browser sends one, is the service's own (the same host as Host).
import type { IncomingMessage } from 'node:http';

const LOOPBACK_NAME = /^(?:localhost|[a-z0-9.-]+\.localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])$/;

/** Why a request is refused, or null when it is served. `publicHosts` null: any Host, any Origin. */
export type HostGuard = (request: IncomingMessage) => string | null;

export function hostGuard(publicHosts: readonly string[] | null): HostGuard {
  if (publicHosts === null) return () => null;
  const served = (host: string) => {
    const url = parsedUrl(`http://${host}`);
    if (url === null || url.username || url.pathname !== '/') return false;
    return LOOPBACK_NAME.test(url.hostname) || publicHosts.includes(url.hostname) || publicHosts.includes(url.host);
  };
  return (request) => {
    const host = request.headers.host?.toLowerCase();
    if (host === undefined || !served(host)) return 'Requests are served only for the host names of this service.';
    const origin = request.headers.origin;
    if (origin !== undefined && parsedUrl(origin)?.host !== host)
      return 'Cross-origin requests are served only from the origin of this service.';
    return null;
  };
}

function parsedUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
