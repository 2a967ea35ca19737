/** A name `{{KEY}}` can read: a letter or _ first, then letters, digits and _. */
export const ENVIRONMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** How many environment variables one user may keep. */
export const MAX_ENVIRONMENT_VARIABLES = 500;
/** The longest value (in characters) an environment variable may hold. */
export const MAX_ENVIRONMENT_VALUE_LENGTH = 64 * 1024;

/**
 * Why the registry refuses one environment variable (its name, then its value's length), or
 * undefined: the registry's message, which the settings page shows beside the row before saving.
 */
export function environmentVariableProblem(name: string, value: string): string | undefined {
  if (!ENVIRONMENT_NAME.test(name)) return `Environment variable name '${name}' must start with a letter or _ and hold only letters, digits and _`;
  if (value.length > MAX_ENVIRONMENT_VALUE_LENGTH) return `Environment variable ${name} is longer than ${MAX_ENVIRONMENT_VALUE_LENGTH} characters`;
  return undefined;
}

/** Why the registry refuses a set of `count` environment variables, or undefined. */
export function environmentCountProblem(count: number): string | undefined {
  return count > MAX_ENVIRONMENT_VARIABLES ? `At most ${MAX_ENVIRONMENT_VARIABLES} environment variables are allowed` : undefined;
}
