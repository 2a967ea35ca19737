/** A text as a JQL string literal: in double quotes, backslashes and double quotes escaped. */
export function jqlString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/**
 * A project as a JQL value (`project = …`): a numeric id as the number, a key or name as a string
 * literal, so a name with spaces, quotes or JQL words (`My "Big" Project`, `AND`) stays one value.
 */
export function jqlProject(project: string): string {
  return /^\d+$/.test(project) ? project : jqlString(project);
}
