/**
 * `npm run bench:action [-- N]`: the Action's cold start, as a workflow runs
 * it. The action is checked out the way the runner gets it (action.yml, the
 * committed build in action/, no node_modules at its root) and started by the
 * emulated runner on a `workflow_run` event against the emulated GitHub, with
 * a recorded trajectory. Cold start is from the process's spawn to the first
 * stage's start in the job's trace (event read, failed run's logs fetched,
 * deps built). The baseline, in the same run: the same action as a composite
 * step that runs the TypeScript sources through tsx (what action.yml did,
 * minus its `npm ci`). Prints medians of cold start and of the whole run, and
 * the ratios build/baseline. Target: cold start ≤ 10 s. Left out: the
 * runner's own download of the action and of its `runs.using` Node, the step
 * that installs bubblewrap, socat and ripgrep, and a real GitHub and model
 * (both emulated on loopback; the model is a recorded trajectory). Writes
 * what it printed to `bench/results/action.txt`, which docs/benchmarks.md
 * quotes (`--no-record`: print only).
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { trajectory } from '../fixtures/build.ts';
import { runGitHubAction } from '../test/support/actions-runner.ts';
import { startEmulatedGitHub } from '../test/support/emulated-github.ts';
import { addRedRun, buildRedRepo } from '../test/support/github-fixture.ts';
import { workflowRunPayload } from '../test/support/webhook-payloads.ts';
import { recordResult, median } from './results.ts';

const runs = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 3);
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = mkdtempSync(path.join(os.tmpdir(), 'regreen-bench-action-'));

/** The committed build, checked out as the runner gets it. */
const built = path.join(root, 'built');
for (const entry of ['action.yml', 'package.json', 'action'])
  cpSync(path.join(ROOT, entry), path.join(built, entry), { recursive: true });

/** The baseline: a composite action whose one step runs the sources through tsx. */
const baseline = path.join(root, 'baseline');
const yml = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
  inputs: Record<string, unknown>;
  outputs: Record<string, { description: string; value?: string }>;
  runs: unknown;
};
for (const name of Object.keys(yml.outputs))
  (yml.outputs[name] ?? { description: '' }).value = `\${{ steps.regreen.outputs.${name} }}`;
yml.runs = {
  using: 'composite',
  steps: [
    {
      id: 'regreen',
      shell: 'bash',
      env: Object.fromEntries(
        Object.keys(yml.inputs).map((name) => [
          `INPUT_${name.toUpperCase()}`,
          `\${{ inputs.${name} }}`,
        ]),
      ),
      run: `node "${path.join(ROOT, 'bin', 'regreen.js')}" action`,
    },
  ],
};
cpSync(path.join(ROOT, 'package.json'), path.join(baseline, 'package.json'));
writeFileSync(path.join(baseline, 'action.yml'), stringify(yml));

const gh = await startEmulatedGitHub(path.join(root, 'github'));

/** The first stage's start in the job's trace, as wall-clock milliseconds. */
const firstStage = (dir: string): number => {
  const traces = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.jsonl'),
  );
  const starts = traces.flatMap((file) =>
    readFileSync(path.join(dir, file), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { ts: string; type: string; phase?: string })
      .filter((event) => event.type === 'stage' && event.phase === 'start')
      .map((event) => Date.parse(event.ts)),
  );
  if (starts.length === 0) throw new Error(`no stage in the traces under ${dir}`);
  return Math.min(...starts);
};

const once = async (
  kind: 'built' | 'baseline',
  i: number,
): Promise<{ coldMs: number; totalMs: number }> => {
  const name = `range-${kind}-${i}`;
  const source = path.join(root, name);
  const red = buildRedRepo(source);
  gh.addRepo({ owner: 'acme', name, source });
  const run = addRedRun(gh, `acme/${name}`, red);
  const eventPath = path.join(root, `${name}-event.json`);
  writeFileSync(eventPath, JSON.stringify(workflowRunPayload(gh, `acme/${name}`, run)));
  const runnerTemp = path.join(root, `${name}-temp`);
  const spawned = Date.now();
  const result = await runGitHubAction({
    actionPath: kind === 'built' ? built : baseline,
    with: { model: `script:${trajectory('off-by-one-fix')}` },
    github: { token: gh.workflowToken() },
    env: {
      PATH: process.env.PATH,
      HOME: path.join(root, `${name}-home`),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: 'workflow_run',
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: `acme/${name}`,
      GITHUB_SHA: red.sha,
      GITHUB_REF_NAME: 'main',
      GITHUB_API_URL: gh.apiUrl,
      GITHUB_SERVER_URL: gh.url,
      GITHUB_WORKSPACE: path.join(root, `${name}-workspace`),
    },
    runnerTemp,
  });
  const totalMs = Date.now() - spawned;
  if (result.code !== 0 || result.outputs.outcome !== 'proposed')
    throw new Error(
      `${kind} run ${i}: ${result.outputs.outcome ?? 'no outcome'}\n${result.stderr}`,
    );
  return { coldMs: firstStage(runnerTemp) - spawned, totalMs };
};

const results: Record<'built' | 'baseline', { coldMs: number; totalMs: number }[]> = {
  built: [],
  baseline: [],
};
try {
  for (let i = 0; i < runs; i += 1)
    for (const kind of ['built', 'baseline'] as const) results[kind].push(await once(kind, i));
} finally {
  await gh.close();
}
const figure = (kind: 'built' | 'baseline', key: 'coldMs' | 'totalMs'): number =>
  median(results[kind].map((r) => r[key]));
const s = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
const cold = figure('built', 'coldMs');
const lines = [
  `bench:action, ${runs} interleaved runs each: the committed build (action.yml, action/, no node_modules at the root) started by the emulated runner on a workflow_run event against the emulated GitHub, bubblewrap sandbox, the off-by-one fixture (synthetic) and a recorded trajectory`,
  `baseline, same run: the same action as a composite step running the sources through tsx`,
  `(left out: the runner's download of the action and of its Node, the step installing bubblewrap, socat and ripgrep, a real GitHub and model; a cold file cache, after the first run of each the OS's file cache is warm)`,
  `cold start (spawn → first stage), median: committed build ${s(cold)}, sources through tsx ${s(figure('baseline', 'coldMs'))}`,
  `whole run, median: committed build ${s(figure('built', 'totalMs'))}, sources through tsx ${s(figure('baseline', 'totalMs'))}`,
  `ratio cold start build/baseline: ${(cold / figure('baseline', 'coldMs')).toFixed(2)}×  (target ≤ 10 s cold start: ${cold <= 10_000 ? 'met' : 'NOT met'})`,
  `ratio whole run build/baseline: ${(figure('built', 'totalMs') / figure('baseline', 'totalMs')).toFixed(2)}×`,
];
for (const line of lines) console.log(line);
rmSync(root, { recursive: true, force: true });
if (!process.argv.includes('--no-record'))
  console.log(`written to ${path.relative(process.cwd(), recordResult('action', lines))}`);
