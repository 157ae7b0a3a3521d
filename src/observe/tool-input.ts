/**
 * A tool call's input as a person reads it: `read path=src/a.ts lines 10–40`,
 * a command as a line of code, an edit as a diff, long text folded. Any tool
 * gets a key=value line (strings unquoted) and its multi-line values as
 * blocks; the common tools get a form of their own.
 */
import { diffHtml, replacementHtml } from './diff-html.ts';
import { textHtml } from './icons.ts';

type Args = Readonly<Record<string, unknown>>;

/** What a call's input shows: a line for its summary, blocks for its body. */
export interface ArgsView {
  readonly line: string;
  readonly blocks: string;
}

/** Longer than this, a one-line value moves from the summary line to a block. */
const INLINE_MAX = 100;
/** Longer than these, a block is folded. */
const FOLD_LINES = 12;
const FOLD_CHARS = 1200;
const PATH_KEYS = new Set(['path', 'file', 'cwd', 'directory', 'dir']);

const relative = (value: string, workspace: string | undefined): string =>
  !workspace
    ? value
    : value === workspace
      ? '.'
      : value.startsWith(`${workspace}/`)
        ? value.slice(workspace.length + 1)
        : value;

const pair = (key: string, value: string): string =>
  `<span class="arg"><span class="key">${textHtml(key)}</span>=<code>${textHtml(value)}</code></span>`;

const lineCount = (text: string): number => text.replace(/\n$/, '').split('\n').length;

/** A block of text under its name, folded when long. */
const block = (key: string, inner: string, text: string): string => {
  const lines = lineCount(text);
  const label = `<span class="key">${textHtml(key)}</span>${lines > 1 ? ` <small>(${lines} lines)</small>` : ''}`;
  return lines > FOLD_LINES || text.length > FOLD_CHARS
    ? `<details class="arg-block"><summary>${label}</summary>${inner}</details>`
    : `<div class="arg-block">${label}${inner}</div>`;
};

const preBlock = (key: string, text: string): string =>
  block(key, `<pre>${textHtml(text)}</pre>`, text);

const scalar = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean' || value === null
      ? String(value)
      : undefined;

/** A nested value (an array of options, an object) as a list of its parts. */
const nestedHtml = (value: unknown): string => {
  const text = scalar(value);
  if (text !== undefined)
    return text.includes('\n') ? `<pre>${textHtml(text)}</pre>` : textHtml(text);
  const entries = Array.isArray(value)
    ? value.map((item) => ['', item] as const)
    : Object.entries(value as Args);
  return `<ul class="args">${entries
    .map(
      ([key, item]) =>
        `<li>${key ? `<span class="key">${textHtml(key)}</span>: ` : ''}${nestedHtml(item)}</li>`,
    )
    .join('')}</ul>`;
};

/** Any argument: short scalars on the line, long or multi-line text and structures as blocks. */
const generic = (key: string, value: unknown, workspace: string | undefined): ArgsView => {
  const text = scalar(value);
  if (text === undefined) {
    const short =
      Array.isArray(value) && value.every((item) => scalar(item) !== undefined)
        ? value.map((item) => scalar(item)).join(', ')
        : undefined;
    return short !== undefined && short.length <= INLINE_MAX
      ? { line: pair(key, short), blocks: '' }
      : { line: '', blocks: block(key, nestedHtml(value), JSON.stringify(value) ?? '') };
  }
  const shown = PATH_KEYS.has(key) ? relative(text, workspace) : text;
  return shown.includes('\n') || shown.length > INLINE_MAX
    ? { line: '', blocks: preBlock(key, shown) }
    : { line: pair(key, shown), blocks: '' };
};

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The common tools' own forms: what they show, and which arguments they used. */
const FORMS: Readonly<
  Record<string, (args: Args, workspace: string | undefined) => ArgsView & { used: string[] }>
> = {
  read: (args, workspace) => {
    const from = typeof args.from === 'number' ? args.from : undefined;
    const to = typeof args.to === 'number' ? args.to : undefined;
    const range =
      to !== undefined
        ? ` lines ${from ?? 1}–${to}`
        : from !== undefined && from > 1
          ? ` from line ${from}`
          : '';
    return {
      line: `${pair('path', relative(str(args.path) ?? '', workspace))}${range ? `<span class="arg">${range}</span>` : ''}`,
      blocks: '',
      used: ['path', 'from', 'to'],
    };
  },
  edit: (args, workspace) => ({
    line: pair('path', relative(str(args.path) ?? '', workspace)),
    blocks: replacementHtml(str(args.old) ?? '', str(args.new) ?? ''),
    used: ['path', 'old', 'new'],
  }),
  write: (args, workspace) => {
    const content = str(args.content) ?? '';
    return {
      line: `${pair('path', relative(str(args.path) ?? '', workspace))} <span class="arg">${lineCount(content)} lines</span>`,
      blocks: preBlock('content', content),
      used: ['path', 'content'],
    };
  },
  apply_patch: (args) => {
    const patch = str(args.patch) ?? '';
    return { line: '', blocks: block('patch', diffHtml(patch), patch), used: ['patch'] };
  },
  run_tests: (args) => ({
    line:
      typeof args.filter === 'string'
        ? pair('filter', args.filter)
        : '<span class="arg">all tests</span>',
    blocks: '',
    used: ['filter'],
  }),
};

/** A shell command (any tool's `command` or `cmd`): a line of code, or a block when long. */
const commandForm = (command: string): ArgsView =>
  command.includes('\n') || command.length > INLINE_MAX
    ? {
        line: '',
        blocks: block('command', `<pre class="command">$ ${textHtml(command)}</pre>`, command),
      }
    : { line: `<code class="command">$ ${textHtml(command)}</code>`, blocks: '' };

/** A tool call's input as a summary line and body blocks. */
export const toolInputView = (name: string, input: unknown, workspace?: string): ArgsView => {
  if (input === undefined || input === null) return { line: '', blocks: '' };
  if (typeof input !== 'object' || Array.isArray(input)) return generic('input', input, workspace);
  const args = input as Args;
  const views: ArgsView[] = [];
  const used = new Set<string>();
  const form = Object.hasOwn(FORMS, name) ? FORMS[name] : undefined;
  if (form) {
    const view = form(args, workspace);
    views.push(view);
    for (const key of view.used) used.add(key);
  }
  for (const key of ['command', 'cmd']) {
    const command = str(args[key]);
    if (command === undefined || used.has(key)) continue;
    views.push(commandForm(command));
    used.add(key);
  }
  for (const [key, value] of Object.entries(args))
    if (!used.has(key)) views.push(generic(key, value, workspace));
  return {
    line: views
      .map((view) => view.line)
      .filter(Boolean)
      .join(' '),
    blocks: views.map((view) => view.blocks).join(''),
  };
};
