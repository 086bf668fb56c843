// Runs inside `unshare -n` (a fresh network namespace): brings loopback up, starts the fake
// model server in this process, spawns the agent, waits for it (with a timeout that kills its
// process group), stops the server and writes the outcome as JSON. Nothing here can reach any
// address but loopback: the namespace has no other interface.
//   unshare -n node ns-run.mjs <spec.json>
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { startFakeModel } from './fake-model.mjs';

const spec = JSON.parse(readFileSync(process.argv[2], 'utf8'));

execFileSync('ip', ['link', 'set', 'lo', 'up']);
const interfaces = execFileSync('ip', ['-o', 'link', 'show']).toString().trim().split('\n');
const server = await startFakeModel(spec.server);

const started = Date.now();
const child = spawn(spec.command, spec.args, {
  cwd: spec.cwd,
  env: spec.env,
  stdio: ['pipe', 'pipe', 'pipe'],
  detached: true,
});
child.stdin.end(spec.stdin ?? '');
let stdout = '';
let stderr = '';
child.stdout.on('data', (c) => (stdout += c));
child.stderr.on('data', (c) => (stderr += c));
let timedOut = false;
const timer = setTimeout(() => {
  timedOut = true;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {}
}, spec.timeoutMs);

const [code, signal, spawnError] = await new Promise((resolve) => {
  child.once('error', (err) => resolve([null, null, String(err)]));
  child.once('close', (c, s) => resolve([c, s, null]));
});
clearTimeout(timer);
// Whatever the agent left behind in its group (helpers, MCP servers) goes with it, and so does
// anything it detached from the group (Cline's hub daemon): every process in this namespace was
// started here, so each one but this process is ended by its pid.
try {
  process.kill(-child.pid, 'SIGKILL');
} catch {}
killNamespaceLeftovers();
server.closeAllConnections?.();
await new Promise((resolve) => server.close(resolve));

writeFileSync(
  spec.resultFile,
  JSON.stringify({ code, signal, spawnError, timedOut, stdout, stderr, ms: Date.now() - started, interfaces }),
);

/** SIGKILL every process whose network namespace is this one (created by our `unshare -n`), but this process. */
function killNamespaceLeftovers() {
  const own = readlinkSync('/proc/self/ns/net');
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (readlinkSync(`/proc/${pid}/ns/net`) === own) process.kill(pid, 'SIGKILL');
    } catch {}
  }
}
