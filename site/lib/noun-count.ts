/** A count with its noun, as pages say it: "1 chapter", "2 chapters", "0 phrases". */
export function nounCount(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
}
