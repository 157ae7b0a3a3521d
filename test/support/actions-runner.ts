import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/**
 * Starts an action the way the GitHub runner does. A JavaScript action
 * (`using: node20|node24`): its `main` with the runner's Node.js, each input
 * as `INPUT_<NAME>` (defaults resolved), a fresh `GITHUB_OUTPUT` file whose
 * names are the action's outputs. A composite action: resolves
 * `${{ inputs.* }}`, `${{ github.* }}` and `${{ steps.*.outputs.* }}`, runs
 * each step with `bash --noprofile --norc -eo pipefail` in the runner's
 * environment (`GITHUB_*`, `RUNNER_TEMP`, `GITHUB_ACTION_PATH`), a fresh
 * `GITHUB_OUTPUT` file per step, and maps the action's outputs.
 */
interface ActionYml {
  inputs?: Record<string, { default?: string; required?: boolean }>;
  outputs?: Record<string, { value?: string }>;
  runs: {
    using: string;
    main?: string;
    steps?: {
      id?: string;
      name?: string;
      shell?: string;
      run?: string;
      env?: Record<string, string>;
    }[];
  };
}

export interface ActionRun {
  readonly code: number;
  readonly outputs: Record<string, string>;
  readonly stderr: string;
  /** Milliseconds from the action's start to each line of its stderr (when it was read). */
  readonly stderrLines: readonly { ms: number; line: string }[];
}

/** Reads a GITHUB_OUTPUT file: `name=value` lines and `name<<DELIM … DELIM` blocks. */
export const readOutputFile = (text: string): Record<string, string> => {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc?.[1] && heredoc[2]) {
      const end = lines.indexOf(heredoc[2], i + 1);
      out[heredoc[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const eq = line.indexOf('=');
    if (eq > 0) out[line.slice(0, eq)] = line.slice(eq + 1);
  }
  return out;
};

export const runGitHubAction = async (options: {
  actionPath: string;
  with: Record<string, string>;
  github: { token: string };
  env: Record<string, string | undefined>;
  runnerTemp: string;
}): Promise<ActionRun> => {
  const action = parse(
    readFileSync(path.join(options.actionPath, 'action.yml'), 'utf8'),
  ) as ActionYml;
  const steps: Record<string, Record<string, string>> = {};
  const context = (expr: string): string => {
    const e = expr.trim();
    let m = /^inputs\.([\w-]+)$/.exec(e);
    if (m?.[1]) {
      const name = m[1];
      const spec = action.inputs?.[name];
      if (!spec) throw new Error(`unknown input ${name}`);
      return options.with[name] ?? (spec.default !== undefined ? substitute(spec.default) : '');
    }
    if (e === 'github.token') return options.github.token;
    if (e === 'github.action_path') return options.actionPath;
    m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(e);
    if (m?.[1] && m[2]) return steps[m[1]]?.[m[2]] ?? '';
    throw new Error(`unsupported expression ${e}`);
  };
  const substitute = (text: string): string =>
    text.replace(/\$\{\{(.+?)\}\}/g, (_, e: string) => context(e));
  for (const [name, spec] of Object.entries(action.inputs ?? {})) {
    if (spec.required && !options.with[name] && spec.default === undefined)
      throw new Error(`Input required and not supplied: ${name}`);
  }
  let stderr = '';
  const stderrLines: { ms: number; line: string }[] = [];
  const started = performance.now();
  let partial = '';
  const onStderr = (chunk: Buffer): void => {
    const text = chunk.toString('utf8');
    stderr += text;
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) stderrLines.push({ ms: performance.now() - started, line });
  };
  const runnerEnv = (outputFile: string): Record<string, string> => {
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(options.env)) if (v !== undefined) env[k] = v;
    return Object.assign(env, {
      GITHUB_ACTION_PATH: options.actionPath,
      GITHUB_OUTPUT: outputFile,
      RUNNER_TEMP: options.runnerTemp,
    });
  };
  const spawnStep = (command: string, args: string[], env: Record<string, string>) =>
    new Promise<number>((resolve) => {
      const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      child.stderr.on('data', onStderr);
      child.on('close', (c) => resolve(c ?? 1));
    });
  mkdirSync(options.runnerTemp, { recursive: true });
  if (/^node\d+$/.test(action.runs.using)) {
    if (!action.runs.main) throw new Error('a JavaScript action needs runs.main');
    const outputFile = path.join(options.runnerTemp, 'output-main');
    writeFileSync(outputFile, '');
    const env = runnerEnv(outputFile);
    for (const name of Object.keys(action.inputs ?? {}))
      env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = context(`inputs.${name}`);
    const code = await spawnStep(
      process.execPath,
      [path.join(options.actionPath, action.runs.main)],
      env,
    );
    const written = readOutputFile(readFileSync(outputFile, 'utf8'));
    const outputs = Object.fromEntries(
      Object.keys(action.outputs ?? {})
        .filter((name) => name in written)
        .map((name) => [name, written[name] ?? '']),
    );
    return { code, outputs: code === 0 ? outputs : {}, stderr, stderrLines };
  }
  if (action.runs.using !== 'composite')
    throw new Error(`unsupported runs.using ${action.runs.using}`);
  for (const [index, step] of (action.runs.steps ?? []).entries()) {
    if (step.shell !== 'bash' || step.run === undefined)
      throw new Error('only bash run steps here');
    const outputFile = path.join(options.runnerTemp, `output-${index}`);
    const scriptFile = path.join(options.runnerTemp, `step-${index}.sh`);
    writeFileSync(outputFile, '');
    writeFileSync(scriptFile, substitute(step.run));
    const env = runnerEnv(outputFile);
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = substitute(v);
    const code = await spawnStep(
      'bash',
      ['--noprofile', '--norc', '-eo', 'pipefail', scriptFile],
      env,
    );
    if (step.id) steps[step.id] = readOutputFile(readFileSync(outputFile, 'utf8'));
    if (code !== 0) return { code, outputs: {}, stderr, stderrLines };
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs ?? {}).map(([name, spec]) => [
      name,
      substitute(spec.value ?? ''),
    ]),
  );
  return { code: 0, outputs, stderr, stderrLines };
};
