/**
 * Random (version 4) UUIDs for firing, execution and record ids, without loading `node:crypto`:
 * its first `require` costs about 6 ms of wall time here, a tenth of what a dispatch with one hook
 * adds to `node -e 0` (docs/performance.md item 13), and the hook path needs nothing else from it.
 *
 * The bytes are the operating system's CSPRNG, as Node's own `randomUUID` uses: read from
 * `/dev/urandom` in blocks of 16 ids. Where that device cannot be read (Windows, a sandbox that
 * hides it) the ids come from Web Crypto's `randomUUID`, the global Node has without an import.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const IDS_PER_READ = 16;
const pool = Buffer.alloc(16 * IDS_PER_READ);
let offset = pool.length;
let device = process.platform !== 'win32';

/** Fills the pool from /dev/urandom; false when the device cannot be read in full. */
function refill(): boolean {
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    let got = 0;
    while (got < pool.length) {
      const n = readSync(fd, pool, got, pool.length - got, null);
      if (n <= 0) return false;
      got += n;
    }
    offset = 0;
    return true;
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function randomUUID(): string {
  if (offset >= pool.length && !(device && refill())) {
    device = false;
    return globalThis.crypto.randomUUID();
  }
  const b = pool.subarray(offset, offset + 16);
  offset += 16;
  // RFC 9562, section 5.4: version 4 in the high nibble of byte 6, variant 10 in byte 8.
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
