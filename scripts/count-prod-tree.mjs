// Counts the packages a production install (`npm ci --omit=dev`) brings, from package-lock.json:
// the root's dependencies and required peers, then each package's dependencies, optional
// dependencies and required peers, resolved the way Node does (nearest node_modules upwards).
// Optional peers (OpenTelemetry exporters, pg, …) are left out: an install without them is the
// default. `node scripts/count-prod-tree.mjs [--list]` prints the count (and the packages).
import { readFileSync } from 'node:fs';

export function countProdTree(lock) {
  const packages = lock.packages ?? {};
  const resolve = (name, from) => {
    for (let dir = from; ; ) {
      const key = `${dir ? `${dir}/` : ''}node_modules/${name}`;
      if (packages[key]) return key;
      if (!dir) return undefined;
      const i = dir.lastIndexOf('/node_modules/');
      dir = i === -1 ? '' : dir.slice(0, i);
    }
  };
  const wanted = (pkg) => {
    const optionalPeer = (name) => pkg.peerDependenciesMeta?.[name]?.optional === true;
    return [
      ...Object.keys(pkg.dependencies ?? {}),
      ...Object.keys(pkg.optionalDependencies ?? {}),
      ...Object.keys(pkg.peerDependencies ?? {}).filter((n) => !optionalPeer(n)),
    ];
  };
  const seen = new Set();
  const missing = [];
  const queue = [['', packages['']]];
  while (queue.length > 0) {
    const [path, pkg] = queue.shift();
    for (const name of wanted(pkg)) {
      const key = resolve(name, path);
      if (!key) {
        // An optional dependency for another platform is not in the lock's tree.
        if (!(pkg.optionalDependencies && name in pkg.optionalDependencies)) missing.push(`${path || '(root)'} → ${name}`);
        continue;
      }
      if (seen.has(key)) continue;
      seen.add(key);
      queue.push([key, packages[key]]);
    }
  }
  return { count: seen.size, packages: [...seen].sort(), missing };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const lock = JSON.parse(readFileSync(new URL('../package-lock.json', import.meta.url), 'utf8'));
  const { count, packages, missing } = countProdTree(lock);
  if (process.argv.includes('--list')) for (const p of packages) console.log(p.replace(/^.*node_modules\//, ''));
  console.log(`production tree: ${count} packages (npm ci --omit=dev, without optional peers)`);
  if (missing.length > 0) {
    console.error(`unresolved in package-lock.json: ${missing.join(', ')}`);
    process.exit(1);
  }
}
