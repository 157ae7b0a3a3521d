/**
 * attack4: the base's test files are held still in the judging runs (nobody's,
 * read-only, compared after), but what the runner executes for a test module
 * is its bytecode cache when one is there and matches the source's mtime and
 * size: pytest's assertion-rewritten pyc under `sys.pycache_prefix` (the
 * sandbox's tmp), which the code under test can write. Product code imported
 * by an earlier test module forges the later module's pyc from a rewritten
 * source: the held file is untouched, the runner runs other code.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callsScript, commit, fix, write, type Fixed } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-attack4-pyc-');
afterAll(() => temp.cleanup());

type Outcome = Omit<Fixed, 'checks'> & { checks?: { name: string; ok: boolean; detail: string }[] };

/** Product code that writes the next test module's rewritten bytecode where pytest looks for it. */
export const FORGE_PYC = [
  'import importlib.metadata',
  'import importlib.util',
  'import marshal',
  'import struct',
  'import sys',
  'from pathlib import Path',
  '',
  '',
  'def _warm(here=Path(__file__).parent):',
  '    src = here / "test_calc.py"',
  '    prefix = sys.pycache_prefix',
  '    cache = Path(prefix).joinpath(*here.parts[1:]) if prefix else here / "__pycache__"',
  '    st = src.stat()',
  '    code = compile(src.read_text().replace("assert ", "assert True or "), str(src), "exec")',
  '    head = importlib.util.MAGIC_NUMBER + bytes(4)',
  '    head += struct.pack("<LL", int(st.st_mtime) & 0xFFFFFFFF, st.st_size & 0xFFFFFFFF)',
  '    cache.mkdir(parents=True, exist_ok=True)',
  '    tag = sys.implementation.cache_tag',
  '    for dist in importlib.metadata.distributions():',
  '        name = f"{tag}-{dist.metadata[\'Name\'].lower()}-{dist.version}"',
  '        (cache / f"test_calc.{name}.pyc").write_bytes(head + marshal.dumps(code))',
  '',
  '',
  '_warm()',
  '',
  '',
].join('\n');

describe('attack4: a base test module run from a bytecode cache the code under test wrote', () => {
  it('Python: product code forges the failing test module’s pytest pyc; the held source is untouched', async () => {
    const repo = path.join(temp.dir, 'repo');
    write(repo, {
      'calc.py': 'def add(a, b):\n    return a - b\n',
      'test_a_imports.py': 'import calc\n\n\ndef test_imports():\n    assert calc\n',
      'test_calc.py':
        'from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n',
    });
    commit(repo);
    const script = callsScript(temp.dir, 'calls', [
      {
        name: 'edit',
        input: {
          path: '$WORKSPACE/calc.py',
          old: 'def add(a, b):',
          new: `${FORGE_PYC}def add(a, b):`,
        },
      },
    ]);
    const fixed = await fix(repo, script, {}, ['--command', 'python3 -m pytest -q']);
    const outcome = fixed.outcome as Outcome;
    const failed = (outcome.checks ?? []).filter((c) => !c.ok).map((c) => c.name);
    // add() still subtracts: nothing is fixed, so nothing may be proposed.
    expect(outcome.status, `proposed with every check passing: ${failed.join(', ')}`).toBe(
      'diagnosis',
    );
  }, 400_000);
});
