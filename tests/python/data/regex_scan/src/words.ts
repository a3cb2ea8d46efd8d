// TypeScript: the type annotations need the parser's TypeScript plugin.
export const word: RegExp = /^\w+$/i;
export function again(flags: string): RegExp {
  return RegExp('^\\w+$', flags);
}
