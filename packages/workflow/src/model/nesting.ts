/**
 * How deeply a value may nest objects and arrays, wherever it comes from: a request body (the
 * gateway's MAX_BODY_DEPTH) or a value made from one (a YAML import). A workflow's state is about a
 * dozen levels deep; deeper values overflowed JSON.stringify and the run's records downstream.
 */
export const MAX_NESTING_DEPTH = 200;

/**
 * The path to the first object or array of `root` found more than MAX_NESTING_DEPTH levels down
 * (`root` itself is level 1), or undefined. Iterative, keeps one path per open level: a value far
 * deeper than a recursive walk could go is answered, not a stack overflow.
 */
export function tooDeepPath(root: unknown): Array<string | number> | undefined {
  if (typeof root !== 'object' || root === null) return undefined;
  const stack: Array<{ value: object; path: Array<string | number> }> = [{ value: root, path: [] }];
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    if (top.path.length >= MAX_NESTING_DEPTH) return top.path;
    const entries: Array<[string | number, unknown]> = Array.isArray(top.value) ? top.value.map((v: unknown, i) => [i, v]) : Object.entries(top.value);
    // Pushed last first, so the walk goes in the order written.
    for (let i = entries.length - 1; i >= 0; i--) {
      const entry = entries[i];
      if (entry && typeof entry[1] === 'object' && entry[1] !== null) stack.push({ value: entry[1], path: [...top.path, entry[0]] });
    }
  }
  return undefined;
}
