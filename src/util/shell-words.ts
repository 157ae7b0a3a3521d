/**
 * A command line split into words as POSIX shlex does (quotes and
 * backslashes, no expansion): one pass over the text, at most `maxWords`.
 * `undefined` when it holds what a single invocation cannot (an operator
 * such as `&&`, `|`, `;`, a redirection, a substitution, an unclosed quote).
 */
export const shellWords = (text: string, maxWords = 256): string[] | undefined => {
  const words: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charAt(i);
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else current += char;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && i + 1 < text.length && '"\\$`'.includes(text.charAt(i + 1))) {
        i += 1;
        current += text.charAt(i);
      } else if (char === '$' || char === '`') return undefined;
      else current += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\' && i + 1 < text.length) {
      i += 1;
      current += text.charAt(i);
      inWord = true;
    } else if (char === ' ' || char === '\t') {
      if (inWord) words.push(current);
      current = '';
      inWord = false;
      if (words.length > maxWords) return undefined;
    } else if ('&|;<>()`$\n'.includes(char)) {
      return undefined;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (quote !== undefined) return undefined;
  if (inWord) words.push(current);
  return words.length > maxWords ? undefined : words;
};
