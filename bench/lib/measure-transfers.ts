/**
 * Measuring scenario (f): one 256 MiB upload and one download per variant and round, each in a
 * fresh server process so the peak RSS it reports belongs to that transfer. The measured transfer
 * itself is checked: every downloaded byte, and the upload's byte count as the handler saw it.
 */
import { TRANSFER } from '../scenarios';
import { log, rotate } from './measure-throughput';
import type { Options } from './options';
import { LoadProcess, ask, startServer } from './processes';
import type { TransferResult } from './results';
import { BIG_BYTES } from './payloads';
import { fmtMiB } from './stats';
import { describeVariant } from './variants';

const EXPECTED = {
  upload: JSON.stringify({ bytes: BIG_BYTES }),
  download: `${BIG_BYTES} bytes, all 'a'`,
};

export async function measureTransfers(load: LoadProcess, options: Options): Promise<TransferResult[]> {
  log('\n(f) 256 MiB upload and download');
  const results: TransferResult[] = [];
  for (const direction of ['upload', 'download'] as const) {
    const byVariant = new Map<string, TransferResult>(
      TRANSFER.variants.map((variant) => [
        variant,
        { variant, label: describeVariant(variant), direction, samples: [] },
      ]),
    );
    for (let round = 0; round < options.rounds; round++) {
      for (const variant of rotate(TRANSFER.variants, round)) {
        const server = await startServer({ scenario: 'f', variant });
        try {
          await fetch(`${server.url}/api/hello`).then((r) => r.arrayBuffer());
          await ask(server.child, { type: 'mem-start' }, 'mem-started');
          const result = await load.run({ type: direction, url: `${server.url}/api/${direction}` });
          const mem = await ask<{
            before: number;
            peak: number;
            arrayBuffersGrowth: number;
            heapUsedGrowth: number;
          }>(server.child, { type: 'mem-stop' }, 'mem');
          const entry = byVariant.get(variant)!;
          if (result.status !== 200 || result.body !== EXPECTED[direction]) {
            entry.wrongBytes = `${result.status} ${result.body.slice(0, 80)}`;
            log(`  round ${round + 1} ${direction} ${variant.padEnd(14)} WRONG BYTES: ${entry.wrongBytes}`);
            continue;
          }
          entry.samples.push({ round, seconds: result.seconds, growth: mem.peak - mem.before });
          log(
            `  round ${round + 1} ${direction} ${variant.padEnd(14)} ${(BIG_BYTES / 1048576 / result.seconds).toFixed(0).padStart(5)} MiB/s  peak RSS +${fmtMiB(mem.peak - mem.before)} MiB` +
              ` (ArrayBuffers +${fmtMiB(mem.arrayBuffersGrowth)}, heap +${fmtMiB(mem.heapUsedGrowth)})`,
          );
        } finally {
          await server.stop();
        }
      }
    }
    results.push(...byVariant.values());
  }
  return results;
}
