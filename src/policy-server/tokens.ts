/**
 * Client tokens, hashed at rest: the tokens file holds `{ "clients": [{ "id", "sha256" }] }`,
 * never a token itself. A request's bearer token is hashed and looked up; the client id found is
 * what every decision and audit record names.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';

const tokensFileSchema = z.strictObject({
  clients: z.array(
    z.strictObject({
      id: z.string().min(1).max(200),
      /** Hex SHA-256 of the token (`agent-hooks policy-server token` prints one). */
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      /** Requests per second allowed to this client (default: the server's). */
      ratePerSec: z.number().positive().optional(),
    }),
  ),
});

export interface ClientEntry {
  id: string;
  hash: Buffer;
  ratePerSec?: number;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A new random token and the line to put in the tokens file. */
export function newToken(id: string): { token: string; entry: { id: string; sha256: string } } {
  const token = `ahk_${randomBytes(24).toString('base64url')}`;
  return { token, entry: { id, sha256: hashToken(token) } };
}

export function readTokensFile(path: string): ClientEntry[] {
  const parsed = tokensFileSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success)
    throw new Error(`tokens file ${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const ids = new Set<string>();
  for (const c of parsed.data.clients) {
    if (ids.has(c.id)) throw new Error(`tokens file ${path}: client id ${JSON.stringify(c.id)} appears twice`);
    ids.add(c.id);
  }
  return parsed.data.clients.map((c) => ({
    id: c.id,
    hash: Buffer.from(c.sha256, 'hex'),
    ...(c.ratePerSec ? { ratePerSec: c.ratePerSec } : {}),
  }));
}

/** The client a bearer header belongs to, or undefined. Compares hashes in constant time. */
export function authenticate(clients: readonly ClientEntry[], header: string | undefined): ClientEntry | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return undefined;
  const h = Buffer.from(hashToken(m[1]!), 'hex');
  let found: ClientEntry | undefined;
  for (const c of clients) if (timingSafeEqual(c.hash, h)) found = c;
  return found;
}
