import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * Modules that read the environment as a whole, besides the one reader of
 * settings (`src/config/env.ts`): each passes it on, filtered, to a process
 * regreen starts, and says why. The list must stay true (a stale entry fails).
 */
const WHOLE_ENV_READERS: Record<string, string> = {
  'src/workspace/sandbox/env.ts':
    "the sandbox's environment: the operator's, filtered to what a build needs",
  'src/workspace/repo/git-args.ts':
    "host git's environment: the caller's, minus what git reads as configuration",
  'src/entrypoints/action.ts': "the job's environment: the runner's, plus the API key input",
  'src/entrypoints/app.ts': "serve's environment: the operator's, with --host",
  'src/entrypoints/app-credentials.ts':
    "serve's environment: the operator's, plus the App's saved credentials and the model's keys",
  'src/eval/run.ts': "a task's environment: the operator's, plus the task's own",
  'src/workspace/setup/npm-tools.ts': "host npm's environment: the operator's, without its notices",
  'src/workspace/setup/package-managers.ts':
    "a provided Yarn's environment when asked its registry: only the operator's Yarn and npm settings",
  'src/workspace/setup/registries.ts': "a cache key: the environment the operator's clients read",
  'src/workspace/sandbox/policy.ts':
    "the sandbox's base: the operator's, after the toolchains found",
};

/** Whether a type is the environment: regreen's `Env`, or Node's `process.env`. */
const isEnvType = (type: ts.Type): boolean =>
  ['Env', 'ProcessEnv'].includes(type.getSymbol()?.name ?? '');

interface Read {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly whole: boolean;
}

/** Every read of an environment value in the program's own sources, by its type, not by its spelling. */
const environmentReads = (): Read[] => {
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'tsconfig.json'),
    {},
    { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
  );
  if (!config) throw new Error('tsconfig.json cannot be read');
  const own = config.fileNames.filter((file) =>
    /^(src|tools|checks)\//.test(path.relative(ROOT, file)),
  );
  const program = ts.createProgram(own, config.options);
  const checker = program.getTypeChecker();
  const reads: Read[] = [];
  for (const source of program.getSourceFiles()) {
    const file = path.relative(ROOT, source.fileName);
    if (!/^(src|tools|checks)\//.test(file) || file === 'src/config/env.ts') continue;
    const envTyped = (node: ts.Node): boolean => isEnvType(checker.getTypeAtLocation(node));
    const note = (node: ts.Node, whole: boolean): void => {
      reads.push({
        file,
        line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1,
        text: node.getText().slice(0, 80),
        whole,
      });
    };
    const visit = (node: ts.Node): void => {
      // env.NAME and env[name]: a variable read by name (a literal or a list of them).
      if (
        (ts.isPropertyAccessExpression(node) || ts.isElementAccessExpression(node)) &&
        envTyped(node.expression)
      )
        note(node, false);
      // const { NAME } = env
      else if (
        ts.isVariableDeclaration(node) &&
        ts.isObjectBindingPattern(node.name) &&
        node.initializer &&
        envTyped(node.initializer)
      )
        note(node, false);
      // { ...env }, Object.entries(env), for (… in env): the whole environment, passed on.
      else if (
        (ts.isSpreadAssignment(node) || ts.isSpreadElement(node)) &&
        envTyped(node.expression)
      )
        note(node, true);
      else if (
        ts.isCallExpression(node) &&
        /^Object\.(entries|keys|values|assign|fromEntries)$/.test(node.expression.getText()) &&
        node.arguments.some((argument) => envTyped(argument))
      )
        note(node, true);
      else if (ts.isForInStatement(node) && envTyped(node.expression)) note(node, true);
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return reads;
};

describe('the environment', () => {
  const reads = environmentReads();

  it('is read by name only in src/config/env.ts (settingsOf), found by type on the syntax tree', () => {
    expect(
      reads.filter((read) => !read.whole).map((read) => `${read.file}:${read.line} ${read.text}`),
    ).toEqual([]);
  });

  it('is read whole only by the modules that pass it on, filtered; the list stays true', () => {
    const whole = [...new Set(reads.filter((read) => read.whole).map((read) => read.file))].sort();
    expect(whole).toEqual(Object.keys(WHOLE_ENV_READERS).sort());
  });
});
