/**
 * Issue 57 item 1: each setup action a replay maps gives the job a toolchain it may install into,
 * its writes inside the job's own folders. The steps run as a replay runs them (bash, the
 * runner's `$GITHUB_PATH`/`$GITHUB_ENV` carried), with a fresh HOME standing for the sandbox's.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayScript } from '../../src/intake/workflow-replay.ts';
import {
  privateToolchainEnv,
  privateToolchainScript,
  pythonSuffix,
} from '../../src/workspace/setup/private-toolchains.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-private-toolchains-');
afterAll(temp.cleanup);

const replay = (name: string, steps: { title: string; command: string }[]): string => {
  const home = path.join(temp.dir, name, 'home');
  const tmp = path.join(temp.dir, name, 'tmp');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  return execFileSync('bash', ['-c', replayScript(steps)], {
    env: {
      HOME: home,
      TMPDIR: tmp,
      PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      PIP_CONFIG_FILE: '/dev/null',
    },
    encoding: 'utf8',
  });
};

describe('a setup action replayed', () => {
  it("setup-python: a venv from the real interpreter, first as python, python3 and pip, pipx's folders in the job", () => {
    const out = replay('python', [
      { title: 'setup-python', command: privateToolchainScript('python', '3.11') },
      {
        title: 'look',
        command: [
          'python -c "import sys; print(\'prefix\', sys.prefix, sys.prefix != sys.base_prefix)"',
          'echo "python3 $(command -v python3)"',
          'echo "pip $(command -v pip)"',
          'echo "pipx-bin $PIPX_BIN_DIR"',
          'echo "pipx-home $PIPX_HOME"',
          'echo "pipx $(command -v pipx)"',
        ].join('\n'),
      },
    ]);
    const root = path.join(temp.dir, 'python', 'home', '.regreen-toolchains');
    expect(out).toContain(`prefix ${root}/python True`);
    expect(out).toContain(`python3 ${root}/python/bin/python3`);
    expect(out).toContain(`pip ${root}/python/bin/pip`);
    expect(out).toContain(`pipx-bin ${root}/python/bin`);
    expect(out).toContain(`pipx-home ${root}/pipx`);
    // pipx is the machine's, or installed into the job on first use.
    expect(out).toMatch(/^pipx \//m);
    // Every later command of the sandbox gets the same, not only the replay's own steps.
    const own = privateToolchainEnv(path.join(temp.dir, 'python', 'home'), existsSync);
    expect(own.path).toEqual([`${root}/python/bin`]);
    expect(own.env).toMatchObject({
      VIRTUAL_ENV: `${root}/python`,
      PIPX_BIN_DIR: `${root}/python/bin`,
    });
    expect(privateToolchainEnv(path.join(temp.dir, 'nothing'), existsSync)).toEqual({
      path: [],
      env: {},
    });
  });

  it('setup-node: `npm i -g` lands in the job, its command on PATH', () => {
    // A package with a command, installed globally from its folder (no registry needed).
    const pkg = path.join(temp.dir, 'hello-tool');
    mkdirSync(path.join(pkg, 'bin'), { recursive: true });
    writeFileSync(
      path.join(pkg, 'package.json'),
      JSON.stringify({
        name: 'hello-tool',
        version: '1.0.0',
        bin: { 'hello-tool': 'bin/hello.js' },
      }),
    );
    writeFileSync(
      path.join(pkg, 'bin', 'hello.js'),
      "#!/usr/bin/env node\nconsole.log('hello from the job');\n",
    );
    const out = replay('node', [
      { title: 'setup-node', command: privateToolchainScript('node') },
      { title: 'install', command: `npm i -g --no-audit --no-fund ${pkg} >/dev/null` },
      { title: 'look', command: 'npm config get prefix\ncommand -v hello-tool\nhello-tool' },
    ]);
    const root = path.join(temp.dir, 'node', 'home', '.regreen-toolchains');
    expect(out).toContain(`${root}/npm\n${root}/npm/bin/hello-tool\nhello from the job`);
  });

  it.each([
    ['go', ['GOPATH', 'GOBIN'], 'go/bin'],
    ['rust', ['CARGO_HOME'], 'cargo/bin'],
    ['uv', ['UV_TOOL_DIR', 'UV_TOOL_BIN_DIR'], 'uv/bin'],
    ['pnpm', ['PNPM_HOME'], 'pnpm'],
  ] as const)('%s: its installs in the job, their bin first on PATH', (kind, names, bin) => {
    const out = replay(kind, [
      { title: kind, command: privateToolchainScript(kind) },
      {
        title: 'look',
        command: [...names.map((n) => `echo "${n}=$${n}"`), 'echo "path $PATH"'].join('\n'),
      },
    ]);
    const root = path.join(temp.dir, kind, 'home', '.regreen-toolchains');
    for (const name of names) expect(out).toContain(`${name}=${root}/`);
    expect(out).toContain(`path ${root}/${bin}:`);
  });

  it('a version becomes a program name only when it is one', () => {
    expect(pythonSuffix('3.12')).toBe('3.12');
    expect(pythonSuffix('3.12.1')).toBe('3.12');
    expect(pythonSuffix('3.x')).toBe('3');
    expect(pythonSuffix('>=3.9')).toBeUndefined();
    expect(pythonSuffix('3.12; touch /tmp/x')).toBeUndefined();
    expect(privateToolchainScript('python', '3.1$(id)')).not.toContain('$(id)');
  });
});
