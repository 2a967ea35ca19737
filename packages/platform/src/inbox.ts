import { sql, type Kysely, type Transaction } from 'kysely';

/**
 * Runs `fn` in a transaction only the first time `consumer` sees `eventId`; the inbox row and the
 * consumer's state change commit together, so a redelivered event is dropped. Answers whether it ran.
 */
export async function handleOnce<DB>(db: Kysely<DB>, consumer: string, eventId: string, fn: (trx: Transaction<DB>) => Promise<void>): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const inserted = await sql`insert into inbox (consumer, event_id) values (${consumer}, ${eventId}) on conflict do nothing`.execute(trx);
    if (Number(inserted.numAffectedRows ?? 0) === 0) return false;
    await fn(trx);
    return true;
  });
}
