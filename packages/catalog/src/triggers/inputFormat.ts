/** A field of the starter's input format: the run's input is asked for by these. */
export interface InputField {
  name: string;
  type: string;
}

/** The fields an input format value gives (a list of {name, type} rows, or its JSON text); unnamed rows are left out. */
export function inputFormatFields(value: unknown): InputField[] {
  let rows: unknown = value;
  if (typeof value === 'string') {
    try {
      rows = JSON.parse(value);
    } catch {
      return [];
    }
  }
  if (!Array.isArray(rows)) return [];
  return rows
    .filter((r): r is { name: string; type?: unknown } => typeof r === 'object' && r !== null && typeof (r as { name?: unknown }).name === 'string' && (r as { name: string }).name.trim() !== '')
    .map((r) => ({ name: r.name.trim(), type: typeof r.type === 'string' ? r.type : 'string' }));
}
