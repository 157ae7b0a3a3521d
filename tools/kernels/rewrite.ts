/**
 * IPython idioms people type by reflex, rewritten to plain Python that calls
 * the kernel's helpers: `%pip`, `%cd`, `!cmd`, `%%bash`/`%%sh`,
 * `%%timeit`/`%timeit`. Any other magic becomes an error that says so.
 */
const literal = (text: string): string => JSON.stringify(text);

/**
 * A magic's match with its arguments, as `(\w+)\s*(.*)$` after it would give them: the rest of
 * the line past its blanks, which must hold no line break. (That pattern backtracked over the
 * name and the blanks on a long line with a break in it.)
 */
const magicCall = (head: RegExpExecArray | null, line: string): string[] | undefined => {
  const args = head ? line.slice(head[0].length).trimStart() : '';
  return head && /^.*$/.test(args) ? [...head, args] : undefined;
};

export const rewriteIPython = (code: string): string => {
  const lines = code.replace(/\r\n/g, '\n').split('\n');
  const first = lines.findIndex((line) => line.trim().length > 0);
  const head = first >= 0 ? (lines[first] ?? '').trim() : '';
  const body = lines.slice(first + 1).join('\n');
  const cellMagic = magicCall(/^%%(\w+)/.exec(head), head);
  if (cellMagic) {
    const [, magic, rest = ''] = cellMagic;
    if (magic === 'bash' || magic === 'sh')
      return `__regreen_sh(${literal(body)}, ${literal(magic)})`;
    if (magic === 'timeit') {
      const setup = rest
        .split(/\s+/)
        .filter((word) => word && !word.startsWith('-'))
        .join(' ');
      return `__regreen_timeit(${literal(body)}, ${literal(setup || 'pass')})`;
    }
    return `__regreen_unsupported(${literal(`%%${magic}`)})`;
  }
  return lines
    .map((line) => {
      const shell = /^(\s*)!(.*)$/.exec(line);
      if (shell) return `${shell[1] ?? ''}__regreen_sh(${literal(shell[2] ?? '')})`;
      const magic = magicCall(/^(\s*)%(\w+)/.exec(line), line);
      if (!magic) return line;
      const [, indent = '', name = '', args = ''] = magic;
      switch (name) {
        case 'pip':
          return `${indent}__regreen_pip(${literal(args)})`;
        case 'cd':
          return `${indent}__regreen_cd(${literal(args)})`;
        case 'timeit':
          return `${indent}__regreen_timeit(${literal(args.replace(/^(?:(?:-[nr]\s*\d+|-\w+)\s+)+/, ''))})`;
        default:
          return `${indent}__regreen_unsupported(${literal(`%${name}`)})`;
      }
    })
    .join('\n');
};
