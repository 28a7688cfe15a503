#!/usr/bin/env node
/**
 * Keeps package-lock.json usable by `npm ci`.
 *
 * The npm registry reachable from this project's machines does not serve every platform build
 * of packages such as rollup (`@rollup/rollup-darwin-x64` answers 404), so `npm install` leaves
 * those optional dependencies out of the lock, and `npm ci` then refuses the lock as out of sync.
 * `--check` (run by `npm test`) lists such gaps; `--fix` adds an entry for each, with the `os`,
 * `cpu` and `libc` its name states, so npm sees it does not apply here and skips it.
 *
 *   node scripts/lockfile-platforms.mjs --check | --fix
 */
import { readFileSync, writeFileSync } from 'node:fs';

const OSES = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'netbsd',
  'openbsd',
  'openharmony',
  'sunos',
  'win32',
  'aix',
];
const CPUS = ['arm64', 'arm', 'x64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'mips64el'];

const mode = process.argv[2];
if (mode !== '--check' && mode !== '--fix') {
  console.error('usage: node scripts/lockfile-platforms.mjs --check | --fix');
  process.exit(2);
}

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const missing = [];
for (const [key, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const at = key ? `${key}/node_modules/${name}` : `node_modules/${name}`;
    if (!(at in packages) && !(`node_modules/${name}` in packages))
      missing.push({ name, version, parent: entry });
  }
}

if (mode === '--check') {
  if (missing.length === 0) {
    console.log('package-lock.json: every optional dependency has an entry (npm ci will accept it)');
    process.exit(0);
  }
  console.error(
    `package-lock.json lacks ${missing.length} optional platform builds, so npm ci will refuse it:`,
  );
  for (const { name } of missing) console.error(`  ${name}`);
  console.error('Run: node scripts/lockfile-platforms.mjs --fix');
  process.exit(1);
}

for (const { name, version, parent } of missing) {
  const tokens = name.split('/').pop().split('-');
  const os = tokens.find((t) => OSES.includes(t));
  const cpu = tokens.find((t) => CPUS.includes(t));
  if (!os || !cpu) {
    console.error(`cannot tell the platform of ${name} from its name; add its entry by hand`);
    process.exit(1);
  }
  const libc = tokens.some((t) => t.startsWith('musl'))
    ? 'musl'
    : tokens.some((t) => t.startsWith('gnu'))
      ? 'glibc'
      : undefined;
  packages[`node_modules/${name}`] = {
    version: /^\d/.test(version) ? version : parent.version,
    cpu: [cpu],
    ...(parent.dev ? { dev: true } : {}),
    ...(libc ? { libc: [libc] } : {}),
    optional: true,
    os: [os],
  };
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
writeFileSync(file, `${JSON.stringify({ ...lock, packages: sorted }, null, 2)}\n`);
console.log(`added ${missing.length} entries to package-lock.json`);
