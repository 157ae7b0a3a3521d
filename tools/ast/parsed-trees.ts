import { parseAsync, type SgRoot } from '@ast-grep/napi';
import type { AstLanguage } from './languages.ts';

/**
 * Parsed trees kept between searches. The agent searches the same tree many
 * times with different patterns; the native CLI parses every file every time.
 * A tree is reused only while its file's text is exactly the text it was
 * parsed from (compared on every use, so an edit by any means is seen), and
 * the cache holds at most this much source, least recently used out first.
 */
const MAX_CACHED_CHARS = 32 * 1024 * 1024;

interface Entry {
  readonly source: string;
  readonly root: SgRoot;
}

const entries = new Map<string, Entry>();
let cachedChars = 0;

const forget = (key: string): void => {
  const entry = entries.get(key);
  if (!entry) return;
  entries.delete(key);
  cachedChars -= entry.source.length;
};

/** The tree of `source`, the file's text as just read; parsed off the main thread when not cached. */
export const parsedTree = async (
  file: string,
  language: AstLanguage,
  source: string,
): Promise<SgRoot> => {
  const key = `${String(language.napi)}\0${file}`;
  const hit = entries.get(key);
  if (hit && hit.source === source) {
    // Most recently used goes last.
    entries.delete(key);
    entries.set(key, hit);
    return hit.root;
  }
  forget(key);
  const root = await parseAsync(language.napi, source);
  if (source.length <= MAX_CACHED_CHARS) {
    forget(key);
    entries.set(key, { source, root });
    cachedChars += source.length;
    for (const oldest of entries.keys()) {
      if (cachedChars <= MAX_CACHED_CHARS) break;
      forget(oldest);
    }
  }
  return root;
};
