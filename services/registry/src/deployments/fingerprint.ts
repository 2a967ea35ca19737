import { z } from 'zod';
import { graphFingerprint } from '@weft/workflow';

const storedGraph = z.object({
  blocks: z.record(z.string(), z.looseObject({})),
  edges: z.array(z.looseObject({})),
  loops: z.record(z.string(), z.looseObject({})).default({}),
  parallels: z.record(z.string(), z.looseObject({})).default({}),
  variables: z.record(z.string(), z.looseObject({})).optional(),
});

/**
 * The fingerprint of a deployed state as stored, with the editor's function (`graphFingerprint`),
 * so it equals the fingerprint the editor publishes for the same graph; null when it is not a graph.
 */
export function deployedFingerprint(state: unknown): string | null {
  const parsed = storedGraph.safeParse(state);
  return parsed.success ? graphFingerprint(parsed.data) : null;
}
