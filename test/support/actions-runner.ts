import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

/**
 * Starts a composite action the way the GitHub runner does: reads
 * `action.yml`, resolves `${{ inputs.* }}`, `${{ github.* }}` and
 * `${{ steps.*.outputs.* }}`, runs each step with `bash --noprofile --norc
 * -eo pipefail` in the runner's environment (`GITHUB_*`, `RUNNER_TEMP`,
 * `GITHUB_ACTION_PATH`), a fresh `GITHUB_OUTPUT` file per step, and maps the
 * action's outputs.
 */
interface ActionYml {
  inputs?: Record<string, { default?: string; required?: boolean }>;
  outputs?: Record<string, { value: string }>;
  runs: {
    using: string;
    steps: {
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

export const runCompositeAction = async (options: {
  actionPath: string;
  with: Record<string, string>;
  github: { token: string };
  env: Record<string, string | undefined>;
  runnerTemp: string;
}): Promise<ActionRun> => {
  const action = parse(
    readFileSync(path.join(options.actionPath, 'action.yml'), 'utf8'),
  ) as ActionYml;
  if (action.runs.using !== 'composite')
    throw new Error(`unsupported runs.using ${action.runs.using}`);
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
  mkdirSync(options.runnerTemp, { recursive: true });
  for (const [index, step] of action.runs.steps.entries()) {
    if (step.shell !== 'bash' || step.run === undefined)
      throw new Error('only bash run steps here');
    const outputFile = path.join(options.runnerTemp, `output-${index}`);
    const scriptFile = path.join(options.runnerTemp, `step-${index}.sh`);
    writeFileSync(outputFile, '');
    writeFileSync(scriptFile, substitute(step.run));
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(options.env)) if (v !== undefined) env[k] = v;
    Object.assign(env, {
      GITHUB_ACTION_PATH: options.actionPath,
      GITHUB_OUTPUT: outputFile,
      RUNNER_TEMP: options.runnerTemp,
    });
    for (const [k, v] of Object.entries(step.env ?? {})) env[k] = substitute(v);
    const code = await new Promise<number>((resolve) => {
      const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', scriptFile], {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8');
      });
      child.on('close', (c) => resolve(c ?? 1));
    });
    if (step.id) steps[step.id] = readOutputFile(readFileSync(outputFile, 'utf8'));
    if (code !== 0) return { code, outputs: {}, stderr };
  }
  const outputs = Object.fromEntries(
    Object.entries(action.outputs ?? {}).map(([name, spec]) => [name, substitute(spec.value)]),
  );
  return { code: 0, outputs, stderr };
};
