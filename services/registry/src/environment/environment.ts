import { environmentCountProblem, environmentVariableProblem } from '@weft/catalog';
import { AppError } from '@weft/platform';
import type { Registry } from '../ports.js';
import { emit } from '../events.js';

/** Additional data bound to a variable's ciphertext: the value only decrypts in its own row. */
function context(userId: string, name: string): string {
  return `env:${userId}:${name}`;
}

/** The caller's environment variables, decrypted. */
export async function getEnvironment(r: Registry, userId: string): Promise<Record<string, string>> {
  const rows = await r.db.selectFrom('environment_variables').selectAll().where('user_id', '=', userId).orderBy('name').execute();
  return Object.fromEntries(rows.map((row) => [row.name, r.cipher.decrypt(row.value, row.key_id, context(userId, row.name))]));
}

/** Replaces the caller's variables with `variables`, encrypted; the event names them, never their values. */
export async function setEnvironment(r: Registry, userId: string, variables: Record<string, string>): Promise<Record<string, string>> {
  const names = Object.keys(variables);
  const tooMany = environmentCountProblem(names.length);
  if (tooMany) throw new AppError('validation', tooMany);
  for (const name of names) {
    const problem = environmentVariableProblem(name, variables[name] ?? '');
    if (problem) throw new AppError('validation', problem);
  }
  await r.db.transaction().execute(async (trx) => {
    await trx.deleteFrom('environment_variables').where('user_id', '=', userId).execute();
    if (names.length > 0) {
      await trx
        .insertInto('environment_variables')
        .values(
          names.map((name) => {
            const sealed = r.cipher.encrypt(variables[name] ?? '', context(userId, name));
            return { user_id: userId, name, value: sealed.value, key_id: sealed.keyId, updated_at: r.now() };
          }),
        )
        .execute();
    }
    await emit(trx, r.instance, 'user', userId, 'environmentUpdated', { userId, names });
  });
  r.kick();
  return getEnvironment(r, userId);
}

/** Re-encrypts environment values sealed with an older key; answers how many it rewrote. */
export async function rotateEnvironment(r: Registry): Promise<number> {
  const stale = await r.db.selectFrom('environment_variables').selectAll().where('key_id', '!=', r.cipher.currentKeyId).execute();
  for (const row of stale) {
    const ctx = context(row.user_id, row.name);
    const sealed = r.cipher.encrypt(r.cipher.decrypt(row.value, row.key_id, ctx), ctx);
    await r.db
      .updateTable('environment_variables')
      .set({ value: sealed.value, key_id: sealed.keyId })
      .where('user_id', '=', row.user_id)
      .where('name', '=', row.name)
      .where('key_id', '=', row.key_id)
      .execute();
  }
  return stale.length;
}
