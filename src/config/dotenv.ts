/**
 * The `.env` file `regreen serve` reads the App's credentials from: how it is
 * read, and whether it gives its secrets away (readable by the group or
 * others), which `serve` and `doctor` say with the command that fixes it.
 */
import { readFileSync, statSync } from 'node:fs';
import { RegreenError } from '../errors.ts';

/** A `NAME=value` line, as dotenv reads one: `export ` before it, blanks around `=`. */
const ASSIGNMENT = /^(?:export[ \t]+)?([A-Za-z_]\w*)[ \t]*=(.*)$/;
const BASE64 = /^[A-Za-z0-9+/]+=*$/;

/**
 * Reads `KEY=value` / `KEY="value"` / `KEY='value'` lines of a `.env` into an
 * environment (a double-quoted value's `\n` unescaped, a single-quoted one
 * taken as written). A line that is none of these, a comment or blank is
 * left out and told to `ignored` by its number (never its text: it may hold
 * a secret), so that a mistyped line is not silently dropped.
 */
export const readEnvFile = (
  file: string,
  ignored?: (line: number) => void,
): Record<string, string> => {
  const out: Record<string, string> = {};
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const line = (lines[i] ?? '').trim();
    const match = ASSIGNMENT.exec(line);
    if (!match?.[1]) {
      if (line !== '' && !line.startsWith('#')) ignored?.(i + 1);
      continue;
    }
    let raw = (match[2] ?? '').trim();
    if (raw.length > 1 && raw.startsWith("'") && raw.endsWith("'")) {
      out[match[1]] = raw.slice(1, -1);
      continue;
    }
    // A double-quoted value may go on over lines (a PEM pasted as it is), as dotenv reads it.
    if (raw.startsWith('"') && (raw.length === 1 || !raw.endsWith('"'))) {
      const end = lines.findIndex((later, at) => at > i && later.trimEnd().endsWith('"'));
      // A quote no line closes before the next `NAME=` line was left open: it would swallow them.
      // (A PEM's last line, `AbC1==`, is base64, not an assignment.)
      const next = lines.findIndex(
        (later, at) => at > i && ASSIGNMENT.test(later.trim()) && !BASE64.test(later.trim()),
      );
      if (end === -1 || (next !== -1 && next <= end))
        throw new RegreenError(
          'usage',
          `${file}:${i + 1}: the value of ${match[1]} opens a double quote that no line closes${next === -1 ? '' : ` before ${ASSIGNMENT.exec(lines[next]?.trim() ?? '')?.[1] ?? ''}= on line ${next + 1}`}. Close it with " at the end of the value`,
        );
      if (end > i) {
        raw = [raw, ...lines.slice(i + 1, end + 1).map((later) => later.trimEnd())].join('\n');
        i = end;
      }
    }
    out[match[1]] = (
      raw.length > 1 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw
    ).replaceAll('\\n', '\n');
  }
  return out;
};

/** A name whose value is a secret: a key, a token, a secret, a password (not a path to one). */
const SECRET_NAME = /(?:^|_)(?:KEY|TOKEN|SECRET|PASSWORD)$/;

/**
 * The secrets a `.env` gives away: the names of those it holds, when the
 * group or others may read it (mode & 0o077); undefined when it holds none,
 * is its owner's only, or is not there.
 */
export const exposedSecrets = (file: string): { mode: number; names: string[] } | undefined => {
  const stats = statSync(file, { throwIfNoEntry: false });
  if (!stats?.isFile() || (stats.mode & 0o077) === 0) return undefined;
  let names: string[];
  try {
    names = Object.entries(readEnvFile(file))
      .filter(([name, value]) => SECRET_NAME.test(name) && value !== '')
      .map(([name]) => name);
  } catch {
    return undefined;
  }
  return names.length > 0 ? { mode: stats.mode & 0o777, names } : undefined;
};

/** The one line that says a `.env` gives its secrets away, with the command that stops it. */
export const exposedDotenvWarning = (file: string): string | undefined => {
  const exposed = exposedSecrets(file);
  return exposed
    ? `${file} holds ${exposed.names.join(', ')} and others may read it (mode ${exposed.mode.toString(8).padStart(4, '0')}): chmod 600 ${file}`
    : undefined;
};
