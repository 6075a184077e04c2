import { createHash, timingSafeEqual } from 'node:crypto';
import { SINGLE_TENANT } from '../config.js';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Resolves a request's Authorization header to its tenant. With no keys configured every request is
 * the single tenant. Keys are compared as SHA-256 digests with timingSafeEqual, against every key,
 * so neither a key's content nor its position leaks through timing.
 */
export function createTenantResolver(
  apiKeys: ReadonlyMap<string, string>,
): (authorization: string | undefined) => string | null {
  if (apiKeys.size === 0) return () => SINGLE_TENANT;
  const known = [...apiKeys].map(([key, tenant]) => ({ digest: digest(key), tenant }));
  return (authorization) => {
    const token = /^Bearer (.+)$/.exec(authorization ?? '')?.[1];
    if (!token) return null;
    const presented = digest(token);
    let tenant: string | null = null;
    for (const candidate of known) {
      if (timingSafeEqual(candidate.digest, presented)) tenant = candidate.tenant;
    }
    return tenant;
  };
}
