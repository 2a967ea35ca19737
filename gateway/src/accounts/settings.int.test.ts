import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@weft/platform';
import { createTestDatabase } from '@weft/testkit';
import { accountMigrations, type AuthDB } from './schema.js';
import { createUserSettings, settingsPatch } from './settings.js';
import { parseBody } from '../validate.js';

describe('user settings (GET/PATCH /api/settings) kept in Postgres (real database)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase<AuthDB>>>;
  beforeAll(async () => {
    database = await createTestDatabase<AuthDB>('usersettings', { '0002_user_settings': accountMigrations['0002_user_settings']! });
  });
  afterAll(async () => {
    await database.drop();
  });

  it('answers no choices at first, keeps each change beside the others, forgets one set to null, per user', async () => {
    const settings = createUserSettings(database.db);
    expect(await settings.get('u1')).toEqual({ layout: {} });
    expect(await settings.update('u1', { layout: { panelOpen: false, panelWidth: 400 } })).toEqual({ layout: { panelOpen: false, panelWidth: 400 } });
    // Two browsers changing different fields at once: both changes stay.
    await Promise.all([settings.update('u1', { layout: { sidebarOpen: true } }), settings.update('u1', { layout: { paletteOpen: false } })]);
    expect(await settings.get('u1')).toEqual({ layout: { panelOpen: false, panelWidth: 400, sidebarOpen: true, paletteOpen: false } });
    expect(await settings.update('u1', { layout: { panelWidth: null } })).toEqual({ layout: { panelOpen: false, sidebarOpen: true, paletteOpen: false } });
    expect(await settings.update('u1', {})).toEqual({ layout: { panelOpen: false, sidebarOpen: true, paletteOpen: false } });
    expect(await settings.get('u2')).toEqual({ layout: {} });
  });

  it('refuses a bad change with a 400 naming the field', () => {
    const refused = (body: unknown) => {
      try {
        parseBody(settingsPatch, body);
      } catch (err) {
        expect(err).toBeInstanceOf(AppError);
        return (err as AppError).message;
      }
      return 'accepted';
    };
    expect(refused({ layout: { panelWidth: 5000 } })).toBe('layout.panelWidth must be at most 720');
    expect(refused({ layout: { panelWidth: 'wide' } })).toBe('layout.panelWidth must be a number');
    expect(refused({ layout: { panelOpen: 'yes' } })).toBe('layout.panelOpen must be true or false');
    expect(refused({ layout: 'compact' })).toBe('layout must be an object');
    expect(refused({ theme: 'dark' })).toMatch(/theme/);
    expect(refused({ layout: { zoom: 2 } })).toMatch(/zoom/);
    expect(refused({ layout: { panelOpen: true } })).toBe('accepted');
  });
});
