/**
 * Judging a saved run against the targets of ../scenarios.ts: every verdict comes with the
 * figures it was made from. Uses the saved samples only.
 */
import {
  FIRST_ANSWER,
  FIRST_ANSWER_LIMITS,
  MAX_VALIDATION_SHARE,
  STARTUP_LIMITS,
  TARGETS,
  TRANSFER,
  type Target,
} from '../scenarios';
import { cpuOf, rpsOf, sameRoundRatio, type SavedRun, type TransferResult } from './results';
import { fmtInt, fmtMiB, fmtMs, fmtRatio, median } from './stats';
import { describeVariant } from './variants';

export interface TargetRow {
  group: string;
  target: string;
  measured: string;
  status: 'met' | 'missed' | 'not measured';
  extra: boolean;
}

function throughputRow(run: SavedRun, t: Target): TargetRow | undefined {
  const scenario = run.scenarios.find((s) => s.id === t.scenario);
  if (!scenario) return undefined;
  const what = t.metric === 'cpu' ? 'CPU/request' : 'req/s';
  const row = {
    group: t.group,
    target: `${describeVariant(t.variant)}: ${what} ${t.op} ${t.bar.toFixed(2)}× ${describeVariant(t.vs)}`,
    extra: t.extra ?? false,
  };
  const a = scenario.variants.find((v) => v.variant === t.variant);
  const b = scenario.variants.find((v) => v.variant === t.vs);
  if (!a?.samples.length || !b?.samples.length) {
    const why = a?.wrongBytes || b?.wrongBytes ? 'wrong bytes' : 'not measured';
    return { ...row, measured: why, status: 'not measured' };
  }
  const value = t.metric === 'cpu' ? cpuOf : rpsOf;
  const ratio = sameRoundRatio(a.samples, b.samples, value);
  const own = median(a.samples.map(value));
  const other = median(b.samples.map(value));
  const figures =
    t.metric === 'cpu'
      ? `${own.toFixed(1)} vs ${other.toFixed(1)} µs`
      : `${fmtInt(own)} vs ${fmtInt(other)} req/s`;
  const met = t.op === '≤' ? ratio <= t.bar : t.op === '<' ? ratio < t.bar : ratio >= t.bar;
  // A variant that answered wrong bytes in any round fails its target whatever its speed.
  const status = a.wrongBytes ? 'missed' : met ? 'met' : 'missed';
  // Two decimals unless they would round onto the bar and hide which side of it the ratio is.
  const shown = ratio.toFixed(2) === t.bar.toFixed(2) ? `${ratio.toFixed(3)}×` : fmtRatio(ratio);
  return { ...row, measured: `${shown} (${figures})`, status };
}

function startupRows(run: SavedRun): TargetRow[] {
  const rows: TargetRow[] = [];
  if (run.startup.length === 0) return rows;
  const group = '(e) startup, 1,000 endpoints';
  for (const limit of STARTUP_LIMITS) {
    const row = run.startup.find((r) => r.tree === limit.tree && r.case === limit.case);
    rows.push({
      group,
      target: `${limit.tree} ${limit.case} ≤ ${limit.maxMs / 1000} s`,
      measured: row ? `${fmtMs(row.total)} ms` : 'not measured',
      status: !row ? 'not measured' : row.total <= limit.maxMs ? 'met' : 'missed',
      extra: limit.extra ?? false,
    });
  }
  for (const row of run.startup) {
    if (row.validate === undefined || row.discover === undefined || row.load === undefined) continue;
    const share = row.validate / (row.discover + row.load);
    rows.push({
      group,
      target: `${row.tree}: validation adds ≤ ${MAX_VALIDATION_SHARE * 100}% to discovery + loading`,
      measured: `${(share * 100).toFixed(1)}% (${fmtMs(row.validate)} ms)`,
      status: share <= MAX_VALIDATION_SHARE ? 'met' : 'missed',
      extra: true,
    });
  }
  return rows;
}

/** The start-up targets, from process start to the first answered request. */
function firstAnswerRows(run: SavedRun): TargetRow[] {
  const rows = run.firstAnswer?.rows ?? [];
  if (rows.length === 0) return [];
  const group = '(e) first answer, 1,000 endpoints';
  const of = (variant: string) => rows.find((row) => row.variant === variant)?.total;
  const baseline = of(FIRST_ANSWER.baseline);
  const overBaseline = (variant: string, extra = false): TargetRow => {
    const row = rows.find((r) => r.variant === variant);
    const base = rows.find((r) => r.variant === FIRST_ANSWER.baseline);
    const bar = FIRST_ANSWER_LIMITS.overBaselineMs;
    if (!row || !base || baseline === undefined) {
      return {
        group,
        target: `${variant}: ≤ ${bar} ms more than ${FIRST_ANSWER.baseline}`,
        measured: 'not measured',
        status: 'not measured',
        extra,
      };
    }
    // The runs are interleaved: run i of every row was measured in the same round, seconds apart. The median
    // of the same-round differences holds steadier than a difference of medians on a busy machine.
    const over = median(row.runs.map((ms, i) => ms - (base.runs[i] ?? Number.NaN)).filter(Number.isFinite));
    return {
      group,
      target: `${variant}: ≤ ${bar} ms more than ${FIRST_ANSWER.baseline}`,
      measured: `+${fmtMs(over)} ms (same-round median; medians ${fmtMs(row.total)} vs ${fmtMs(baseline)} ms)`,
      status: over <= bar ? 'met' : 'missed',
      extra,
    };
  };
  const under = (variant: string, extra = false): TargetRow => {
    const total = of(variant);
    const bar = FIRST_ANSWER_LIMITS.typeScriptMs;
    return {
      group,
      target: `${variant}: ≤ ${bar / 1000} s`,
      measured: total === undefined ? 'not measured' : `${fmtMs(total)} ms`,
      status: total === undefined ? 'not measured' : total <= bar ? 'met' : 'missed',
      extra,
    };
  };
  return [
    overBaseline(FIRST_ANSWER.build),
    overBaseline(FIRST_ANSWER.bundle),
    under(FIRST_ANSWER.tsx),
    overBaseline(FIRST_ANSWER.buildHashed, true),
    under(FIRST_ANSWER.stripping, true),
  ];
}

/** Raw node:http piping the same way in the same run: what every transfer is compared with. */
const rawPiping = (run: SavedRun, row: TransferResult): TransferResult | undefined =>
  run.transfers.find((t) => t.variant === TRANSFER.baseline && t.direction === row.direction);

export const transferRatio = (run: SavedRun, row: TransferResult): number => {
  const base = rawPiping(run, row);
  // Time ratio inverted: throughput relative to the baseline's in the same round.
  return base ? sameRoundRatio(base.samples, row.samples, (s) => s.seconds) : Number.NaN;
};
export const peakGrowth = (row: TransferResult): number =>
  row.samples.length ? Math.max(...row.samples.map((s) => s.growth)) : Number.NaN;

function transferRows(run: SavedRun): TargetRow[] {
  const rows: TargetRow[] = [];
  for (const row of run.transfers) {
    if (!TRANSFER.judged.includes(row.variant)) continue;
    const group = `(f) 256 MiB ${row.direction}`;
    const label = describeVariant(row.variant);
    const ok = !row.wrongBytes && row.samples.length > 0;
    const ratio = transferRatio(run, row);
    rows.push({
      group,
      target: `${label}: throughput ≥ ${TRANSFER.minRatio.toFixed(2)}× raw node:http piping`,
      measured: ok ? fmtRatio(ratio) : 'wrong bytes',
      status: ok && ratio >= TRANSFER.minRatio ? 'met' : 'missed',
      extra: false,
    });
    // Beside raw piping's own, which pays the same chunks waiting for V8's next major GC.
    const raw = rawPiping(run, row);
    rows.push({
      group,
      target: `${label}: peak RSS growth ≤ ${fmtMiB(TRANSFER.maxGrowth)} MiB`,
      measured: `${fmtMiB(peakGrowth(row))} MiB${raw ? ` (raw piping ${fmtMiB(peakGrowth(raw))} MiB)` : ''}`,
      status: ok && peakGrowth(row) <= TRANSFER.maxGrowth ? 'met' : 'missed',
      extra: false,
    });
  }
  return rows;
}

/** Every target of the scenarios the run measured, in the order of the scenarios file. */
export function judge(run: SavedRun): TargetRow[] {
  const rows = TARGETS.map((t) => throughputRow(run, t)).filter((r): r is TargetRow => r !== undefined);
  return [...rows, ...startupRows(run), ...firstAnswerRows(run), ...transferRows(run)];
}
