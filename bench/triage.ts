/**
 * `npm run bench:triage -- --logchunks DIR --cidiff DIR`: regreen's log
 * triage on real CI logs whose error lines people labelled (see
 * `triage-corpus.ts` for the two public datasets and how they are read).
 *
 * Per ecosystem and overall, on the logs the recognisers were tuned on and on
 * the projects held aside: recall (labelled lines in the excerpt), precision
 * (labelled lines / excerpt lines), excerpt size, logs with a recognised
 * failure, logs located (what `regreen triage` exits 0 on). The same figures
 * for the last 120 lines of the log (what a person scrolling to the end sees,
 * and what tools that keep a log's tail give a model) are the baseline,
 * measured in the same run, then the two side by side per ecosystem and
 * split (`<` where the last lines win). On the pairs with the last green
 * run's log, recall with and without that baseline, and how many of the
 * labelled lines shown are marked new.
 *
 * `cap` is the best recall any excerpt of 120 lines could reach (some labels
 * span hundreds of lines); `fit` is recall of what can fit, labelled lines
 * shown / min(labelled lines, 120); `full` is the share of logs whose every
 * labelled line is shown.
 *
 * With both datasets it writes what it printed to `bench/results/triage.txt`,
 * for docs/benchmarks.md to quote (`--no-record`: print only; a run on one
 * dataset is never recorded).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { triageLog, type Triage } from '../src/intake/actions-log.ts';
import { recordResult } from './results.ts';
import { ECOSYSTEMS, loadCorpus, type CorpusLog } from './triage-corpus.ts';

const { values } = parseArgs({
  options: {
    logchunks: { type: 'string' },
    cidiff: { type: 'string' },
    misses: { type: 'string' },
    'no-record': { type: 'boolean' },
  },
});

if (!values.logchunks && !values.cidiff) {
  process.stderr.write(
    [
      'bench:triage needs the corpus: bare git directories (or clones) of',
      '  github.com/lacinoire/master-thesis  (LogChunks, --logchunks DIR)',
      '  github.com/labri-progress/cidiff     (CiDiff, --cidiff DIR)',
      'e.g. npm run bench:triage -- --logchunks ../master-thesis/.git --cidiff ../cidiff/.git',
      '',
    ].join('\n'),
  );
  process.exit(2);
}

interface Score {
  readonly recall: number;
  /** Recall of what can fit: labelled lines shown / min(labelled lines, the excerpt budget). */
  readonly fit: number;
  /** The best recall any excerpt of the budget could reach on this log. */
  readonly cap: number;
  readonly precision: number;
  readonly excerptLines: number;
  readonly recognised: boolean;
  readonly located: boolean;
}

const MAX_EXCERPT = 120;

const score = (log: CorpusLog, excerptLines: readonly number[], triage?: Triage): Score => {
  const shown = new Set(excerptLines);
  let hit = 0;
  for (const line of log.labelled) if (shown.has(line)) hit += 1;
  return {
    recall: hit / log.labelled.size,
    fit: hit / Math.min(log.labelled.size, MAX_EXCERPT),
    cap: Math.min(1, MAX_EXCERPT / log.labelled.size),
    precision: shown.size === 0 ? 0 : hit / shown.size,
    excerptLines: shown.size,
    recognised: (triage?.failures.length ?? 0) > 0,
    located: triage?.verdict === 'located',
  };
};

const tail = (log: CorpusLog): number[] => {
  const total = log.failed.split('\n').length - (log.failed.endsWith('\n') ? 1 : 0);
  return Array.from({ length: Math.min(MAX_EXCERPT, total) }, (_, i) => total - i);
};

const started = Date.now();
const corpus = loadCorpus({
  ...(values.logchunks ? { logchunks: values.logchunks } : {}),
  ...(values.cidiff ? { cidiff: values.cidiff } : {}),
});
const loadedMs = Date.now() - started;

interface Row {
  readonly log: CorpusLog;
  readonly regreen: Score;
  readonly tail: Score;
  readonly withBaseline?: Score;
  /** With the green log: labelled lines shown, and how many of them are marked new. */
  readonly marked?: { readonly shown: number; readonly new: number };
}

const triageStarted = Date.now();
const rows: Row[] = corpus.logs.map((log) => {
  const triage = triageLog(log.failed);
  const row: Row = {
    log,
    regreen: score(
      log,
      triage.excerpt.map((l) => l.line),
      triage,
    ),
    tail: score(log, tail(log)),
  };
  if (log.passed === undefined) return row;
  const paired = triageLog(log.failed, { baseline: log.passed });
  const labelled = paired.excerpt.filter((l) => log.labelled.has(l.line));
  return {
    ...row,
    withBaseline: score(
      log,
      paired.excerpt.map((l) => l.line),
      paired,
    ),
    marked: { shown: labelled.length, new: labelled.filter((l) => l.new === true).length },
  };
});
const triageMs = Date.now() - triageStarted;

const mean = (values: readonly number[]): number =>
  values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length;
const pct = (value: number): string => (Number.isNaN(value) ? '   –' : value.toFixed(2));

const summary = (group: readonly Row[], pick: (r: Row) => Score | undefined) => {
  const scores = group.map(pick).filter((s): s is Score => s !== undefined);
  return {
    n: scores.length,
    recall: mean(scores.map((s) => s.recall)),
    fit: mean(scores.map((s) => s.fit)),
    cap: mean(scores.map((s) => s.cap)),
    full: mean(scores.map((s) => (s.recall === 1 ? 1 : 0))),
    precision: mean(scores.map((s) => s.precision)),
    lines: mean(scores.map((s) => s.excerptLines)),
    maxLines: Math.max(0, ...scores.map((s) => s.excerptLines)),
    recognised: mean(scores.map((s) => (s.recognised ? 1 : 0))),
    located: mean(scores.map((s) => (s.located ? 1 : 0))),
  };
};

const line = (label: string, group: readonly Row[]): string => {
  const ours = summary(group, (r) => r.regreen);
  const base = summary(group, (r) => r.tail);
  return [
    label.padEnd(22),
    String(ours.n).padStart(4),
    pct(ours.recall).padStart(7),
    pct(ours.cap).padStart(5),
    pct(ours.fit).padStart(5),
    pct(ours.full).padStart(6),
    pct(ours.precision).padStart(6),
    ours.lines.toFixed(0).padStart(6),
    String(ours.maxLines).padStart(5),
    pct(ours.recognised).padStart(6),
    pct(ours.located).padStart(6),
    pct(base.recall).padStart(8),
    (base.recall > 0 ? `${(ours.recall / base.recall).toFixed(2)}×` : '   –').padStart(7),
  ].join(' ');
};

const header = [
  'ecosystem / split'.padEnd(22),
  '   n',
  ' recall',
  '  cap',
  '  fit',
  '  full',
  '  prec',
  ' lines',
  '  max',
  ' recog',
  '   loc',
  ' tail120',
  '  ratio',
].join(' ');

const out: string[] = [
  `bench:triage, regreen's triage excerpt (at most ${MAX_EXCERPT} lines) on real CI logs whose error lines people labelled: ${[values.logchunks ? 'LogChunks' : '', values.cidiff ? 'CiDiff' : ''].filter(Boolean).join(' and ')}; three projects in ten of each ecosystem held aside, never looked at while tuning but for the Java and .NET logs where the last lines won (looked at once, 2026-12-04: docs/benchmarks.md says what was changed)`,
  `baseline, same run: the log's last ${MAX_EXCERPT} lines (what a person scrolling to the end sees); on the pass/fail pairs, the excerpt without the green log`,
  `(left out: logs whose labels are not found in the log, counted below; CI systems and ecosystems neither dataset holds; a model, this is the excerpt one is given, not what it makes of it)`,
  `corpus: ${corpus.logs.length} labelled logs (${corpus.unlocated.length} left out: label not found in the log), loaded in ${loadedMs} ms, triaged in ${triageMs} ms`,
  '',
  header,
];
for (const split of ['tune', 'held-out'] as const) {
  const inSplit = rows.filter((r) => r.log.split === split);
  for (const ecosystem of ECOSYSTEMS) {
    const group = inSplit.filter((r) => r.log.ecosystem === ecosystem);
    if (group.length > 0) out.push(line(`${ecosystem} / ${split}`, group));
  }
  const named = inSplit.filter((r) => r.log.ecosystem !== 'other');
  out.push(line(`six+ named / ${split}`, named));
  out.push(line(`all / ${split}`, inSplit));
  out.push('');
}
out.push(
  line(
    'six+ named / both',
    rows.filter((r) => r.log.ecosystem !== 'other'),
  ),
);
out.push(line('all / both', rows));

// Per ecosystem: the recognisers' excerpt against the last lines, on each split.
const versus = (group: readonly Row[]): string => {
  if (group.length === 0) return ''.padEnd(26);
  const ours = summary(group, (r) => r.regreen).recall;
  const base = summary(group, (r) => r.tail).recall;
  return `${String(group.length).padStart(4)} ${pct(ours).padStart(7)} ${pct(base).padStart(7)} ${Number(pct(ours)) < Number(pct(base)) ? '<' : ' '}    `;
};
out.push(
  '',
  `per ecosystem, recall: regreen's excerpt vs the log's last ${MAX_EXCERPT} lines (< where the last lines win)`,
  `${'ecosystem'.padEnd(12)}${['tune', 'held'].map((split) => `${split.padStart(4)} ${'regreen'.padStart(7)} ${'tail'.padStart(7)}      `).join('')}`.trimEnd(),
);
for (const ecosystem of ECOSYSTEMS) {
  const of = (split: CorpusLog['split']): Row[] =>
    rows.filter((r) => r.log.ecosystem === ecosystem && r.log.split === split);
  out.push(`${ecosystem.padEnd(12)}${versus(of('tune'))}${versus(of('held-out'))}`.trimEnd());
}

const paired = rows.filter((r) => r.withBaseline !== undefined);
if (paired.length > 0) {
  const without = summary(paired, (r) => r.regreen);
  const withIt = summary(paired, (r) => r.withBaseline);
  out.push(
    '',
    `with the last green run's log (${paired.length} pass/fail pairs):`,
    `  without: recall ${pct(without.recall)}, full ${pct(without.full)}, precision ${pct(without.precision)}, ${without.lines.toFixed(0)} lines`,
    `  with:    recall ${pct(withIt.recall)}, full ${pct(withIt.full)}, precision ${pct(withIt.precision)}, ${withIt.lines.toFixed(0)} lines`,
    `  ratio (recall with / without): ${(withIt.recall / without.recall).toFixed(2)}×`,
  );
  const shown = paired.reduce((n, r) => n + (r.marked?.shown ?? 0), 0);
  const fresh = paired.reduce((n, r) => n + (r.marked?.new ?? 0), 0);
  out.push(
    `  labelled lines shown and marked new: ${fresh} of ${shown} (${pct(shown === 0 ? Number.NaN : fresh / shown)})`,
  );
}
const overall = summary(rows, (r) => r.regreen);
const tailAll = summary(rows, (r) => r.tail);
out.push(
  '',
  `recall ${pct(overall.recall)} vs ${pct(tailAll.recall)} for the log's last ${MAX_EXCERPT} lines: ${(overall.recall / tailAll.recall).toFixed(2)}× the baseline`,
);
process.stdout.write(`${out.join('\n')}\n`);
if (values.logchunks && values.cidiff && !values['no-record'])
  process.stdout.write(`written to ${path.relative(process.cwd(), recordResult('triage', out))}\n`);

if (values.misses) {
  const [ecosystem, split = 'tune'] = values.misses.split('/');
  for (const row of rows) {
    if (row.log.ecosystem !== ecosystem || row.log.split !== split || row.regreen.recall >= 1)
      continue;
    process.stdout.write(
      `miss ${row.log.id}: recall ${row.regreen.recall.toFixed(2)}, labelled ${[...row.log.labelled].slice(0, 3).join(',')}…\n`,
    );
  }
}
