import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayJob } from '../../src/intake/workflow-replay.ts';
import {
  installedToolchains,
  isPinned,
  matchToolchain,
  satisfies,
} from '../../src/workspace/setup/toolchains.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-replay-');
afterAll(temp.cleanup);

const workspace = (workflow: string, files: Record<string, string> = {}): string => {
  const ws = path.join(temp.dir, `ws${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(path.join(ws, '.github', 'workflows'), { recursive: true });
  writeFileSync(path.join(ws, '.github', 'workflows', 'ci.yml'), workflow);
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(ws, file), text);
  return ws;
};

const CI = [
  'on: push',
  'env:',
  '  FORCE_COLOR: 0',
  'jobs:',
  '  test:',
  '    runs-on: ubuntu-latest',
  '    strategy:',
  '      matrix:',
  '        node: [18, 20]',
  '        os: [ubuntu-latest]',
  '    defaults:',
  '      run:',
  '        working-directory: app',
  '    steps:',
  '      - uses: actions/checkout@v4',
  '      - uses: actions/setup-node@v4',
  '        with:',
  '          node-version: ${{ matrix.node }}',
  '      - uses: actions/setup-python@v5',
  '        with:',
  '          python-version-file: .python-version',
  '      - uses: actions/cache@v4',
  '      - uses: some/other-action@v1',
  '      - name: Install',
  '        run: npm ci',
  '        env:',
  '          TOKEN: ${{ secrets.NPM_TOKEN }}',
  '          MODE: ci-${{ matrix.node }}',
  '      - name: Windows only',
  "        if: runner.os == 'Windows'",
  '        run: choco install x',
  '      - name: Notify',
  '        if: failure()',
  '        run: ./notify',
  '      - name: System packages',
  '        run: |',
  '          sudo apt-get update',
  '          sudo apt-get install -y libxml2-dev',
  '      - name: PowerShell',
  '        shell: pwsh',
  '        run: Write-Host hi',
  '      - name: Build',
  '        run: npm run build',
  '      - name: Unit tests',
  '        run: npm test',
  '      - name: After',
  '        run: echo after',
].join('\n');

describe('replaying a failing job as CI ran it', () => {
  it('replays the run: steps before the failing one with env, matrix and directory; maps setup actions; lists the rest', () => {
    const ws = workspace(CI, { '.python-version': '3.11\n' });
    const replay = replayJob(ws, 'test (20, ubuntu-latest)', 'Unit tests');
    // Each setup action is a step: the toolchain it gives the job to install into (issue 57).
    expect(replay.steps.map((s) => s.title)).toEqual([
      'actions/setup-node@v4',
      'actions/setup-python@v5',
      'Install',
      'Build',
    ]);
    expect(replay.matrixEntry).toBe(
      'matrix entry node=20, os=ubuntu-latest (the one the failing run names; 2 in all)',
    );
    const install = replay.steps[2]?.command ?? '';
    expect(install).toContain("export FORCE_COLOR='0'");
    expect(install).toContain("export MODE='ci-20'");
    expect(install).not.toContain('TOKEN');
    expect(install).toContain("cd 'app'\nnpm ci");
    expect(replay.failing?.command).toMatch(/cd 'app'\nnpm test$/);
    expect(replay.toolchains).toEqual([
      { kind: 'node', version: '20', step: 'actions/setup-node@v4' },
      { kind: 'python', version: '3.11', step: 'actions/setup-python@v5' },
    ]);
    expect(replay.skipped).toEqual([
      { step: 'actions/checkout@v4', why: 'the workspace is the checkout' },
      { step: 'actions/cache@v4', why: 'a cache: the setup fetches what it needs' },
      { step: 'some/other-action@v1', why: 'the action some/other-action is not run by regreen' },
      { step: 'Windows only', why: 'runs on another OS' },
      { step: 'Notify', why: 'runs only after a failure' },
      {
        step: 'System packages',
        why: 'installs system packages (the sandbox cannot): regreen’s machine must have them',
      },
      { step: 'PowerShell', why: 'runs in pwsh' },
    ]);
    expect(replay.unresolved).toContain('secrets.NPM_TOKEN');
  });

  it('without a failing step, every run: step is replayed and none is the failing one', () => {
    const replay = replayJob(workspace(CI), 'test');
    expect(replay.failing).toBeUndefined();
    expect(replay.steps.map((s) => s.title)).toEqual([
      'actions/setup-node@v4',
      'actions/setup-python@v5',
      'Install',
      'Build',
      'Unit tests',
      'After',
    ]);
    // The bare job name replays the first Linux entry whose toolchains this machine has.
    expect(replay.matrixEntry).toMatch(/^matrix entry node=18, os=ubuntu-latest \(the first Linux/);
  });

  it('reads go.mod for setup-go, and names the known jobs when the job is missing', () => {
    const ws = workspace(
      [
        'jobs:',
        '  go:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - uses: actions/setup-go@v5',
        '        with: { go-version-file: go.mod }',
        '      - run: go test ./...',
      ].join('\n'),
      { 'go.mod': 'module x\n\ngo 1.21\n\ntoolchain go1.21.5\n' },
    );
    expect(replayJob(ws, 'go', 'Run go test ./...').toolchains).toEqual([
      { kind: 'go', version: '1.21.5', step: 'actions/setup-go@v5' },
    ]);
    expect(() => replayJob(ws, 'deploy')).toThrow(/no workflow job named "deploy"; jobs: go/);
  });
});

describe('package managers in a replay', () => {
  it("pnpm/action-setup's version is asked for, its run_install is a step, and corepack enable a no-op", () => {
    const ws = workspace(
      [
        'on: push',
        'jobs:',
        '  test:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - uses: pnpm/action-setup@v4',
        '        with:',
        '          version: 9',
        '          run_install: true',
        '      - uses: astral-sh/setup-uv@v5',
        '      - run: |',
        '          corepack enable',
        '          corepack enable pnpm',
        '          echo "corepack enable stays in a string"',
        '      - name: Test',
        '        run: pnpm test',
      ].join('\n'),
    );
    const replay = replayJob(ws, 'test', 'Test');
    expect(replay.packageManager).toEqual({
      name: 'pnpm',
      version: '9',
      step: 'pnpm/action-setup@v4',
    });
    expect(replay.steps.map((s) => s.command)).toEqual([
      expect.stringContaining('PNPM_HOME=$regreen_root/pnpm'),
      'pnpm install',
      expect.stringContaining('UV_TOOL_BIN_DIR=$regreen_root/uv/bin'),
      expect.stringContaining('corepack enable skipped'),
    ]);
    const script = replay.steps[3]?.command ?? '';
    expect(script).not.toMatch(/^\s*corepack enable/m);
    expect(script).toContain('echo "corepack enable stays in a string"');
    // setup-uv's uv is the machine's own: the step names what it needs (the plan says when it is missing).
    expect(replay.skipped).toEqual([
      {
        step: 'astral-sh/setup-uv@v5',
        why: "regreen uses this machine's uv, its installs in the job",
        needs: 'uv',
      },
    ]);
  });
});

describe('toolchains by version', () => {
  it('a plain or .x version is a prefix; ranges and aliases are not pinned', () => {
    expect(satisfies('18', '18.19.0')).toBe(true);
    expect(satisfies('18.x', '18.19.0')).toBe(true);
    expect(satisfies('3.1', '3.11.7')).toBe(false);
    expect(satisfies('3.11', '3.11.7')).toBe(true);
    expect(satisfies('17', '21.0.1')).toBe(false);
    expect(isPinned('lts/*')).toBe(false);
    expect(isPinned('>=3.9')).toBe(false);
    expect(isPinned('^1.21')).toBe(true);
  });

  it('finds installed versions where managers keep them, and says which exist when one is missing', () => {
    const home = path.join(temp.dir, 'home');
    for (const version of ['3.8.18', '3.11.7'])
      mkdirSync(path.join(home, '.pyenv', 'versions', version, 'bin'), { recursive: true });
    const exists = (file: string): boolean => file.endsWith('/bin/python3');
    const installed = installedToolchains('python', { home, exists });
    expect(installed.map((t) => t.version)).toEqual(['3.11.7', '3.8.18']);
    const found = matchToolchain({ kind: 'python', version: '3.8', step: 's' }, installed);
    expect(found.found && found.toolchain.bin).toBe(
      path.join(home, '.pyenv', 'versions', '3.8.18', 'bin'),
    );
    const missing = matchToolchain({ kind: 'python', version: '3.6', step: 's' }, installed);
    expect(missing).toMatchObject({ found: false, available: ['3.11.7', '3.8.18'] });
  });
});
