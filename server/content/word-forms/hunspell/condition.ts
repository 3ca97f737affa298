/**
 * An affix's condition: a simplified regular expression of characters, `.` and bracket sets (`[aeiou]`,
 * `[^aeiou]`), which the start of the stem (a prefix) or its end (a suffix) must match. Compiled to a
 * RegExp once per affix entry. Answers a reason when the condition is malformed (an unclosed bracket).
 */
export function compileCondition(condition: string, at: 'start' | 'end'): RegExp | string {
  if (condition === '.' || condition === '') return /(?:)/u;
  let pattern = '';
  const chars = [...condition];
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i];
    if (char === '.') pattern += '.';
    else if (char === '[') {
      const close = chars.indexOf(']', i + 1);
      if (close === -1) return `the condition "${condition}" has an unclosed "["`;
      let set = chars.slice(i + 1, close);
      const negated = set[0] === '^';
      if (negated) set = set.slice(1);
      if (set.length === 0) return `the condition "${condition}" has an empty "[]"`;
      pattern += `[${negated ? '^' : ''}${set.map(escapeInSet).join('')}]`;
      i = close;
    } else if (char === ']') return `the condition "${condition}" has a "]" without its "["`;
    else pattern += escapeLiteral(char);
  }
  return new RegExp(at === 'start' ? `^${pattern}` : `${pattern}$`, 'u');
}

const escapeLiteral = (char: string) => char.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
const escapeInSet = (char: string) => char.replace(/[\\\]^[-]/g, '\\$&');
