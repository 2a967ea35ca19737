import { sql, type Kysely } from 'kysely';
import { z } from 'zod';
import type { AuthDB } from './schema.js';

const open = (name: string) => z.boolean(`layout.${name} must be true or false`).nullable().optional();

/**
 * A change of the signed-in user's settings (PATCH /api/settings): the editor's layout choices — which of the
 * workflow sidebar, block palette and side panel are open, and the side panel's width (260–720 px) — that the web
 * app keeps per browser and sends here so they follow the user. `null` forgets a choice; a field left out stays.
 */
export const settingsPatch = z.strictObject(
  {
    layout: z
      .strictObject(
        {
          sidebarOpen: open('sidebarOpen'),
          paletteOpen: open('paletteOpen'),
          panelOpen: open('panelOpen'),
          panelWidth: z
            .number('layout.panelWidth must be a number')
            .int('layout.panelWidth must be a whole number of pixels')
            .min(260, 'layout.panelWidth must be at least 260')
            .max(720, 'layout.panelWidth must be at most 720')
            .nullable()
            .optional(),
        },
        // Unknown fields keep zod's own message, which names them.
        { error: (issue) => (issue.code === 'invalid_type' ? 'layout must be an object' : undefined) },
      )
      .optional(),
  },
);

/** The signed-in user's settings as GET /api/settings answers them: the layout choices made so far. */
export interface UserSettings {
  layout: { sidebarOpen?: boolean; paletteOpen?: boolean; panelOpen?: boolean; panelWidth?: number };
}

const stored = settingsPatch.required({ layout: true });

/** The settings a row holds; anything unreadable (an older shape) is left out rather than answered. */
function read(value: unknown): UserSettings {
  const parsed = stored.safeParse(typeof value === 'string' ? JSON.parse(value) : value);
  if (!parsed.success) return { layout: {} };
  return { layout: withoutNulls(parsed.data.layout) };
}

function withoutNulls(layout: z.infer<typeof settingsPatch>['layout']): UserSettings['layout'] {
  return Object.fromEntries(Object.entries(layout ?? {}).filter(([, v]) => v !== null && v !== undefined));
}

/** Each user's settings, in schema `auth` beside their account. */
export function createUserSettings(db: Kysely<AuthDB>) {
  async function get(userId: string): Promise<UserSettings> {
    const row = await db.selectFrom('user_settings').select('settings').where('user_id', '=', userId).executeTakeFirst();
    return row ? read(row.settings) : { layout: {} };
  }
  return {
    get,
    /** Applies a change (validated with `settingsPatch`) in one transaction, so two browsers' changes of different fields both stay. */
    async update(userId: string, patch: z.infer<typeof settingsPatch>): Promise<UserSettings> {
      return db.transaction().execute(async (tx) => {
        await tx.insertInto('user_settings').values({ user_id: userId, settings: JSON.stringify({ layout: {} }) }).onConflict((c) => c.column('user_id').doNothing()).execute();
        const row = await tx.selectFrom('user_settings').select('settings').where('user_id', '=', userId).forUpdate().executeTakeFirstOrThrow();
        const current = read(row.settings);
        const next: UserSettings = { layout: withoutNulls({ ...current.layout, ...patch.layout }) };
        await tx.updateTable('user_settings').set({ settings: JSON.stringify(next), updated_at: sql`now()` }).where('user_id', '=', userId).execute();
        return next;
      });
    },
  };
}

export type UserSettingsStore = ReturnType<typeof createUserSettings>;
