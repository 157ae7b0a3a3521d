/**
 * YAML read from a repository (a workflow, `.github/regreen.yml`), in time linear in its size.
 * The `yaml` library's own duplicate-key check compares each key with every key before it in
 * its map (a map of 25,000 keys held the host for a minute), so it is turned off and the same
 * rule is checked here in one pass, each map's keys in a set: a repeated key is still an error.
 */
import {
  isMap,
  isScalar,
  parseDocument,
  visit,
  YAMLParseError,
  type Document,
  type DocumentOptions,
  type LineCounter,
  type ParseOptions,
  type SchemaOptions,
} from 'yaml';

type Options = ParseOptions & DocumentOptions & SchemaOptions & { lineCounter?: LineCounter };

/** The document, with an error for each key repeated in its map (as the library would name it). */
export const parseYamlDocument = (text: string, options: Options = {}): Document.Parsed => {
  const document = parseDocument(text, { ...options, uniqueKeys: false });
  visit(document, {
    Map(_, map) {
      if (!isMap(map)) return;
      const keys = new Set<unknown>();
      for (const { key } of map.items) {
        if (!isScalar(key)) continue;
        if (keys.has(key.value) && key.range) {
          const at = key.range[0];
          document.errors.push(
            new YAMLParseError([at, at + 1], 'DUPLICATE_KEY', 'Map keys must be unique'),
          );
        }
        keys.add(key.value);
      }
    },
  });
  return document;
};

/** The value of a YAML text, as `yaml`'s `parse` gives it: the first error thrown. */
export const parseYaml = (text: string): unknown => {
  const document = parseYamlDocument(text);
  const [error] = document.errors;
  if (error) throw error;
  return document.toJS();
};
