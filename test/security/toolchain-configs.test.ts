/**
 * A toolchain the sandbox mounts keeps client configuration in its own prefix: pip's site file
 * (`{sys.prefix}/pip.conf`) of every Python install, venv and conda prefix, conda's `.condarc`,
 * npm's global and built-in npmrc under a Node prefix, RubyGems' `etc/gemrc`, a Maven home's
 * `conf/settings.xml`, a Gradle home's init scripts. An administrator keeps a registry's token
 * there. An outside attacker's finding: only `/usr`, `/usr/local`, Node's prefix and `/etc` were
 * masked, so the token in pyenv's `versions/X/pip.conf` was readable inside, and pip used it.
 * Each root is planted here under a temp folder the sandbox is pointed at by its variable.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { makeTempDir } from '../support/tmp.ts';
import { attackSandbox, CANARY, CASE, inSandbox, plant, readAttack } from './support.ts';

const PIP_CONF = `[global]\nindex-url = https://__token__:${CANARY}@pypi.example.invalid/simple\n`;
const SETTINGS = `<settings><servers><server><id>corp</id><password>${CANARY}</password></server></servers></settings>\n`;

describe('client configuration inside the toolchains the sandbox mounts', () => {
  const temp = makeTempDir('regreen-toolchain-configs-');
  const pyenv = path.join(temp.dir, 'pyenv');
  const toolCache = path.join(temp.dir, 'toolcache');
  const asdf = path.join(temp.dir, 'asdf');
  const sdkman = path.join(temp.dir, 'sdkman');
  const venv = path.join(pyenv, 'versions', '3.99.0');
  const maven = path.join(sdkman, 'candidates', 'maven', '3.9.6');
  const gradle = path.join(sdkman, 'candidates', 'gradle', '8.5');
  /** Every planted file, each read as empty inside. */
  const files = [
    path.join(venv, 'pip.conf'),
    path.join(pyenv, 'versions', 'miniconda3-latest', '.condarc'),
    path.join(pyenv, 'versions', 'miniconda3-latest', 'envs', 'ci', 'pip.conf'),
    path.join(pyenv, '.netrc'),
    path.join(toolCache, 'Python', '3.12.0', 'x64', 'pip.conf'),
    path.join(toolCache, 'node', '20.0.0', 'x64', 'etc', 'npmrc'),
    path.join(asdf, 'installs', 'python', '3.12.0', 'pip.conf'),
    path.join(asdf, 'installs', 'python', '3.12.0', '.pypirc'),
    path.join(asdf, 'installs', 'nodejs', '20.0.0', 'lib', 'node_modules', 'npm', 'npmrc'),
    path.join(asdf, 'installs', 'ruby', '3.3.0', 'etc', 'gemrc'),
    path.join(gradle, 'gradle.properties'),
  ];
  const gradleInit = path.join(gradle, 'init.d', 'credentials.gradle');
  const condarcD = path.join(pyenv, 'versions', 'miniconda3-latest', 'condarc.d', 'corp.yml');
  let sandbox: Sandbox;
  beforeAll(async () => {
    // A Python install of pyenv's as pip sees one: a prefix with its own interpreter.
    execFileSync('python3', ['-m', 'venv', '--without-pip', '--system-site-packages', venv]);
    for (const file of [...files, gradleInit, condarcD])
      plant(file, file.endsWith('pip.conf') ? PIP_CONF : `token=${CANARY}\n`);
    plant(path.join(toolCache, 'Python', '3.12.0', 'x64.complete'), '');
    plant(path.join(toolCache, 'node', '20.0.0', 'x64.complete'), '');
    plant(path.join(maven, 'bin', 'mvn'), '');
    plant(path.join(maven, 'conf', 'settings.xml'), SETTINGS);
    plant(path.join(gradle, 'bin', 'gradle'), '');
    sandbox = await attackSandbox({
      root: temp.dir,
      workspace: path.join(temp.dir, 'ws'),
      env: {
        PYENV_ROOT: pyenv,
        RUNNER_TOOL_CACHE: toolCache,
        ASDF_DATA_DIR: asdf,
        SDKMAN_DIR: sdkman,
      },
    });
  });
  afterAll(async () => {
    await sandbox.dispose();
    temp.cleanup();
  });

  it("a token in a mounted toolchain's client configuration is not readable", async () => {
    const targets = [...files, path.join(maven, 'conf', 'settings.xml'), gradleInit, condarcD];
    await readAttack(sandbox, (target) => `cat ${target}`, targets.join(' '));
  });

  it("pip in the sandbox uses no token of its own prefix's pip.conf", async () => {
    const python = path.join(venv, 'bin', 'python');
    // The same pip prints the token of a file it may read: the attack could have shown one.
    const copy = plant(path.join(sandbox.policy.workspace, 'pip-copy.conf'), PIP_CONF);
    const proof = await inSandbox(sandbox, `PIP_CONFIG_FILE=${copy} ${python} -m pip config list`);
    expect(proof.output).toContain(CANARY);
    const run = await inSandbox(
      sandbox,
      `${python} -m pip config debug && ${python} -m pip config list`,
    );
    expect(run.exitCode, run.output).toBe(0);
    // pip still looks in its prefix: the file is there, and empty.
    expect(run.output).toContain(`${path.join(venv, 'pip.conf')}, exists: True`);
    expect(run.output).not.toContain(CANARY);
  });

  it(`each masked file reads as empty, a Maven home's settings as <settings/>, never refused ${CASE}`, async () => {
    const run = await inSandbox(
      sandbox,
      [
        ...files.map((file) => `printf '%s:%s\\n' ${file} "$(wc -c < ${file})"`),
        `cat ${path.join(maven, 'conf', 'settings.xml')}`,
        `printf 'init.d:%s\\n' "$(ls -A ${path.dirname(gradleInit)} | wc -l)"`,
      ].join('; '),
    );
    expect(run.output).not.toContain('Permission denied');
    for (const file of files) expect(run.output).toContain(`${file}:0\n`);
    expect(run.output).toContain('<settings/>');
    expect(run.output).toContain('init.d:0\n');
    expect(existsSync(gradleInit), 'the host keeps its own files').toBe(true);
  });
});
