// regreen's JavaScript kernel: a persistent vm context driven over line-delimited JSON
// (the same protocol as the Python kernel). Top-level await, require and import() from
// the workspace; the protocol owns the real stdout.
import { createRequire } from 'node:module';
import path from 'node:path';
import readline from 'node:readline';
import util from 'node:util';
import vm from 'node:vm';

const acornPath = process.env.REGREEN_ACORN;
const { parse } = await import(acornPath);

const protoWrite = process.stdout.write.bind(process.stdout);
const send = (message) => protoWrite(`${JSON.stringify(message)}\n`);

const HEAD = 20000;
const TAIL = 20000;
class Capture {
  head = '';
  tail = '';
  total = 0;
  write(text) {
    const s = String(text);
    this.total += s.length;
    const room = HEAD - this.head.length;
    let rest = s;
    if (room > 0) {
      this.head += s.slice(0, room);
      rest = s.slice(room);
    }
    if (rest) this.tail = (this.tail + rest).slice(-TAIL);
  }
  value() {
    const cut = this.total - this.head.length - this.tail.length;
    return cut > 0
      ? `${this.head}\n[... ${cut} characters cut ...]\n${this.tail}`
      : this.head + this.tail;
  }
}

let out = new Capture();
let err = new Capture();
let outputs = [];
// Anything written to the real stdout or stderr by a cell is captured, never mixed into the protocol.
process.stdout.write = (chunk) => {
  out.write(chunk);
  return true;
};
process.stderr.write = (chunk) => {
  err.write(chunk);
  return true;
};
const format = (args) => args.map((a) => (typeof a === 'string' ? a : inspect(a))).join(' ');
const inspect = (value) => {
  const text = util.inspect(value, { depth: 4, maxArrayLength: 100, breakLength: 100 });
  return text.length > 20000
    ? `${text.slice(0, 20000)} [... ${text.length - 20000} characters cut]`
    : text;
};
const cellConsole = {
  log: (...a) => out.write(`${format(a)}\n`),
  info: (...a) => out.write(`${format(a)}\n`),
  debug: (...a) => out.write(`${format(a)}\n`),
  warn: (...a) => err.write(`${format(a)}\n`),
  error: (...a) => err.write(`${format(a)}\n`),
  table: (data) => out.write(`${inspect(data)}\n`),
  dir: (value) => out.write(`${inspect(value)}\n`),
};

let callIds = 0;
const pendingCalls = new Map();
class ToolError extends Error {
  name = 'ToolError';
}
const tool = (name, input = {}) =>
  new Promise((resolve, reject) => {
    callIds += 1;
    pendingCalls.set(callIds, { resolve, reject });
    send({ type: 'tool_call', id: callIds, name, input });
  });
const display = (...values) => {
  for (const value of values) outputs.push({ type: 'text', text: inspect(value) });
};

const workspaceRequire = createRequire(path.join(process.cwd(), '__regreen_kernel__.js'));
const context = vm.createContext({
  console: cellConsole,
  require: workspaceRequire,
  process,
  Buffer,
  URL,
  URLSearchParams,
  TextEncoder,
  TextDecoder,
  AbortController,
  fetch: globalThis.fetch,
  structuredClone,
  queueMicrotask,
  setTimeout,
  clearTimeout,
  setInterval,
  clearInterval,
  setImmediate,
  clearImmediate,
  performance,
  display,
  tool,
  ToolError,
});

/** Top-level const/let/class become var so that a later cell may declare them again. */
const rewrite = (code) => {
  const ast = parse(code, {
    ecmaVersion: 'latest',
    sourceType: 'script',
    allowAwaitOutsideFunction: true,
    allowReturnOutsideFunction: false,
  });
  let hasAwait = false;
  const walk = (node, inFunction) => {
    if (!node || typeof node.type !== 'string') return;
    if (
      !inFunction &&
      (node.type === 'AwaitExpression' || (node.type === 'ForOfStatement' && node.await))
    )
      hasAwait = true;
    const fn = /Function/.test(node.type);
    for (const key of Object.keys(node)) {
      const child = node[key];
      if (Array.isArray(child)) child.forEach((c) => walk(c, inFunction || fn));
      else if (child && typeof child.type === 'string') walk(child, inFunction || fn);
    }
  };
  walk(ast, false);
  const edits = [];
  const hoisted = [];
  const names = (pattern) => {
    if (!pattern) return [];
    switch (pattern.type) {
      case 'Identifier':
        return [pattern.name];
      case 'ObjectPattern':
        return pattern.properties.flatMap((p) =>
          names(p.type === 'RestElement' ? p.argument : p.value),
        );
      case 'ArrayPattern':
        return pattern.elements.flatMap((e) => names(e));
      case 'RestElement':
        return names(pattern.argument);
      case 'AssignmentPattern':
        return names(pattern.left);
      default:
        return [];
    }
  };
  for (const statement of ast.body) {
    if (statement.type === 'VariableDeclaration') {
      if (hasAwait) {
        // Inside the async wrapper: declare on the context, assign in place.
        hoisted.push(...statement.declarations.flatMap((d) => names(d.id)));
        const parts = statement.declarations
          .filter((d) => d.init)
          .map(
            (d) =>
              `(${code.slice(d.id.start, d.id.end)} = ${code.slice(d.init.start, d.init.end)})`,
          );
        edits.push([statement.start, statement.end, `${parts.join(', ') || 'undefined'};`]);
      } else if (statement.kind !== 'var') {
        edits.push([statement.start, statement.start + statement.kind.length, 'var']);
      }
    } else if (statement.type === 'ClassDeclaration') {
      const name = statement.id.name;
      if (hasAwait) hoisted.push(name);
      edits.push([
        statement.start,
        statement.end,
        `${hasAwait ? '' : 'var '}${name} = ${code.slice(statement.start, statement.end)};`,
      ]);
    } else if (statement.type === 'FunctionDeclaration' && hasAwait) {
      hoisted.push(statement.id.name);
      edits.push([
        statement.start,
        statement.end,
        `${statement.id.name} = ${code.slice(statement.start, statement.end)};`,
      ]);
    }
  }
  const last = ast.body.at(-1);
  if (hasAwait && last?.type === 'ExpressionStatement') {
    edits.push([
      last.start,
      last.end,
      `return (${code.slice(last.expression.start, last.expression.end)});`,
    ]);
  }
  let text = code;
  for (const [start, end, replacement] of edits.sort((a, b) => b[0] - a[0])) {
    text = text.slice(0, start) + replacement + text.slice(end);
  }
  if (!hasAwait) return { code: text, async: false };
  const vars = hoisted.length > 0 ? `var ${[...new Set(hoisted)].join(', ')};\n` : '';
  return { code: `${vars}(async () => {\n${text}\n})()`, async: true };
};

let current;
const run = async (message) => {
  out = new Capture();
  err = new Capture();
  outputs = [];
  let error = null;
  let interrupted = false;
  const abandoned = new Promise((_, reject) => {
    current = {
      interrupt: () => {
        interrupted = true;
        reject(new Error('interrupted: the pending work was abandoned (the kernel state is kept)'));
      },
    };
  });
  try {
    const cell = rewrite(message.code);
    let value = vm.runInContext(cell.code, context, {
      filename: 'cell.js',
      timeout: Math.max(1, message.timeout_ms ?? 300000),
      importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
    });
    if (value && typeof value.then === 'function') value = await Promise.race([value, abandoned]);
    if (value !== undefined) {
      context._ = value;
      outputs.push({ type: 'text', text: inspect(value) });
    }
  } catch (e) {
    if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') interrupted = true;
    if (interrupted)
      error = 'interrupted: the cell ran past its idle budget (the kernel state is kept)';
    else if (e instanceof SyntaxError && !e.stack?.includes('cell.js'))
      error = `SyntaxError: ${e.message}`;
    else
      error =
        e && e.stack
          ? String(e.stack)
              .split('\n')
              .filter((l) => !l.includes('js_driver.mjs'))
              .join('\n')
          : String(e);
  } finally {
    current = undefined;
  }
  send({
    type: 'result',
    id: message.id,
    ok: error === null,
    interrupted,
    outputs,
    stdout: out.value(),
    stderr: err.value(),
    error,
  });
};

let queue = Promise.resolve();
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (message.type === 'interrupt') current?.interrupt();
  else if (message.type === 'tool_result') {
    const call = pendingCalls.get(message.id);
    pendingCalls.delete(message.id);
    const result = message.result ?? {};
    const text = (result.content ?? []).map((b) => b.text ?? '[image]').join('\n');
    if (result.isError) call?.reject(new ToolError(text));
    else call?.resolve(text);
  } else if (message.type === 'execute') queue = queue.then(() => run(message));
});
process.on('unhandledRejection', (reason) => err.write(`unhandled rejection: ${String(reason)}\n`));
send({ type: 'ready', pid: process.pid, node: process.version });
