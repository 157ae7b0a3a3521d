/**
 * An ini file (tox.ini, setup.cfg) as tox reads it, from a repository's
 * hostile text: one pass over lines of a bounded text, each key's value with
 * its continuation lines (indented, or after a trailing `\`), comments and
 * inline ` #` comments left out. Nothing of the text becomes a pattern.
 */

/** The most of an ini file read, and of sections and lines kept from it. */
const MAX_TEXT = 256 * 1024;
const MAX_SECTIONS = 512;
const MAX_VALUE_LINES = 512;

/** Section name → key → the value's lines (the first line's text, then each continuation line). */
export type IniSections = ReadonlyMap<string, ReadonlyMap<string, readonly string[]>>;

/** A line without an inline comment (` #` or ` ;` after text, as tox strips them). */
const withoutComment = (line: string): string => {
  for (const marker of [' #', '\t#']) {
    const at = line.indexOf(marker);
    if (at !== -1) line = line.slice(0, at);
  }
  return line.trimEnd();
};

const isComment = (line: string): boolean => {
  const trimmed = line.trimStart();
  return trimmed.startsWith('#') || trimmed.startsWith(';');
};

export const parseIni = (text: string): IniSections => {
  const sections = new Map<string, Map<string, string[]>>();
  let section: Map<string, string[]> | undefined;
  let value: string[] | undefined;
  let joinNext = false;
  for (const raw of text.slice(0, MAX_TEXT).split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (joinNext && value) {
      const cleaned = withoutComment(line.trim());
      joinNext = cleaned.endsWith('\\');
      const last = value.length - 1;
      value[last] =
        `${value[last] ?? ''} ${joinNext ? cleaned.slice(0, -1).trim() : cleaned}`.trim();
      continue;
    }
    joinNext = false;
    if (line.trim() === '' || isComment(line)) continue;
    if (line.startsWith('[')) {
      const end = line.indexOf(']');
      value = undefined;
      if (end === -1 || sections.size >= MAX_SECTIONS) {
        section = undefined;
        continue;
      }
      const name = line.slice(1, end).trim();
      section = sections.get(name) ?? new Map<string, string[]>();
      sections.set(name, section);
      continue;
    }
    if (!section) continue;
    if (/^\s/.test(line)) {
      // A continuation line of the key above.
      if (value && value.length < MAX_VALUE_LINES) {
        const cleaned = withoutComment(line.trim());
        joinNext = cleaned.endsWith('\\');
        value.push(joinNext ? cleaned.slice(0, -1).trim() : cleaned);
      }
      continue;
    }
    const equals = line.indexOf('=');
    if (equals === -1) {
      value = undefined;
      continue;
    }
    const key = line.slice(0, equals).trim().toLowerCase();
    const first = withoutComment(line.slice(equals + 1).trim());
    joinNext = first.endsWith('\\');
    value = [joinNext ? first.slice(0, -1).trim() : first];
    section.set(key, value);
  }
  for (const keys of sections.values())
    for (const [key, lines] of keys)
      keys.set(
        key,
        lines.filter((entry) => entry !== '' && !isComment(entry)),
      );
  return sections;
};
