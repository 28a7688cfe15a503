/**
 * The short soak (5 s) in `npm test`: scripts/soak.mjs against the example app, in child
 * processes, with the same checks as the full `npm run soak` (see scripts/soak-results.md):
 * keep-alive load, clients that leave midway, echoed bodies checked, response streams accounted.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';

const ROOT = path.resolve(__dirname, '../..');

interface SoakReport {
  pass: boolean;
  run: { requests: number; requestsPerSecond: number; errors: number; timeouts: number; unexpected: number };
  checks: { name: string; value: unknown; pass: boolean }[];
}

describe('hardening: soak (5 s)', function () {
  // ~8 s of load and startup; more when dist/ must be built first.
  this.timeout(90_000);

  it('100 connections over the example app: no errors, no unexpected statuses, bodies intact, no stream left, flat heap', async function () {
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ['scripts/soak.mjs', '--duration', '5', '--warmup', '1', '--out', '-', '--json'],
        { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
        // Exit code 1 means failed checks; the report says which.
        (error, out) => (out.trim() ? resolve(out) : reject(error ?? new Error('no output from the soak'))),
      );
    });
    const report = JSON.parse(stdout.trim().split('\n').pop()!) as SoakReport;
    const failed = report.checks.filter((c) => !c.pass).map((c) => `${c.name}: ${String(c.value)}`);
    expect(failed, 'failed soak checks').to.deep.equal([]);
    expect(report.run.requests).to.be.greaterThan(500);
    expect(report.pass).to.equal(true);
  });
});
