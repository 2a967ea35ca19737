/** A query or form field as a run's input keeps it: a key given once is a string, a repeated key an array. */
export type FieldValue = string | string[];

/**
 * Name/value pairs (a query, a form body) as a run's input keeps them: `tag=a&tag=b&q=x` is
 * `{tag: ['a', 'b'], q: 'x'}` (values in the order sent), as n8n gives repeated keys.
 */
export function fieldsOf(pairs: URLSearchParams): Record<string, FieldValue> {
  const out = new Map<string, FieldValue>();
  for (const [name, value] of pairs) {
    const seen = out.get(name);
    if (seen === undefined) out.set(name, value);
    else if (Array.isArray(seen)) seen.push(value);
    else out.set(name, [seen, value]);
  }
  // fromEntries, not assignment: a key such as __proto__ stays a plain field.
  return Object.fromEntries(out);
}
