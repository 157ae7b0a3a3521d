import { existsInside } from '../../workspace/confined-fs.ts';
import path from 'node:path';
import { PROVIDED_DEBUGPY } from '../../../tools/debug/adapters.ts';
import { projectPython } from '../../workspace/interpreters.ts';
import { quote } from '../../workspace/sandbox-shared.ts';
import type { Sandbox } from '../../workspace/sandbox.ts';
import type { JobContext } from '../context.ts';

const PYTHON_MARKERS = ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt'];

/**
 * A Python project whose interpreter lacks debugpy gets one for the debug
 * tool: installed with the setup's network into the sandbox's private home
 * for the project's own interpreter (never into the project or its venv),
 * so `debug launch` works on a plain project. Best effort: without it the
 * debug tool says debugpy is missing, as before.
 */
export const provideDebugpy = async (
  job: JobContext,
  sandbox: Sandbox,
  workspace: string,
  disabledTools: readonly string[],
): Promise<void> => {
  if (disabledTools.includes('debug')) return;
  if (!PYTHON_MARKERS.some((marker) => existsInside(workspace, path.join(workspace, marker))))
    return;
  const python = quote(projectPython(workspace));
  const target = `"$HOME"/${quote(PROVIDED_DEBUGPY)}`;
  const result = await sandbox.run({
    command: `${python} -c "import debugpy" 2>/dev/null || ${python} -m pip install --quiet --disable-pip-version-check --no-input --target ${target} debugpy`,
    cwd: workspace,
    network: 'setup',
    timeoutMs: 180_000,
    signal: job.signal,
  });
  if (result.exitCode !== 0)
    job.trace.emit({
      type: 'note',
      message: `debugpy could not be provided for ${python}: ${result.output.trim().split('\n').at(-1) ?? ''}`,
    });
};
