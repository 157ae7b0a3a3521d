/**
 * The table `bench:corpus` prints from its tasks' outcomes: per ecosystem
 * tasks valid and invalid by reason, oracle and empty resolved, then each
 * goal against its figure, and every invalid task with its reason.
 */
export type Why = 'environment' | 'flaky' | 'gold fails' | 'other';

/** A task's outcome in the bench, one line of the results log as soon as it is known. */
export interface TaskOutcome {
  readonly id: string;
  readonly style: string;
  readonly repo: string;
  readonly valid: boolean;
  readonly why?: Why;
  readonly reason?: string;
  readonly oracle?: boolean;
  readonly empty?: boolean;
  /** The hash of the task as it was run: an outcome of another version of the task is not reused. */
  readonly taskHash: string;
}

export const corpusTable = (
  outcomes: readonly TaskOutcome[],
  selected: { readonly tasks: number; readonly repos: number },
): string[] => {
  const order = [
    'npm',
    'pnpm',
    'yarn',
    'javascript',
    'pip/setup.py',
    'pip/pyproject',
    'uv/PEP 735',
    'poetry',
    'tox',
    'python',
    'go',
    'rust',
    'jvm',
    'c',
    'other',
  ];
  const rank = (eco: string): number => (order.includes(eco) ? order.indexOf(eco) : order.length);
  const ecosystems = [...new Set(outcomes.map((o) => o.style))].sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  );
  const rows = ecosystems.map((eco) => {
    const mine = outcomes.filter((o) => o.style === eco);
    const ok = mine.filter((o) => o.valid);
    const why = (w: Why): number => mine.filter((o) => !o.valid && o.why === w).length;
    return {
      eco,
      repos: new Set(mine.map((o) => o.repo)).size,
      tasks: mine.length,
      valid: ok.length,
      environment: why('environment'),
      flaky: why('flaky'),
      gold: why('gold fails'),
      other: why('other'),
      oracle: ok.filter((o) => o.oracle).length,
      empty: ok.filter((o) => o.empty).length,
    };
  });
  const header = [
    'ecosystem',
    'repos',
    'tasks',
    'valid',
    'env',
    'flaky',
    'gold',
    'other',
    'oracle',
    'empty',
  ];
  const line = (cells: readonly (string | number)[]): string =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(14) : String(c).padStart(7))).join('');
  const sum = (key: Exclude<keyof (typeof rows)[number], 'eco' | 'repos'>): number =>
    rows.reduce((n, r) => n + r[key], 0);
  const total = {
    repos: new Set(outcomes.map((o) => o.repo)).size,
    tasks: sum('tasks'),
    valid: sum('valid'),
    environment: sum('environment'),
    flaky: sum('flaky'),
    gold: sum('gold'),
    other: sum('other'),
    oracle: sum('oracle'),
    empty: sum('empty'),
  };
  const pct = (n: number, of: number): string => `${of ? ((100 * n) / of).toFixed(0) : 0} %`;
  const verdict = (met: boolean): string => (met ? 'met' : 'NOT met');
  const out = [
    line(header),
    ...rows.map((r) =>
      line([
        r.eco,
        r.repos,
        r.tasks,
        r.valid,
        r.environment,
        r.flaky,
        r.gold,
        r.other,
        r.oracle,
        r.empty,
      ]),
    ),
    line([
      'all',
      total.repos,
      total.tasks,
      total.valid,
      total.environment,
      total.flaky,
      total.gold,
      total.other,
      total.oracle,
      total.empty,
    ]),
    '',
    `tasks selected: ${selected.tasks} from ${selected.repos} repositories (goal ≥ 100 from ≥ 20: ${verdict(selected.tasks >= 100 && selected.repos >= 20)}); measured: ${total.tasks} from ${total.repos} repositories in ${rows.length} ecosystem(s)${total.tasks < selected.tasks ? ` (${selected.tasks - total.tasks} not run yet)` : ''}; valid: ${total.valid}`,
    `oracle resolved: ${total.oracle}/${total.valid} valid (${pct(total.oracle, total.valid)}; goal ≥ 95 %: ${verdict(total.valid > 0 && total.oracle >= 0.95 * total.valid)})`,
    `empty resolved: ${total.empty}/${total.valid} valid (goal 0: ${verdict(total.empty === 0)})`,
    `invalid for the environment: ${total.environment}/${total.tasks} (${pct(total.environment, total.tasks)}; goal ≤ 10 %: ${verdict(total.environment <= 0.1 * total.tasks)})`,
  ];
  for (const o of outcomes)
    if (!o.valid)
      out.push(`  invalid ${o.id} (${o.style}): ${o.why ?? 'other'} — ${o.reason ?? ''}`);
  return out;
};
