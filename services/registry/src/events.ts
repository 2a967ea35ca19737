import type { QueryExecutorProvider } from 'kysely';
import { appendOutbox, createEnvelope } from '@weft/platform';

/** What a registry event is about; its subject is `<instance>.registry.<kind>.<id>`. */
export type EventTopic = 'workspace' | 'workflow' | 'folder' | 'user';

/** Subject of a registry event about one workflow (the editor consumes these). */
export function workflowSubject(instance: string, workflowId: string): string {
  return `${instance}.registry.workflow.${workflowId}`;
}

/** Writes one registry event to the outbox inside the caller's transaction. */
export async function emit(trx: QueryExecutorProvider, instance: string, topic: EventTopic, id: string, type: string, data: Record<string, unknown>): Promise<void> {
  await appendOutbox(trx, [createEnvelope(`${instance}.registry.${topic}.${id}`, type, data)]);
}
