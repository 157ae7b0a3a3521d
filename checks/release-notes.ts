/**
 * Release notes and news fragments, told by their names: a changeset
 * (`.changeset/*.md`, as the changesets tool writes them), a towncrier, scriv
 * or changie fragment (`changes/`, `CHANGES/`, `newsfragments/`, `news/`,
 * `changelog.d/`, `.changes/`), a changelog of any spelling. A release tool
 * reads them, no test run does: prose, whatever their folder. This is the
 * fallback of a rule whose goal is a trace: a changed file that no run of the
 * tests opens with the change applied cannot decide the verdict
 * (`docs/checks.md`); regreen's sandbox traces no opens yet, so the names
 * decide, and a name the base's harness names, or code, never is a note.
 */

/** Folders a news-fragment tool collects from (towncrier's defaults and common settings, scriv's, changie's), at any depth. */
const FRAGMENT_FOLDERS = new Set(['newsfragments', 'changelog.d', '.changes']);
/** The same, where a product may name a folder so too: at the repository's root only. */
const ROOT_FRAGMENT_FOLDERS = new Set(['changes', 'CHANGES', 'news', 'changelog']);

/** Extensions of a note's text (changie's fragments are YAML, in its own folder only). */
const PROSE_TEXT = /\.(md|markdown|rst|txt|adoc)$/i;
const FRAGMENT_TEXT = /\.(md|markdown|rst|txt|adoc|ya?ml)$/i;

/** A changelog by any spelling (`CHANGELOG-3.x.md`, `Changes.txt`, `RELEASE_NOTES.rst`). */
const CHANGELOG = /^(changelog|changes|history|news|release[-_]?notes)([-_.][\w.-]*)?$/i;

/** A fragment name: an issue number or `+name`, then its type (`123.bugfix`, `+abc.feature.md`). */
const FRAGMENT = /^(\+[\w-]*|\d+)\.[a-z]+(\.\d+)?(\.(md|markdown|rst|txt|adoc))?$/i;

/**
 * A release note by its path (`code` tells a file of code: never a note). A
 * changeset's `.md` beside its `config.json`; in a fragment folder, a
 * fragment's name or a note's text; a changelog by its name.
 */
export const isReleaseNote = (file: string, code: (base: string) => boolean): boolean => {
  const segments = file.split('/');
  const base = segments.at(-1) ?? '';
  const folder = segments.at(-2);
  if (base === '' || code(base)) return false;
  // A tool's dot folder is never a note's, but for the notes' own (`.changeset`, changie's `.changes`).
  const dotted = segments.filter((segment) => segment.startsWith('.'));
  if (dotted.some((segment) => segment !== '.changeset' && segment !== '.changes')) return false;
  if (folder === '.changeset') return /\.md$/i.test(base);
  const folders = segments.slice(0, -1);
  if (
    ROOT_FRAGMENT_FOLDERS.has(folders[0] ?? '') ||
    folders.some((segment) => FRAGMENT_FOLDERS.has(segment))
  )
    return FRAGMENT.test(base) || FRAGMENT_TEXT.test(base);
  return (
    dotted.length === 0 && CHANGELOG.test(base) && (PROSE_TEXT.test(base) || !base.includes('.'))
  );
};
