import { z } from 'zod';
import { AppError } from '@weft/platform';

const nonEmpty = z.string('must be a non-empty string').trim().min(1, 'must be a non-empty string');

/** A custom tool as the browser sends it (spec 000 §3 Custom tool); missing code becomes ''. */
const customToolSchema = z.object({
  id: nonEmpty,
  title: nonEmpty,
  schema: z.looseObject({
    function: z.looseObject({
      name: nonEmpty,
      description: z.string('must be a string'),
      parameters: z.looseObject({
        properties: z.record(z.string(), z.unknown(), 'must be an object'),
        required: z.array(z.string('must be a string'), 'must be a list of strings').default([]),
      }, 'must be an object'),
    }, 'must be an object'),
  }, 'must be an object'),
  code: z.string('must be a string').nullish().transform((code) => code ?? ''),
}, 'must be an object');

export type CustomToolInput = z.infer<typeof customToolSchema>;

function nameOf(tool: unknown, index: number): string {
  const named = z.object({ title: z.string().trim().min(1) }).or(z.object({ id: z.string().min(1) })).safeParse(tool);
  if (!named.success) return `#${index + 1}`;
  return `"${'title' in named.data ? named.data.title : named.data.id}"`;
}

/**
 * Validates a batch of custom tools; the first invalid one refuses the whole batch with a message
 * naming the tool and the field, e.g. `Invalid custom tool "Weather": schema.function.name must be a non-empty string`.
 */
export function validateCustomTools(input: unknown): CustomToolInput[] {
  if (!Array.isArray(input)) throw new AppError('validation', 'tools must be a list of custom tools');
  return input.map((tool: unknown, index) => {
    const parsed = customToolSchema.safeParse(tool);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    const field = issue?.path.join('.') ?? '';
    throw new AppError('validation', `Invalid custom tool ${nameOf(tool, index)}: ${field ? `${field} ` : ''}${issue?.message ?? 'is invalid'}`);
  });
}
