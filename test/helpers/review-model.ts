/**
 * A loopback OpenAI-compatible model for the code-review prompt hook (preset and built-in): it
 * finds a defect in any change that calls eval and passes every other one. Registered at the top
 * of a test file; `url()` is its base URL once the file's tests run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

export function useReviewModel(): { url: () => string } {
  let base = '';
  const model = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const user = (JSON.parse(body) as { messages: Array<{ role: string; content: string }> }).messages.find((m) => m.role === 'user');
      const verdict = /eval\(/.test(user?.content ?? '') ? { ok: false, reason: 'eval of request data runs attacker code' } : { ok: true };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: JSON.stringify(verdict) } }] }));
    });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => model.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((r) => model.close(() => r())));
  return { url: () => base };
}
